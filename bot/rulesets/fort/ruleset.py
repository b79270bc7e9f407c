"""The fort-defense rule set as one ``RuleSet`` (``RULESET``), found by the name ``fort`` in the registry."""

from __future__ import annotations

from importlib import resources
from typing import Any

from bot import gm_targets
from bot.ruleset import Lazy, Names, Pictures, RuleSet, TextBinding
from bot.rulesets.fort import commands, events, names, odds_text, roster_text
from bot.rulesets.fort import report_text as fort_report
from bot.rulesets.fort import text as fort_text
from bot.rulesets.fort.gm_targets import TARGETS as GM_TARGETS
from bot.rulesets.fort.sheets import FORT_COMMANDS, own_palettes, roll_query
from bot.rulesets.fort.views import OddsView, PreviewView, RosterView
from engine.fort import FORT
from engine.fort import commands as fc
from engine.fort.ccfolia import ccfolia_text
from engine.fort.export import export_parts
from engine.fort.keys import RULES
from engine.fort.limits import check_state
from engine.fort.restore import restore_state


def _report(report: Any, lang: str) -> tuple[str, list[str]]:
    return fort_report.title(report, lang), fort_report.report_lines(report, lang)


def _roster(view: RosterView, lang: str) -> str:
    assert view.roster is not None
    return "\n".join(roster_text.roster_lines(view.roster, lang))


def _preview(view: PreviewView, lang: str) -> str:
    return "\n".join(roster_text.preview_lines(view.events, lang))


def _presenter() -> Any:
    from bot.rulesets.fort.discord.binding import PRESENTER  # discord.py loads with it

    return PRESENTER


def _pictures() -> Pictures:
    from bot.rulesets.fort.pictures.binding import PICTURES  # Pillow loads with it

    return PICTURES


def _planner() -> Any:
    from bot.rulesets.fort.planner.runner import OddsRunner  # the worker processes start when asked

    return OddsRunner()


def _prep() -> Any:
    from bot.rulesets.fort.prep.binding import PREP  # aiohttp's page, only for ``toride prep``

    return PREP


RULESET = RuleSet(
    ruleset=FORT,
    group=commands.GROUP,
    command_to_json=fc.command_to_json,
    commands=FORT_COMMANDS,
    groups=("fort", "pc", "unit", "commander", "attack", "trap", "cannon", "ballista"),
    is_over=commands.is_over,
    authorize=commands.authorize,
    builders={"gm set": gm_targets.builder(fc.GMSet, GM_TARGETS)},
    gm_targets=GM_TARGETS,
    round_end_kinds=frozenset({"battle.round_summary"}),
    battle_end_kinds=frozenset({"battle.ended"}),
    in_summary=commands.in_summary,
    report=commands.report,
    check_limits=check_state,
    exporters={"ccfolia": ccfolia_text},
    export_parts=export_parts,
    restorer=restore_state,
    text=TextBinding(
        status=fort_text.status,
        summary_extra=fort_text.summary_extra,
        report=_report,
        event_values=events.EVENT_VALUES,
        views={RosterView: _roster, PreviewView: _preview, OddsView: odds_text.odds_text},
    ),
    names=Names(completion=names.completion, candidates=names.candidates),
    palettes=own_palettes,
    queries={"pc roll": roll_query},
    rule_ids=RULES,
    discord=Lazy(_presenter),
    pictures=Lazy(_pictures),
    planner=_planner,
    prep=Lazy(_prep),
    catalogues=resources.files("bot.rulesets.fort") / "i18n",
)
