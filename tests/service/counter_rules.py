"""A tiny rule set for the service tests: a counter with HP, hits (some rolled), rounds and an end.

It is a ``RuleSet`` like a real one (``COUNTER_RULESET``), installed beside the built-in ones
(``register``), so the service is tested against the ``Ruleset`` protocol only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from bot import commands as cmd
from bot.commands import BuildContext, CommandSpec, Kind, Option, OptType
from bot.registry import install, rulesets
from bot.ruleset import RuleSet
from bot.rulesets.builtin import BUILTIN
from engine.dice import DiceSource
from engine.ruleset import Event, Outcome, RuleError


@dataclass(frozen=True)
class CState:
    title: str
    hp: int
    round: int = 1
    ended: bool = False
    rolls: tuple[int, ...] = ()


@dataclass(frozen=True)
class Start:
    hp: int
    title: str = ""


@dataclass(frozen=True)
class Hit:
    gm_only: ClassVar[bool] = False
    amount: int | str
    invoker: str


@dataclass(frozen=True)
class Next:
    pass


@dataclass(frozen=True)
class End:
    pass


@dataclass(frozen=True)
class Set:
    target: str
    value: str


class Counter:
    name = "counter"
    export_format = "test.counter/1"

    def apply(self, state: CState | None, command: Any, dice: DiceSource) -> Outcome[CState]:
        if isinstance(command, Start):
            new = CState(title=command.title, hp=command.hp)
            return Outcome(new, [Event("ctr.started", {"hp": command.hp})])
        assert state is not None
        if state.ended:
            raise RuleError("ctr.over")
        if isinstance(command, Hit):
            if isinstance(command.amount, int):
                damage, rolled = command.amount, ()
            else:
                # any expression: 2d6
                rolled = (dice.roll(6), dice.roll(6))
                damage = sum(rolled)
            if damage > state.hp:
                raise RuleError("ctr.too_much", hp=state.hp, damage=damage)
            new = dataclasses.replace(state, hp=state.hp - damage, rolls=state.rolls + rolled)
            return Outcome(
                new,
                [
                    Event(
                        "ctr.hit",
                        {"damage": damage, "hp": new.hp, "by": command.invoker},
                        tuple((6, v) for v in rolled),
                    )
                ],
            )
        if isinstance(command, Next):
            return Outcome(
                dataclasses.replace(state, round=state.round + 1),
                [Event("ctr.round_ended", {"round": state.round})],
            )
        if isinstance(command, End):
            return Outcome(dataclasses.replace(state, ended=True), [Event("ctr.ended", {"hp": state.hp})])
        if isinstance(command, Set):
            if command.target != "hp":
                raise RuleError("ctr.bad_target", target=command.target)
            return Outcome(
                dataclasses.replace(state, hp=int(command.value)),
                [Event("ctr.set", {"target": "hp", "value": int(command.value)})],
            )
        raise RuleError("ctr.unknown")

    def export(self, state: CState) -> dict[str, Any]:
        return {
            "format": self.export_format,
            "title": state.title,
            "hp": state.hp,
            "round": state.round,
            "ended": state.ended,
            "rolls": list(state.rolls),
        }

    def import_(self, document: Mapping[str, Any]) -> CState:
        if not isinstance(document.get("hp"), int):
            raise RuleError("ctr.bad_document")
        return CState(
            title=str(document.get("title", "")),
            hp=document["hp"],
            round=int(document.get("round", 1)),
            ended=bool(document.get("ended", False)),
            rolls=tuple(document.get("rolls", ())),
        )


COUNTER = Counter()


def _json(command: Any) -> dict[str, Any]:
    return {"type": type(command).__name__, **dataclasses.asdict(command)}


def _hit(o: Mapping[str, Any], c: BuildContext) -> Hit:
    return Hit(o["amount"], c.invoker)


COUNTER_RULESET = RuleSet(
    ruleset=COUNTER,
    group="ctr",
    is_over=lambda s: bool(s.ended),
    command_to_json=_json,
    builders={"gm set": lambda o, c: Set(o["target"], o["value"])},
    round_end_kinds=frozenset({"ctr.round_ended"}),
    battle_end_kinds=frozenset({"ctr.ended"}),
    commands=(
        CommandSpec(
            "ctr",
            "start",
            Kind.START,
            (Option("hp", OptType.INT, required=True, min=1), Option("title", default="")),
            ruleset="counter",
            build=lambda o, c: Start(o["hp"], o["title"]),
        ),
        CommandSpec(
            "ctr",
            "hit",
            Kind.ENGINE,
            (Option("amount", OptType.DAMAGE, required=True),),
            ruleset="counter",
            build=_hit,
        ),
        CommandSpec("ctr", "next", Kind.ENGINE, gm=True, ruleset="counter", build=lambda o, c: Next()),
        CommandSpec("ctr", "end", Kind.ENGINE, gm=True, ruleset="counter", build=lambda o, c: End()),
        *cmd.ruleset_lifecycle("ctr", "counter"),
    ),
)


def register() -> None:
    """Install the counter beside the built-in rule sets (once)."""
    if rulesets().get("counter") is None:
        install(*BUILTIN, COUNTER_RULESET)
