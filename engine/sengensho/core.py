"""The core of the detailed rules: characters, DP, turns (S-CORE-1..3, S-START-1, S-REIN-1, S-GM-1)."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import Any, TypeVar

from engine import limits
from engine.common import EventRecorder, clean_name, fold, parse_bool
from engine.ruleset import RuleError
from engine.sengensho.cards import balance_warning
from engine.sengensho.commands import Declare, End, Join, NextTurn, SetState, Start
from engine.sengensho.hiding import contests_due
from engine.sengensho.lookup import able, locate, non_negative
from engine.sengensho.names import make_room
from engine.sengensho.sheet import parse_skills
from engine.sengensho.state import Character, GMFixed, Opening, SengenshoState, Side, Surprise
from engine.sengensho.steps import lapsed, order_record, waiting_below

E = TypeVar("E", bound=StrEnum)

#: S-CORE-1: the five attributes, in the order they are stored
ATTRIBUTES = ("body", "endurance", "intellect", "sense", "will")

#: 身体 耐久 知性 感覚 意志
Attributes = tuple[int, int, int, int, int]


# --- reading options -----------------------------------------------------------------------------


def parse_side(text: str) -> Side:
    try:
        return Side(fold(text))
    except ValueError:
        raise RuleError("sg.side_invalid", side=text, allowed="pc, enemy") from None


def parse_option(kind: type[E], field: str, text: str) -> E:
    """An option word (``opening``, ``gm_fixed``); refused with what is allowed."""
    try:
        return kind(fold(text))
    except ValueError:
        allowed = ", ".join(v.value for v in kind)
        raise RuleError("sg.option_invalid", field=field, value=text, allowed=allowed) from None


def parse_gm_fixed(text: str) -> GMFixed:
    """S-GM-1: ``off``, ``checks``, ``all``; the earlier ``true``/``false`` mean ``checks``/``off``."""
    flag = parse_bool(text)
    if flag is not None:
        return GMFixed.CHECKS if flag else GMFixed.OFF
    return parse_option(GMFixed, "gm_fixed", text)


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
            raise RuleError("sg.attributes_incomplete", name=command.name, missing=tuple(missing))
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


def reinforcement_initiative(state: SengenshoState, command: Join, name: str, dp: int) -> int:
    """S-REIN-1: the value a late entrant joins at: the GM's, by default its DP, never one passed."""
    # By default a value the turn has passed becomes the value now acting: it acts at once.
    step = state.step
    if command.initiative is None:
        return dp if step is None else min(dp, step)
    if command.initiative > dp:
        raise RuleError("sg.initiative_too_high", name=name, initiative=command.initiative, dp=dp)
    if step is not None and command.initiative > step:
        raise RuleError("sg.initiative_passed", name=name, initiative=command.initiative, step=step)
    return command.initiative


# --- commands ----------------------------------------------------------------------------------


def start(state: SengenshoState | None, command: Start, rec: EventRecorder) -> SengenshoState:
    """S-START-1: a battle starts before turn progression (turn 0); the GM starts the turns."""
    if state is not None and not state.ended:
        raise RuleError("sg.already_running", title=state.title)
    opening = parse_option(Opening, "opening", command.opening)
    if command.ambush:
        if opening not in (Opening.FULL, Opening.AMBUSH):
            raise RuleError("sg.opening_conflict", opening=opening.value)
        opening = Opening.AMBUSH
    gm_fixed = parse_gm_fixed(command.gm_fixed)
    title = command.title.strip()
    new = SengenshoState(title=title, opening=opening, gm_fixed=gm_fixed)
    rec.emit("sg.started", {"title": title, "opening": opening.value, "gm_fixed": gm_fixed.value})
    return new


