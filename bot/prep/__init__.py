"""``toride prep``: the GM's prep table, a local web page that builds a battle (a third front-end), of a
rule set with a prep binding (``RuleSet.prep``: the fort's, ``bot.rulesets.fort.prep``).

``binding`` says what the page needs of a rule set; ``server`` serves the page, the battlefield picture
and the planner on 127.0.0.1; ``cli`` is the command line.
"""
