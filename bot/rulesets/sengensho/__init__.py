"""The 千幻抄 rule set (dice-pool combat, engine/sengensho) in the bot, all of it in this folder: its
commands and who may run them (``commands``), text (``text``, ``events``), names (``names``), Discord
presenter (``discord``) and message catalogue (``i18n/``), put together as one ``RuleSet`` in
``ruleset`` (``RULESET``)."""