def seen_count(state: SengenshoState, command: Join) -> int:
    """S-HIDE-1: the characters a join's limit counts: those the joiner can see. A visible character
    counts the visible ones; a hidden one the hidden ones (the GM's: all of them; a player's: their own),
    so a player who joins until refused learns nothing of the GM's hidden characters."""
    if not command.hidden:
        return sum(1 for c in state.characters if not c.hidden)
    mine = command.owner if command.owner is not None else command.invoker
    return sum(1 for c in state.characters if c.hidden and (command.gm or c.owner == mine))


def join(state: SengenshoState, command: Join, rec: EventRecorder) -> SengenshoState:
    """S-CORE-1, S-REIN-1: a new character; once the turns run, it is a reinforcement."""
    # Joined ``hidden``, the table does not see it come (S-HIDE-1): only the GM and its owner read it.
    limits.check_name(command.name)
    limits.check_count("characters", seen_count(state, command) + 1, limits.MAX_CHARACTERS)
    name, key = clean_name(command.name, "sg")
    state = make_room(state, command, key, name, rec)
    side = parse_side(command.side)
    attributes, dp_max, recovery = pool_of(command)
    skills = parse_skills(command.skills) if command.skills else ()
    if command.hp is not None and command.hp < 1:
        raise RuleError("sg.value_invalid", field="hp", value=command.hp)
    late = state.turn >= 1
    if command.initiative is not None and not late:
        raise RuleError("sg.initiative_before_turns", name=name)
    dp = reinforcement_dp(recovery, dp_max) if late else dp_max
    declared = None
    if late:
        declared = dp if command.hidden else reinforcement_initiative(state, command, name, dp)
    character = Character(
        name=name,
        key=key,
        owner=command.owner if command.owner is not None else command.invoker,
        side=side,
        dp=dp,
        dp_max=dp_max,
        recovery=recovery,
        attributes=attributes,
        skills=skills,
        hp=command.hp,
        max_hp=command.hp,
        declared=declared,
        entry_turn=state.turn if late else None,
        hidden=command.hidden,
        hidden_turn=state.turn if command.hidden else None,
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
            "skills": dict(skills) or None,
            "reinforcement": late,
            "capped": late and recovery * 3 > dp_max,
            "initiative": None if command.hidden else declared,
            "hidden": command.hidden,
            "turn": state.turn,
        },
        character.secret,
    )
    return new


