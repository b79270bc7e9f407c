"""The fort's own views: ``/unit list``'s roster, ``/unit advance preview:true``'s events, ``/fort
odds``'s answer. The fort's renderers read them (``RuleSet.text.views``, its presenter's ``views``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.views import RulesetView
from engine.fort.planner import OddsResult
from engine.fort.roster import Roster
from engine.ruleset import Event

#: the rule set these views are of
FORT = "fort"


@dataclass(frozen=True, slots=True)
class RosterView(RulesetView):
    """``/unit list``: the roster of a battle (``engine.fort.roster.Roster``)."""

    ruleset: str = FORT
    roster: Roster | None = None


@dataclass(frozen=True, slots=True)
class PreviewView(RulesetView):
    """``/unit advance preview:true``: the events the command would have, with nothing changed."""

    ruleset: str = FORT
    command: str = ""
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class OddsView(RulesetView):
    """``/fort odds``: what the planner's runs gave for the battle titled ``title``, and the file name
    of its chart."""

    ruleset: str = FORT
    title: str = ""
    result: OddsResult | None = None
    filename: str = ""
