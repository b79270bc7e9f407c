"""Hiding and searching (S-HIDE-1). What is hidden — who, where, the stealth value — is for the GM and
the hidden character's owner: the events about it carry that audience (``Character.secret``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.common import EventRecorder
from engine.ruleset import RuleError
from engine.sengensho.commands import Hide, Search
from engine.sengensho.lookup import able, locate
from engine.sengensho.sheet import PERCEPTION_CHECK, STEALTH_CHECK, check_base
from engine.sengensho.state import Character, LastRoll, RollKind, SengenshoState
from engine.sengensho.steps import appeared, hid_again, own_step
from engine.sengensho.throws import contest_won, throw, throw_record


def searchers(state: SengenshoState, hidden: Character) -> list[Character]:
    """S-HIDE-1: who contests a hidden character each turn: the other side, where the table sees them."""
    return [c for c in state.characters if c.side is not hidden.side and c.acts and not c.hidden]


def contests_due(state: SengenshoState, hidden: Character) -> list[str]:
    """S-HIDE-1: the names of those whose perception is due against ``hidden`` this turn."""
    return [c.name for c in searchers(state, hidden) if c.key not in hidden.searched_by]


def reveal(state: SengenshoState, i: int, reason: str, by: str | None, rec: EventRecorder) -> SengenshoState:
    """S-HIDE-1: a hidden character appears, into the order at the value now acting at the latest."""
    # Hidden since before the turns (or come in hidden), it declares spell cards now (S-REIN-1).
    c = state.characters[i]
    late = state.turn >= 1 and (c.hidden_turn == 0 or c.entry_turn is not None)
    declared = c.declared
    if state.turn >= 1 and state.step is not None and declared is not None:
        declared = min(declared, state.step)
    rec.emit("sg.revealed", {"name": c.name, "reason": reason, "by": by, "cards_entry": late})
    state = state.put(
        i,
        replace(
            c,
            hidden=False,
            hidden_total=None,
            hidden_turn=None,
            searched_by=(),
            declared=declared,
            entry_turn=state.turn if late else c.entry_turn,
            # S-SUR-5: come out of hiding with its attack, it is unseen at that value
            struck_at=declared if reason == "attack" and state.turn >= 1 else None,
        ),
    )
    # S-SUR-5: appearing otherwise, everyone has found it: its surprises still waiting lapse
    return state if reason == "attack" else appeared(state, c.key, c.secret, rec)


def hide(state: SengenshoState, command: Hide, rec: EventRecorder) -> SengenshoState:
    """S-HIDE-1: 身体+〈隠密〉 rolled when it hides, and again each time it moves while hidden."""
    # During the turns hiding (or moving hidden) is the character's action (S-CORE-3).
    i, c = able(state, command.name)
    base = check_base(c, STEALTH_CHECK) if command.base is None else command.base
    state, out_of_step = own_step(state, i, command.gm, rec)
    c = state.characters[i]
    t = throw(state, c, command.dice, RollKind.STEALTH, rec)
    total = base + t.dice_total
    moved = c.hidden and c.hidden_total is not None  # come in hidden, its first roll is no move
    hidden = replace(
        c,
        dp=c.dp - t.paid,
        hidden=True,
        hidden_total=total,
        hidden_turn=c.hidden_turn if c.hidden else state.turn,
        searched_by=(),
        last_roll=LastRoll(total, RollKind.STEALTH, state.turn),
    )
    rec.emit(
        "sg.hidden",
        {**throw_record(c, t, base, total), "moved": moved, "out_of_step": out_of_step},
        hidden.secret,
    )
    return hid_again(state.put(i, replace(hidden, struck_at=None)), c.key)


def _targets(state: SengenshoState, searcher: Character, name: str | None) -> list[Character]:
    if name is not None:
        _, target = locate(state, name)
        if target.key == searcher.key:
            raise RuleError("sg.against_self", name=searcher.name)
        if not target.hidden:
            raise RuleError("sg.not_hidden", name=target.name)
        if target.hidden_total is None:
            raise RuleError("sg.stealth_not_rolled", name=target.name)
        if searcher.key in target.searched_by:
            raise RuleError("sg.already_searched", name=searcher.name, target=target.name, turn=state.turn)
        return [target]
    return [
        c
        for c in state.characters
        if c.hidden
        and c.hidden_total is not None
        and c.side is not searcher.side
        and c.key != searcher.key
        and searcher.key not in c.searched_by
    ]


def search(state: SengenshoState, command: Search, rec: EventRecorder) -> SengenshoState:
    """S-HIDE-1: a perception check against each hidden 身体+〈隠密〉, once a turn (the hider defends)."""
    # The table sees the perception check; against whom and how it went, only the GM and the hider's
    # owner — unless it finds the hider, which then appears. Without a target it is made against
    # every hidden foe it has not searched this turn (so it says nothing of whether there is one).
    i, c = able(state, command.name)
    base = check_base(c, PERCEPTION_CHECK) if command.base is None else command.base
    targets = _targets(state, c, command.target)
    t = throw(state, c, command.dice, RollKind.PERCEPTION, rec)
    total = base + t.dice_total
    rec.emit("sg.search_rolled", throw_record(c, t, base, total), c.secret)
    single = targets[0].key if len(targets) == 1 and command.target is not None else None
    found_any: list[str] = []
    for target in targets:
        assert target.hidden_total is not None
        found = contest_won(total, target.hidden_total, roller_defends=False)
        rec.emit(
            "sg.searched",
            {
                "name": c.name,
                "target": target.name,
                "total": total,
                "hidden_total": target.hidden_total,
                "found": found,
            },
            target.secret,
        )
        j = state.find(target.key)
        assert j is not None
        state = state.put(j, replace(target, searched_by=(*target.searched_by, c.key)))
        if found:
            found_any.append(target.key)
    won = None if single is None else bool(found_any)
    last = LastRoll(total, RollKind.PERCEPTION, state.turn, single, won)
    state = state.put(i, replace(c, dp=c.dp - t.paid, last_roll=last))
    for key in found_any:  # a hidden searcher finds it without giving itself away
        j = state.find(key)
        assert j is not None
        state = reveal(state, j, "spotted", None, rec) if c.hidden else reveal(state, j, "found", c.name, rec)
    return state
