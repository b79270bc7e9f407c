"""The core of the detailed rules: characters, DP, turns, the order (S-CORE-1..3, S-START-1, S-REIN-1)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import limits
from engine.common import EventRecorder, clean_name, fold
from engine.ruleset import RuleError
from engine.sengensho.commands import Declare, End, Join, NextTurn, SetState, Start
from engine.sengensho.state import Character, SengenshoState, Side

#: S-CORE-1: the five attributes, in the order they are stored
ATTRIBUTES = ("body", "endurance", "intellect", "sense", "will")

#: 身体 耐久 知性 感覚 意志
Attributes = tuple[int, int, int, int, int]


# --- finding things ----------------------------------------------------------------------------


def running(state: SengenshoState | None) -> SengenshoState:
    """The battle a command acts on: refused if there is none or it is over."""
    if state is None:
        raise RuleError("sg.no_battle")
    if state.ended:
        raise RuleError("sg.battle_over", title=state.title)
    return state


def locate(state: SengenshoState, name: str) -> tuple[int, Character]:
    i = state.find(fold(name))
    if i is None:
        raise RuleError("sg.unknown_character", name=name)
    return i, state.characters[i]


def able(state: SengenshoState, name: str) -> tuple[int, Character]:
    """A character that can still act: not knocked out (S-MERCY-1)."""
    i, c = locate(state, name)
    if c.down is not None:
        raise RuleError("sg.character_down", name=c.name, down=c.down.value)
    return i, c


def non_negative(field: str, value: int | None) -> None:
    if value is not None and value < 0:
        raise RuleError("sg.value_invalid", field=field, value=value)


def parse_side(text: str) -> Side:
    try:
        return Side(fold(text))
    except ValueError:
        raise RuleError("sg.side_invalid", side=text, allowed="pc, enemy") from None


# --- S-CORE-1 ----------------------------------------------------------------------------------


def dp_max_from(attributes: Attributes) -> int:
    """S-CORE-1: maximum DP = 10 + 身体 + 耐久 + 意志."""
    body, endurance, _, _, will = attributes
    return 10 + body + endurance + will


def recovery_from(attributes: Attributes) -> int:
    """S-CORE-1: DP recovery = ⌈(知性 + 感覚) / 3⌉, at least 2."""
    _, _, intellect, sense, _ = attributes
    return max(2, -(-(intellect + sense) // 3))


def pool_of(command: Join) -> tuple[Attributes | None, int, int]:
    """S-CORE-1: the attributes (all five or none) and the DP maximum and recovery, given or derived."""
    given = (command.body, command.endurance, command.intellect, command.sense, command.will)
    for field, value in (*zip(ATTRIBUTES, given, strict=True), ("dp_max", command.dp_max)):
        non_negative(field, value)
    non_negative("recovery", command.recovery)
    attributes: Attributes | None = None
    if any(v is not None for v in given):
        missing = [f for f, v in zip(ATTRIBUTES, given, strict=True) if v is None]
        if missing:
            raise RuleError("sg.attributes_incomplete", name=command.name, missing=", ".join(missing))
        attributes = (given[0] or 0, given[1] or 0, given[2] or 0, given[3] or 0, given[4] or 0)
    dp_max, recovery = command.dp_max, command.recovery
    if attributes is not None:
        dp_max = dp_max_from(attributes) if dp_max is None else dp_max
        recovery = recovery_from(attributes) if recovery is None else recovery
    if dp_max is None:
        raise RuleError("sg.dp_max_required", name=command.name)
    if recovery is None:
        raise RuleError("sg.recovery_required", name=command.name)
    return attributes, dp_max, recovery


def reinforcement_dp(recovery: int, dp_max: int) -> int:
    """S-REIN-1: a character joining a running battle starts with DP = recovery × 3 (at most its maximum)."""
    return min(recovery * 3, dp_max)


# --- S-CORE-3 ----------------------------------------------------------------------------------


def turn_order(state: SengenshoState) -> list[list[Character]]:
    """S-CORE-3: who acts, highest declared DP first; ties act together, listed in join order."""
    steps: dict[int, list[Character]] = {}
    for c in state.characters:
        if c.acts and c.declared is not None:
            steps.setdefault(c.declared, []).append(c)
    return [steps[value] for value in sorted(steps, reverse=True)]


def order_record(state: SengenshoState) -> list[dict[str, Any]]:
    """The order as events carry it: one entry per initiative value, tied names together."""
    return [{"dp": step[0].declared, "names": [c.name for c in step]} for step in turn_order(state)]


# --- commands ----------------------------------------------------------------------------------


def start(state: SengenshoState | None, command: Start, rec: EventRecorder) -> SengenshoState:
    """S-START-1: a battle starts before turn progression (turn 0); the GM starts the turns."""
    if state is not None and not state.ended:
        raise RuleError("sg.already_running", title=state.title)
    title = command.title.strip()
    new = SengenshoState(title=title, ambush=command.ambush, gm_fixed=command.gm_fixed)
    rec.emit("sg.started", {"title": title, "ambush": command.ambush, "gm_fixed": command.gm_fixed})
    return new


def join(state: SengenshoState, command: Join, rec: EventRecorder) -> SengenshoState:
    """S-CORE-1 and S-REIN-1: a new character; once the turns run, it is a reinforcement."""
    limits.check_name(command.name)
    limits.check_count("characters", len(state.characters) + 1, limits.MAX_CHARACTERS)
    name, key = clean_name(command.name, "sg")
    if state.find(key) is not None:
        raise RuleError("sg.name_taken", name=name)
    side = parse_side(command.side)
    attributes, dp_max, recovery = pool_of(command)
    if command.hp is not None and command.hp < 1:
        raise RuleError("sg.value_invalid", field="hp", value=command.hp)
    late = state.turn >= 1
    dp = reinforcement_dp(recovery, dp_max) if late else dp_max
    character = Character(
        name=name,
        key=key,
        owner=command.owner if command.owner is not None else command.invoker,
        side=side,
        dp=dp,
        dp_max=dp_max,
        recovery=recovery,
        attributes=attributes,
        hp=command.hp,
        max_hp=command.hp,
        declared=dp if late else None,
        entry_turn=state.turn if late else None,
    )
    new = replace(state, characters=(*state.characters, character))
    rec.emit(
        "sg.joined",
        {
            "name": name,
            "side": side.value,
            "owner": character.owner,
            "hp": command.hp,
            "dp": dp,
            "dp_max": dp_max,
            "recovery": recovery,
            "attributes": dict(zip(ATTRIBUTES, attributes, strict=True)) if attributes else None,
            "reinforcement": late,
            "turn": state.turn,
        },
    )
    return new


def turn_start_dp(state: SengenshoState, c: Character, turn: int) -> tuple[int, str]:
    """S-CORE-2, S-START-1, S-ITEM-2: a character's DP at the start of ``turn``, and why."""
    # Turn 1 starts with every DP at maximum (half for an item), unless the battle began from an
    # ambush: then DP already spent stays spent and turn 1 gives nothing. Later turns give the
    # recovery up to the maximum, except to a character marked unable, an item, or one knocked out.
    if c.down is not None:
        return c.dp, "down"
    if turn == 1:
        if state.ambush:
            return c.dp, "ambush"
        return (c.dp_max // 2 if c.is_item else c.dp_max), "start"
    if c.unable:
        return c.dp, "unable"
    if c.is_item:
        return c.dp, "item"
    return min(c.dp + c.recovery, c.dp_max), "recovery"


def next_turn(state: SengenshoState, command: NextTurn, rec: EventRecorder) -> SengenshoState:
    """S-CORE-2 then S-CORE-3: a new turn, its recovery, and everyone declares what it has."""
    turn = state.turn + 1
    recovered: list[dict[str, Any]] = []
    characters: list[Character] = []
    for c in state.characters:
        dp, reason = turn_start_dp(state, c, turn)
        recovered.append({"name": c.name, "before": c.dp, "after": dp, "reason": reason})
        characters.append(
            replace(
                c,
                dp=dp,
                declared=dp if c.acts else None,
                surprise=None,
                unaware_at=None,
                attack_limit=None,
                searched_by=(),
            )
        )
    new = replace(state, turn=turn, characters=tuple(characters))
    rec.emit("sg.turn_started", {"turn": turn, "recovered": recovered, "order": order_record(new)})
    return new


def declare(state: SengenshoState, command: Declare, rec: EventRecorder) -> SengenshoState:
    """S-CORE-3: a character declares less DP than it has, to act later."""
    if state.turn < 1:
        raise RuleError("sg.no_turn")
    i, c = able(state, command.name)
    non_negative("dp", command.dp)
    if command.dp > c.dp:
        raise RuleError("sg.declare_too_high", name=c.name, dp=command.dp, have=c.dp)
    new = state.put(i, replace(c, declared=command.dp))
    rec.emit("sg.declared", {"name": c.name, "dp": command.dp, "order": order_record(new)})
    return new


def set_unable(state: SengenshoState, command: SetState, rec: EventRecorder) -> SengenshoState:
    """S-CORE-2: the GM marks a character that cannot move, is shut in or blinded up close: no recovery."""
    i, c = locate(state, command.name)
    if command.unable is None:
        raise RuleError("sg.nothing_to_change", name=c.name)
    rec.emit("sg.unable_set", {"name": c.name, "unable": command.unable})
    return state.put(i, replace(c, unable=command.unable))


def end(state: SengenshoState, command: End, rec: EventRecorder) -> SengenshoState:
    """The GM ends the battle; the summary lists everyone as they stand."""
    summary = [
        {
            "name": c.name,
            "side": c.side.value,
            "hp": c.hp,
            "dp": c.dp,
            "down": c.down.value if c.down else None,
        }
        for c in state.characters
    ]
    rec.emit("sg.ended", {"title": state.title, "turn": state.turn, "characters": summary})
    return replace(state, ended=True)
