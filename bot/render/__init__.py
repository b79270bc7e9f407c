"""Renderers: views → what a user reads. ``text`` is the console's; Discord embeds come later."""
