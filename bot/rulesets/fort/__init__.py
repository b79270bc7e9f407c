"""The fort-defense rule set (砦防衛戦闘, engine/fort) in the bot, all of it in this folder: its commands
(``commands``, ``sheets``), text (``text``, ``events``, ``report_text``, ``roster_text``, ``odds_text``),
names (``names``), views (``views``), pictures (``pictures/``), Discord presenter (``discord/``),
planner (``planner/``), prep page binding (``prep/``) and message catalogues (``i18n/``), put together
as one ``RuleSet`` in ``ruleset`` (``RULESET``)."""
