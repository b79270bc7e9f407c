"""Pictures of a battle: the fort battlefield map and the fort HP chart, as PNG bytes.

``layout`` decides where everything goes (pure: no pixels, no fonts), ``draw`` paints a layout with
Pillow, ``timeline`` computes the fort HP by round from the battle's events (pure) and ``chart``
draws it. ``fonts`` loads the bundled Japanese font, ``theme`` holds the colours and text sizes.
Like the text renderers, they read the status view's document (``toride.fort/1``) and the
catalogues; none of them imports Discord or the database.
"""