def turn_start_dp(state: SengenshoState, c: Character, turn: int) -> tuple[int, str]:
    """S-CORE-2, S-START-1, S-ITEM-2: a character's DP at the start of ``turn``, and why."""
    # Turn 1 starts with every DP at maximum (half for an item) when the battle opens ``full``; with
    # ``keep`` the DP spent before the turns stays spent and turn 1 recovers as usual; with
    # ``ambush`` it stays spent and turn 1 gives nothing. Later turns give the recovery up to the
    # maximum, except to a character marked unable, an item, or one knocked out.
    if c.down is not None:
        return c.dp, "down"
    if turn == 1 and state.opening is Opening.FULL:
        return (c.dp_max // 2 if c.is_item else c.dp_max), "start"
    if turn == 1 and state.opening is Opening.AMBUSH:
        return c.dp, "ambush"
    if c.unable:
        return c.dp, "unable"
    if c.is_item:
        return c.dp, "item"
    return min(c.dp + c.recovery, c.dp_max), "recovery"


def next_turn(state: SengenshoState, command: NextTurn, rec: EventRecorder) -> SengenshoState:
    """S-CORE-2, S-CORE-3: a new turn, its recovery, and everyone declares what it has."""
    # What the hidden recover, and the contests due (each hidden character against each searcher of
    # the other side, S-HIDE-1), go to the GM and their owners only.
    turn = state.turn + 1
    recovered: list[dict[str, Any]] = []
    hidden: list[tuple[Character, dict[str, Any]]] = []
    characters: list[Character] = []
    for c in state.characters:
        dp, reason = turn_start_dp(state, c, turn)
        record = {"name": c.name, "before": c.dp, "after": dp, "reason": reason}
        (hidden.append((c, record)) if c.hidden else recovered.append(record))
        surprises = tuple(s for s in c.surprises if surprise_carries(state, s))
        for s in c.surprises:
            if s not in surprises and not s.spent:
                lapsed(state, c, s, rec)
        characters.append(
            replace(
                c,
                dp=dp,
                declared=dp if c.acts else None,
                acted=False,
                surprises=surprises,
                unaware_at=None,
                struck_at=None,
                unnoticed=(),
                attack_limit=c.attack_limit if state.turn == 0 or c.hidden else None,
                searched_by=(),
            )
        )
    new = replace(state, turn=turn, characters=tuple(characters))
    new = replace(new, step=waiting_below(new, None))
    rec.emit(
        "sg.turn_started",
        {"turn": turn, "recovered": recovered, "order": order_record(new), "step": new.step},
    )
    for c, record in hidden:
        rec.emit(
            "sg.hidden_turn",
            {**record, "total": c.hidden_total, "searchers": contests_due(new, c)},
            c.secret,
        )
    if turn == 1:
        balance_warning(new, rec)
    return new


def surprise_carries(state: SengenshoState, s: Surprise) -> bool:
    """S-SUR-5: a surprise not yet made carries on if named before the turns or its attacker hides."""
    # A hidden attacker strikes wherever it acts; any other surprise has ended with the turn.
    if s.spent or s.attacker is None:
        return False
    i = state.find(s.attacker)
    return i is not None and state.characters[i].acts and (state.turn == 0 or state.characters[i].hidden)


def declare(state: SengenshoState, command: Declare, rec: EventRecorder) -> SengenshoState:
    """S-CORE-3: a character declares less DP to act later; not after acting, nor a value passed."""
    if state.turn < 1:
        raise RuleError("sg.no_turn")
    i, c = able(state, command.name)
    non_negative("dp", command.dp)
    if c.acted:
        raise RuleError("sg.declare_after_acting", name=c.name, turn=state.turn)
    if command.dp > c.dp:
        raise RuleError("sg.declare_too_high", name=c.name, dp=command.dp, have=c.dp)
    if not c.hidden and state.step is not None and command.dp > state.step:
        raise RuleError("sg.declare_passed", name=c.name, dp=command.dp, step=state.step)
    new = state.put(i, replace(c, declared=command.dp))
    rec.emit("sg.declared", {"name": c.name, "dp": command.dp, "order": order_record(new)}, c.secret)
    return new


def set_unable(state: SengenshoState, command: SetState, rec: EventRecorder) -> SengenshoState:
    """S-CORE-2: the GM marks a character that cannot move, is shut in or blinded up close: no recovery."""
    i, c = locate(state, command.name)
    if command.unable is None:
        raise RuleError("sg.nothing_to_change", name=c.name)
    rec.emit("sg.unable_set", {"name": c.name, "unable": command.unable}, c.secret)
    return state.put(i, replace(c, unable=command.unable))


def end(state: SengenshoState, command: End, rec: EventRecorder) -> SengenshoState:
    """The GM ends the battle; the summary lists everyone the table knows of as they stand."""
    # S-HIDE-1: it reveals nobody unless the GM says ``reveal:true``; then the hidden appear first.
    if command.reveal:
        for i, c in enumerate(state.characters):
            if c.hidden:
                rec.emit("sg.revealed", {"name": c.name, "reason": "end", "by": None, "cards_entry": False})
                shown = replace(c, hidden=False, hidden_total=None, hidden_turn=None, searched_by=())
                state = state.put(i, shown)
    summary = [
        {
            "name": c.name,
            "side": c.side.value,
            "hp": c.hp,
            "dp": c.dp,
            "down": c.down.value if c.down else None,
        }
        for c in state.characters
        if not c.hidden
    ]
    rec.emit("sg.ended", {"title": state.title, "turn": state.turn, "characters": summary})
    return replace(state, ended=True)
