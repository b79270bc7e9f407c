"""``toride prep``: the GM's prep table, a local web page that builds a fort battle (a third front-end).

``forms`` turns the page's forms into a ``toride.fort/1`` document, ``build`` checks it as the bot does
(the commands' options, the engine's own commands, ``/fort import``) and makes units of monster sheets;
``server`` serves the page, the battlefield picture and the odds planner on 127.0.0.1; ``page`` writes
the page from the catalogues; ``cli`` is the command line.
"""
