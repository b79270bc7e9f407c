"""The rule sets the bot runs, one package each (``fort``, ``sengensho``): each exports one ``RuleSet``
(``bot.rulesets.<name>.ruleset.RULESET``), and ``builtin`` lists them (one line a rule set) for the
registry (``bot.registry``). Nothing here is imported by the generic layers."""
