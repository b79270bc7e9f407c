"""The turn's steps (S-CORE-3): the initiative value now acting, who acts there, and moving on.

The order is the declared values, highest first; ties act together. Hidden characters are not in
it: they count as waiting (S-HIDE-1) and act at whatever value is acting when they do. A step is
over once everyone at it has acted, but it moves on only when the next value's first own roll
comes (so that one action may take several rolls, and the answers to it still belong to it), or
at once when no one stands at it any more, or when the GM says so (``/sg next``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.common import EventRecorder
from engine.ruleset import RuleError
from engine.sengensho.commands import NextStep
from engine.sengensho.state import Character, SengenshoState, Surprise, secret_of


def in_order(c: Character) -> bool:
    """In the order the table sees: not knocked out, a declared value, not hidden."""
    return c.acts and c.declared is not None and not c.hidden


def turn_order(state: SengenshoState) -> list[list[Character]]:
    """S-CORE-3: who acts, highest declared DP first; ties act together, listed in join order."""
    steps: dict[int, list[Character]] = {}
    for c in state.characters:
        if in_order(c):
            assert c.declared is not None
            steps.setdefault(c.declared, []).append(c)
    return [steps[value] for value in sorted(steps, reverse=True)]


def order_record(state: SengenshoState) -> list[dict[str, Any]]:
    """The order as events carry it: one entry per initiative value, tied names together."""
    return [{"dp": step[0].declared, "names": [c.name for c in step]} for step in turn_order(state)]


def at_step(state: SengenshoState, value: int | None) -> list[Character]:
    return [c for c in state.characters if in_order(c) and c.declared == value]


def waiting_below(state: SengenshoState, value: int | None) -> int | None:
    """The highest value below ``value`` (any, for None) at which someone has still to act."""
    values = [
        c.declared
        for c in state.characters
        if in_order(c) and not c.acted and c.declared is not None and (value is None or c.declared < value)
    ]
    return max(values) if values else None


def whose_step(state: SengenshoState) -> int | None:
    """The value whose characters may act now: the step, or once all there acted, the next one."""
    step = state.step
    if step is not None and any(not c.acted for c in at_step(state, step)):
        return step
    return waiting_below(state, step)


def _holds(state: SengenshoState, s: Surprise, value: int) -> bool:
    """S-SUR-5: does a surprise still hold once the turn moves to ``value``?"""
    # Spent, it holds at the value its attack was made at; pending, until the turn moves past the
    # attacker's value (a hidden attacker acts wherever it strikes).
    if s.spent:
        return s.at == value
    i = state.find(s.attacker) if s.attacker is not None else None
    if i is None:
        return False
    attacker = state.characters[i]
    if not attacker.acts:
        return False
    return attacker.hidden or attacker.declared is None or value >= attacker.declared


def _clear(state: SengenshoState, c: Character, value: int, rec: EventRecorder) -> Character:
    """S-SUR-5: once the turn moves past a value, what a surprise there restricted ends (never silently)."""
    kept = tuple(s for s in c.surprises if _holds(state, s, value))
    for s in c.surprises:
        if s not in kept and not s.spent:
            lapsed(state, c, s, rec)
    return replace(
        c,
        surprises=kept,
        unaware_at=c.unaware_at if c.unaware_at == value else None,
        attack_limit=c.attack_limit if c.hidden or c.declared is None or value >= c.declared else None,
    )


def lapsed(state: SengenshoState, c: Character, s: Surprise, rec: EventRecorder) -> None:
    """S-SUR-5: a surprise named but not made ends; who may read of its attacker and target is told."""
    i = state.find(s.attacker) if s.attacker is not None else None
    attacker = state.characters[i] if i is not None else None
    rec.emit(
        "sg.surprise_lapsed",
        {"name": c.name, "attacker": attacker.name if attacker else None, "case": s.case},
        secret_of(c, attacker) if attacker is not None else secret_of(c),
    )


def lapse_found(
    state: SengenshoState,
    i: int,
    attacker: Character,
    rec: EventRecorder,
    was: tuple[str, ...] | None = None,
) -> SengenshoState:
    """S-SUR-5: character ``i`` has found ``attacker``: a surprise it still had waiting on it lapses."""
    # 「攻撃の瞬間まで気付かれていなければ」: the GM is told, and the attack will be an ordinary one.
    # ``was``: who could read of the attacker before it appeared (its surprise stays theirs).
    c = state.characters[i]
    found = c.found if attacker.key in c.found else (*c.found, attacker.key)
    s = c.surprise_by(attacker.key)
    if s is not None and not s.spent:
        audience = secret_of(c, attacker)
        if was is not None:
            audience = tuple(dict.fromkeys((*was, *(audience or ()))))
        rec.emit("sg.surprise_found", {"name": c.name, "attacker": attacker.name, "case": s.case}, audience)
        return state.put(i, replace(c, found=found, surprises=tuple(x for x in c.surprises if x is not s)))
    return state.put(i, replace(c, found=found))


def appeared(
    state: SengenshoState, key: str, was: tuple[str, ...] | None, rec: EventRecorder
) -> SengenshoState:
    """S-SUR-5: a character appears (not by its attack): everyone has found it."""
    j = state.find(key)
    assert j is not None
    attacker = state.characters[j]
    for i, c in enumerate(state.characters):
        if c.key != key:
            state = lapse_found(state, i, attacker, rec, was)
    return state


def hid_again(state: SengenshoState, key: str) -> SengenshoState:
    """S-SUR-5: a character hides again: no one has found it any more."""
    return replace(
        state,
        characters=tuple(
            replace(c, found=tuple(k for k in c.found if k != key)) if key in c.found else c
            for c in state.characters
        ),
    )


def spend(
    state: SengenshoState, attacker: Character, aim: Character | None, rec: EventRecorder
) -> SengenshoState:
    """S-SUR-5: an attack (on ``aim``, or on anyone) spends the attacker's pending surprises at its value."""
    # From then on they hold at the value it attacked at, where the target was caught unaware. Kept
    # from the table until now (S-HIDE-1), the surprise is told as it strikes.
    at = attacker.declared if state.turn >= 1 else None
    aimed = None if aim is None else {aim.key, aim.held_by}
    for i, c in enumerate(state.characters):
        s = c.surprise_by(attacker.key)
        if s is None or s.spent or (aimed is not None and c.key not in aimed):
            continue
        made = replace(s, spent=True, at=at)
        rec.emit(
            "sg.surprise_struck",
            {"attacker": attacker.name, "target": c.name, "case": s.case, "evasion": s.evasion.value},
            secret_of(attacker, c),
        )
        state = state.put(
            i,
            replace(
                c,
                surprises=tuple(made if x is s else x for x in c.surprises),
                unaware_at=at if s.unaware and at is not None else c.unaware_at,
            ),
        )
    return state


