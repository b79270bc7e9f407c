"""The ordinary battle (BATTLE.md, ``/battle``): everything the bot has of it but its pure rules
(engine/battle), exported as one ``RuleSet`` (``bot.rulesets.battle.ruleset.RULESET``)."""
