"""The planners of the rule sets that have one (``RuleSet.planner``: ``/fort odds``), each made the
first time its rule set's battle asks for a plan, and closed with the service."""

from __future__ import annotations

from collections.abc import Mapping

from bot.ruleset import Planner, RuleSet


class Planners:
    def __init__(self, given: Mapping[str, Planner] | None = None) -> None:
        #: by rule set name: the planners made (or given: a test's, with its own limits)
        self._made: dict[str, Planner] = dict(given or {})

    def of(self, ruleset: RuleSet) -> Planner | None:
        """The planner of ``ruleset`` (None: it has none)."""
        planner = self._made.get(ruleset.name)
        if planner is None and ruleset.planner is not None:
            planner = self._made[ruleset.name] = ruleset.planner()
        return planner

    def queued(self, name: str) -> int:
        """How many plans the planner of the rule set ``name`` has not answered yet (0: none made)."""
        planner = self._made.get(name)
        return 0 if planner is None else planner.queued()

    async def close(self) -> None:
        """Stop every planner made (their worker processes)."""
        made, self._made = self._made, {}
        for planner in made.values():
            await planner.close()