def move_to(state: SengenshoState, value: int, by: str, rec: EventRecorder) -> SengenshoState:
    """The turn moves to ``value``; who had not acted at the step left is listed (``by`` the GM)."""
    skipped = [c.name for c in at_step(state, state.step) if not c.acted]
    new = replace(state, step=value, characters=tuple(_clear(state, c, value, rec) for c in state.characters))
    rec.emit(
        "sg.step",
        {
            "turn": state.turn,
            "dp": value,
            "names": [c.name for c in at_step(new, value)],
            "by": by,
            "skipped": skipped,
        },
    )
    return new


def settle(state: SengenshoState, rec: EventRecorder) -> SengenshoState:
    """S-CORE-3: a step no one stands at any more (they declared lower, fell, hid) moves on by itself."""
    if state.turn < 1 or state.ended or (state.step is not None and at_step(state, state.step)):
        return state
    value = waiting_below(state, state.step)
    return state if value is None else move_to(state, value, "auto", rec)


def own_step(
    state: SengenshoState, i: int, gm: bool, rec: EventRecorder
) -> tuple[SengenshoState, dict[str, Any] | None]:
    """S-CORE-3: an own roll belongs to its character's step and marks it as having acted."""
    # The next value's first own roll moves the turn on once everyone at the step has acted. A
    # hidden character acts at the value now acting (S-HIDE-1). A player's roll out of step is
    # refused, saying whose step it is; the GM's is carried out, and the mark says whose step it was.
    if state.turn < 1:
        return state, None
    c = state.characters[i]
    step, now = state.step, whose_step(state)
    fits = False
    if c.hidden:
        fits = step is None or c.declared is None or c.declared >= step
        if fits and step is not None:
            c = replace(c, declared=step)
    elif c.declared is not None and c.declared == step:
        fits = True
    elif c.declared is not None and c.declared == now:
        state = move_to(state, c.declared, "auto", rec)
        c = state.characters[i]
        fits = True
    mark = None
    if not fits:
        names = [x.name for x in at_step(state, now)]
        if not gm:
            if now is None:
                raise RuleError("sg.turn_done", name=c.name, turn=state.turn)
            if c.acted:  # its step is over (its action was at an earlier value)
                raise RuleError("sg.acted_this_turn", name=c.name, step=now, names=names, turn=state.turn)
            if c.declared is not None and c.declared > now:  # the turn went past it (the GM moved on)
                raise RuleError("sg.step_passed", name=c.name, step=now, names=names, declared=c.declared)
            raise RuleError("sg.out_of_step", name=c.name, step=now, names=names, declared=c.declared)
        mark = {"dp": now, "names": names}
    return state.put(i, replace(c, acted=True)), mark


def next_step(state: SengenshoState, command: NextStep, rec: EventRecorder) -> SengenshoState:
    """S-CORE-3: the GM moves the turn on to the next initiative value."""
    if state.turn < 1:
        raise RuleError("sg.no_turn")
    value = waiting_below(state, state.step)
    if value is None:
        raise RuleError("sg.no_later_step", turn=state.turn, next=state.turn + 1)
    return move_to(state, value, "gm", rec)
