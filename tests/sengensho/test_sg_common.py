"""engine/common: the plumbing the rule sets share (names, command codec, dice-carrying events)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.common import (
    Command,
    CommandCodec,
    EventRecorder,
    clean_name,
    dice_values,
    fold,
    parse_bool,
)
from engine.dice import ScriptedDice
from engine.ruleset import RuleError


@dataclass(frozen=True, slots=True)
class Pierce(Command):
    from_: str
    power: int = 1
    quiet: bool | None = None


def test_fold_and_clean_name() -> None:
    assert fold(" ＲＥＩＭＵ ") == "reimu"
    assert clean_name(" 霊夢　", "x") == ("霊夢", "霊夢")
    with pytest.raises(RuleError) as caught:
        clean_name("a" * 65, "x")
    assert caught.value.key == "x.name_invalid"


def test_parse_bool() -> None:
    assert [parse_bool(w) for w in ("TRUE", "はい", "0", "off", "maybe")] == [True, True, False, False, None]


def test_codec_renames_fields_and_checks_types() -> None:
    codec: CommandCodec[Pierce] = CommandCodec("x", [Pierce], renames={"from_": "from"})
    assert codec.to_json(Pierce("A1")) == {"type": "Pierce", "from": "A1", "power": 1, "quiet": None}
    assert codec.from_json({"type": "Pierce", "from": "B2", "quiet": True}) == Pierce("B2", 1, True)
    with pytest.raises(RuleError) as caught:
        codec.from_json({"type": "Pierce", "from": "B2", "power": 1.5})
    assert (caught.value.key, caught.value.values) == (
        "x.command_invalid",
        {"reason": "wrong_type", "type": "Pierce", "field": "power"},
    )


def test_events_carry_the_dice_rolled_since_the_last_one() -> None:
    rec = EventRecorder(ScriptedDice([3, 4, 5]))
    rec.roll(6)
    rec.roll(6)
    rec.emit("a", {})
    rec.emit("b", {"n": 1})
    rec.roll(6)
    rec.emit("c", {})
    assert [(e.kind, e.dice) for e in rec.events] == [("a", ((6, 3), (6, 4))), ("b", ()), ("c", ((6, 5),))]
    assert dice_values(rec.events) == [3, 4, 5]
