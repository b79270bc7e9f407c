"""``toride odds BATTLE.json [--runs N] [--pc-damage DICE] [--focus threats|commanders] [--repair]
[--seed N] [--json]``: "will the fort hold?" for an exported battle (or a scenario), as ``/fort odds``
answers it.

It reads the file as ``toride map`` does (a fort battle: ``bot.map_cli.read``) and runs the planner here
(a command line waits for it), with neither the database nor Discord (``bot.cli`` comes here first). The
answer is the text of ``/fort odds`` and its chart written as a PNG (``-o``, default
``BATTLE-odds.png``); with ``--json``, ``{"runs", "hold", "fort_hp": {"p10", "p50", "p90"}, "threats":
[...], "not_played": [...], ...}`` alone (the chart only when ``-o`` is given).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.i18n import DEFAULT_LANG, LANGUAGES, t
from bot.map_cli import read
from bot.render.common import os_error_text, refusal_text
from engine.errors import EngineError
from engine.fort import FORT
from engine.fort.state import FortState


def _arguments(p: argparse.ArgumentParser) -> None:
    from engine.fort.planner import DEFAULT_RUNS, MAX_RUNS, MIN_RUNS

    p.add_argument("battle", type=Path, help="an exported fort battle: /fort export, or a scenario file")
    runs = f"how many battles to play ({MIN_RUNS}-{MAX_RUNS}, default {DEFAULT_RUNS})"
    p.add_argument("--runs", type=int, default=DEFAULT_RUNS, help=runs)
    damage = 'the PC side\'s damage per round: "2d+8" or "Alice=K20+10:magic,Bob=2d+8"'
    p.add_argument("--pc-damage", default=None, metavar="DICE", help=damage)
    focus = "where the PC side's attacks go: the threats (default), or the commanders until none stands"
    p.add_argument("--focus", choices=("threats", "commanders"), default="threats", help=focus)
    p.add_argument("--repair", action="store_true", help="use emergency repair, the cannons and the ballista")
    p.add_argument("--seed", type=int, default=None, help="the random seed (default: a new one, printed)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.add_argument("-o", "--output", type=Path, default=None, help="the chart (default: BATTLE-odds.png)")
    p.add_argument("--lang", choices=list(LANGUAGES), default=DEFAULT_LANG, help="language of the answer")


def add_odds_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("odds", help="will the fort hold? play an exported battle many times")
    _arguments(p)
    p.set_defaults(func=run_odds)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="toride odds", description="Will the fort hold? (/fort odds)")
    _arguments(parser)
    return run_odds(parser.parse_args(argv))


def run_odds(args: argparse.Namespace) -> int:
    from bot.rulesets.builtin import ensure_builtin
    from engine.fort.planner import PlanRequest, parse_focus, parse_pc_damage, plan
    from engine.fort.planner.request import MAX_SEED

    ensure_builtin()
    lang = args.lang
    try:
        state = _fort_state(args.battle)
        seed = secrets.randbelow(MAX_SEED + 1) if args.seed is None else args.seed
        request = PlanRequest(
            runs=args.runs,
            attacks=parse_pc_damage(args.pc_damage),
            equipment=args.repair,
            seed=seed,
            focus=parse_focus(args.focus),
        )
        result = plan(state, request)
    except EngineError as error:
        print(t("render.refused", lang, reason=refusal_text(error.key, error.values, lang)),
              file=sys.stderr)  # fmt: skip
        return 2
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        if args.output is None:
            return 0
    from bot.rulesets.fort.odds_text import odds_text
    from bot.rulesets.fort.pictures.odds_chart import odds_png
    from bot.rulesets.fort.views import OddsView

    view = OddsView(title=state.title, result=result)
    output: Path = args.output or args.battle.with_name(args.battle.stem + "-odds.png")
    try:
        output.write_bytes(odds_png(result, state.title, lang))
    except OSError as error:
        reason = t("console.file_unwritable", lang, path=str(output), error=os_error_text(error, lang))
        print(t("render.refused", lang, reason=reason), file=sys.stderr)
        return 2
    if not args.json:
        print(odds_text(view, lang))
        print(t("odds.chart_written", lang, path=str(output)))
    return 0


def _fort_state(path: Path) -> FortState:
    """The fort battle of ``path`` (``bot.map_cli.read``; another rule set's battle is no fort battle)."""
    battle = read(path)
    if battle.ruleset.ruleset is not FORT:
        raise EngineError("map.not_a_battle", path=str(path))
    state: FortState = battle.state
    return state
