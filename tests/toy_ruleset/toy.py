"""A toy rule set, whole in this folder and nowhere else: a tally of dice towards a goal.

``/toy start goal:`` (the GM) opens a tally, ``/toy add count:`` rolls that many d6 and adds them, and
the tally ends when it reaches its goal; ``status``, ``log``, ``export`` and ``import`` are the
lifecycle commands every rule set's group gets. Its ``RuleSet`` (``TOY``) is what a new rule set
writes: an engine (``apply``, ``export``, ``import_``), its commands, its text and its catalogue
folder (``i18n/``). Registered beside the built-in ones (a ``Registry``), it gets a console command,
a slash command and a status, with nothing generic touched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from bot.commands import Kind, Option, OptType, engine_command, ruleset_lifecycle
from bot.i18n import t
from bot.ruleset import RuleSet, TextBinding
from bot.views import StatusView
from engine.dice import DiceSource
from engine.ruleset import Event, Outcome, RuleError

FORMAT = "toride.toy/1"


@dataclass(frozen=True)
class Tally:
    goal: int
    total: int = 0
    rolls: tuple[int, ...] = ()
    ended: bool = False


@dataclass(frozen=True)
class Start:
    gm_only: ClassVar[bool] = True
    goal: int


@dataclass(frozen=True)
class Add:
    gm_only: ClassVar[bool] = False
    count: int = 1


class TallyRules:
    """The engine: pure, its dice passed in."""

    name = "toy"
    export_format = FORMAT

    def apply(self, state: Tally | None, command: Any, dice: DiceSource) -> Outcome[Tally]:
        if isinstance(command, Start):
            return Outcome(Tally(command.goal), [Event("toy.started", {"goal": command.goal})])
        assert state is not None
        if state.ended:
            raise RuleError("toy.over")
        rolled = [dice.roll(6) for _ in range(command.count)]
        total = state.total + sum(rolled)
        events = [Event("toy.added", {"amount": sum(rolled), "total": total}, tuple((6, r) for r in rolled))]
        if total >= state.goal:
            events.append(Event("toy.ended", {"total": total, "goal": state.goal}))
        after = replace(state, total=total, rolls=(*state.rolls, *rolled), ended=total >= state.goal)
        return Outcome(after, events)

    def export(self, state: Tally) -> dict[str, Any]:
        return {"format": FORMAT, "goal": state.goal, "total": state.total, "rolls": list(state.rolls),
                "ended": state.ended}  # fmt: skip

    def import_(self, document: Mapping[str, Any]) -> Tally:
        return Tally(int(document["goal"]), int(document.get("total", 0)), tuple(document.get("rolls", ())),
                     bool(document.get("ended", False)))  # fmt: skip


def status(view: StatusView, lang: str) -> str:
    """``/toy status``: the tally and its goal, then the GMs."""
    doc = view.document
    lines = [t("toy.status.head", lang, total=doc["total"], goal=doc["goal"])]
    if doc["rolls"]:
        lines.append(t("toy.status.rolls", lang, rolls=" ".join(str(r) for r in doc["rolls"])))
    lines.append(t("toy.status.gms", lang, gms=t("render.list_sep", lang).join(view.gms)))
    return "\n".join(lines)


TOY = RuleSet(
    ruleset=TallyRules(),
    group="toy",
    command_to_json=lambda command: {"type": type(command).__name__, **vars(command)},
    commands=(
        engine_command(
            "toy", "toy", "start", Start, Option("goal", OptType.INT, min=1, max=100), kind=Kind.START
        ),
        engine_command("toy", "toy", "add", Add, Option("count", OptType.INT, min=1, max=3)),
        *ruleset_lifecycle("toy", "toy"),
    ),
    battle_end_kinds=frozenset({"toy.ended"}),
    text=TextBinding(status=status),
    catalogues=Path(__file__).with_name("i18n"),
)
