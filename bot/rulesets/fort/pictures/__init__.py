"""The fort's pictures: the battlefield (``draw``, laid out by ``layout`` on ``geometry``, with the
``marks`` of each kind), the fort HP chart of a final summary (``chart``, from ``timeline``), and the
odds planner's chart (``odds_chart``); ``binding.PICTURES`` is the fort's ``RuleSet.pictures``."""
