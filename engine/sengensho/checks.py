"""Checks paid with DP and contests (S-CORE-3/4, S-GM-1, S-SUR-1..5 at a defence, S-ITEM-1/2)."""

from __future__ import annotations

from dataclasses import replace

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError
from engine.sengensho.commands import Roll
from engine.sengensho.hiding import reveal
from engine.sengensho.lookup import locate, non_negative
from engine.sengensho.sheet import base_of
from engine.sengensho.state import (
    ACTIONS_ON_OTHERS,
    DEFENCES,
    OWN_ROLLS,
    REACTIONS,
    Character,
    Evasion,
    LastRoll,
    RollKind,
    SengenshoState,
    Surprise,
)
from engine.sengensho.steps import lapse_found, own_step, spend
from engine.sengensho.throws import contest_won, rolled_record, throw

#: S-CORE-4: a resistance check takes at most 3D; S-SUR-1/2: so do surprised evasions and far attacks
THREE_DICE = 3
#: S-SUR-4: the evasion of a wary target that has not found its attacker
MINUS_FIVE = -5
#: S-SUR-5, S-SUR-6: the rolls that make a surprising attack (an ability never uses one up)
ATTACKS = frozenset({RollKind.ATTACK, RollKind.MELEE})


def roller_defends(kind: RollKind, answered: RollKind) -> bool:
    """S-CORE-4, S-SUR-2, S-ITEM-2: the roller answering a roll defends, but not 感知 against 隠密."""
    # The defender takes a tie; in a perception check against 隠密 the one hiding defends.
    return not (kind is RollKind.PERCEPTION and answered is RollKind.STEALTH)


def parse_kind(text: str) -> RollKind:
    try:
        return RollKind(fold(text))
    except ValueError:
        raise RuleError("sg.kind_invalid", kind=text, allowed=", ".join(k.value for k in RollKind)) from None


def answer_kind(c: Character, kind: RollKind, other: Character) -> None:
    """S-CORE-4: a roll against an attack or ability says how it answers it (a reaction)."""
    # Evasion, guard, resistance, or the perception of S-SUR-2: a plain check cannot pass for a barred
    # evasion.
    assert other.last_roll is not None
    if other.last_roll.kind in ACTIONS_ON_OTHERS and kind not in REACTIONS:
        allowed = ", ".join(k.value for k in RollKind if k in REACTIONS)
        raise RuleError("sg.against_needs_kind", name=c.name, against=other.name, allowed=allowed)


def answerers(state: SengenshoState, aim: Character, kind: RollKind) -> list[Character]:
    """S-ITEM-1, S-ITEM-2: who answers an attack or ability aimed at ``aim``."""
    # A held item's holder evades and guards; an ability on it is resisted by it or its holder (no
    # one else); anyone else answers for itself.
    if aim.held_by is None:
        return [aim]
    i = state.find(aim.held_by)
    assert i is not None
    holder = state.characters[i]
    return [aim, holder] if kind is RollKind.RESIST else [holder]


def may_answer(state: SengenshoState, c: Character, kind: RollKind, other: Character) -> None:
    """S-ITEM-1/2: only those ``answerers`` defend against, or resist, a roll aimed at someone."""
    assert other.last_roll is not None
    if other.last_roll.aim is None or kind not in (*DEFENCES, RollKind.RESIST):
        return
    i = state.find(other.last_roll.aim)
    if i is None:
        return
    allowed = answerers(state, state.characters[i], kind)
    if c.key not in {a.key for a in allowed}:
        raise RuleError(
            "sg.not_the_defender",
            name=c.name,
            against=other.name,
            aim=state.characters[i].name,
            allowed=", ".join(a.name for a in allowed),
        )


def restriction(state: SengenshoState, c: Character, other: Character | None) -> Surprise | None:
    """S-SUR-5: the surprise that restricts this defence, if any (one target may have several)."""
    # The one of the surprising attack (each attacker's own), the GM's, and while the target was
    # unaware the other actions taken at that initiative value (the attack's, or the attacker's
    # while it is still to come) by attackers it does not see; no others.
    if not c.surprises:
        return None
    if other is None:
        return c.surprise
    own = c.surprise_by(other.key) or c.surprise_by(None)
    if own is not None:
        return own
    if not unseen(c, other):
        return None
    for s in c.surprises:
        at = s.at
        if not s.spent:
            i = state.find(s.attacker) if s.attacker is not None else None
            at = state.characters[i].declared if i is not None else None
        if s.unaware and at is not None and other.declared == at:
            return s
    return None


def unseen(c: Character, other: Character) -> bool:
    """S-SUR-5: ``c`` does not see ``other``: it hides, or came out of hiding with its attack, unfound."""
    # An attacker the target sees is never a surprise unless the GM names one.
    return other.key not in c.found and (other.hidden or other.struck_at is not None)


def dice_cap(
    c: Character, command: Roll, kind: RollKind, s: Surprise | None
) -> tuple[int | None, str | None]:
    """S-CORE-4, S-SUR-1..4: the most dice this roll may take, and the rule that says so."""
    caps: list[tuple[int, str]] = []
    if command.cap is not None:
        caps.append((command.cap, "cap"))
    if kind is RollKind.RESIST:
        caps.append((THREE_DICE, "S-CORE-4"))
    if kind in (RollKind.ATTACK, RollKind.MELEE) and c.attack_limit is not None:
        caps.append((THREE_DICE, c.attack_limit))
    if kind in DEFENCES and s is not None and s.evasion not in (Evasion.MINUS5, Evasion.AUTO):
        caps.append((THREE_DICE, s.case))
    if not caps:
        return None, None
    return min(caps)


def defence_modifier(c: Character, s: Surprise | None) -> int:
    """S-SUR-1..4: what the surprise lets this defence do; the modifier it gets."""
    if s is None:
        return 0
    if s.evasion is Evasion.REFUSED:
        raise RuleError("sg.evasion_refused", name=c.name, case=s.case)
    if s.evasion is Evasion.PERCEIVE_MAX3:
        last = c.last_roll
        if last is None or last.kind is not RollKind.PERCEPTION or last.against != s.attacker or not last.won:
            raise RuleError("sg.evasion_needs_perception", name=c.name, case=s.case)
    return MINUS_FIVE if s.evasion is Evasion.MINUS5 else 0


def item_may_roll(c: Character, kind: RollKind) -> None:
    """S-ITEM-2: while held, a character cannot evade or guard (its holder does, S-ITEM-1), nor melee."""
    if c.held_by is None:
        return
    if kind in DEFENCES:
        raise RuleError("sg.item_cannot_defend", name=c.name)
    if kind is RollKind.MELEE:
        raise RuleError("sg.item_no_melee", name=c.name)


def _opponent(state: SengenshoState, c: Character, kind: RollKind, name: str | None) -> Character | None:
    """The character whose last roll this one contests (never a hidden one: that is a search)."""
    if name is None:
        return None
    _, other = locate(state, name)
    if other.key == c.key:
        raise RuleError("sg.against_self", name=c.name)
    if other.hidden:
        raise RuleError("sg.against_hidden", name=other.name)
    if other.last_roll is None:
        raise RuleError("sg.no_roll_to_contest", name=other.name)
    answer_kind(c, kind, other)
    may_answer(state, c, kind, other)
    return other


def _aim(state: SengenshoState, kind: RollKind, name: str | None) -> Character | None:
    """S-ITEM-1/2, S-HIDE-1: whom an attack or ability is aimed at (never one hidden)."""
    if name is None:
        return None
    if kind not in ACTIONS_ON_OTHERS:
        raise RuleError("sg.aim_needs_action", kind=kind.value)
    _, aim = locate(state, name)
    if aim.hidden:
        raise RuleError("sg.target_hidden", name=aim.name)
    return aim


def roll(state: SengenshoState, command: Roll, rec: EventRecorder) -> SengenshoState:
    """S-CORE-4: base + N D6 for N DP, against a target number or another character's last roll."""
    # An own roll belongs to the character's step (S-CORE-3); a hidden attacker appears (S-HIDE-1).
    kind = parse_kind(command.kind)
    i, c = locate(state, command.name)
    if c.down is not None and kind is not RollKind.RESIST:  # S-SUR-6: resistance is always rolled
        raise RuleError("sg.character_down", name=c.name, down=c.down.value)
    item_may_roll(c, kind)
    non_negative("cap", command.cap)
    base = base_of(c, command.base, command.check)
    other = _opponent(state, c, kind, command.against)
    unseen = (
        unseen_caster(state, c, command.gm) if kind is RollKind.RESIST and command.against is None else None
    )
    # S-SUR-6: resisted for the target (an ability it did not notice), the GM's alone
    unaware = unseen is not None and unseen.key in c.unnoticed
    aim = _aim(state, kind, command.at)
    s = restriction(state, c, other) if kind in DEFENCES else None
    cap, why = dice_cap(c, command, kind, s)
    if cap is not None and command.dice > cap:
        raise RuleError("sg.dice_over_cap", name=c.name, dice=command.dice, cap=cap, rule=why)
    modifier = defence_modifier(c, s) if kind in DEFENCES else 0
    if c.hidden and kind in (RollKind.ATTACK, RollKind.MELEE):
        state = reveal(state, i, "attack", None, rec)  # S-HIDE-1: undiscovered until its attack
    out_of_step = None
    if kind in OWN_ROLLS:
        state, out_of_step = own_step(state, i, command.gm, rec)
    if kind in ATTACKS:  # S-SUR-5: the surprising attack is made (an ability never uses one up, S-SUR-6)
        state = spend(state, state.characters[i], aim, rec)
    c = state.characters[i]
    t = throw(state, c, command.dice, kind, rec)
    total = base + t.dice_total + modifier
    won = None
    if other is not None:
        assert other.last_roll is not None
        won = contest_won(total, other.last_roll.total, roller_defends(kind, other.last_roll.kind))
        if s is not None and s.evasion is Evasion.AUTO and kind is RollKind.EVASION:
            won = True  # S-SUR-2: evaded automatically
    if unseen is not None:
        assert unseen.last_roll is not None
        won = contest_won(total, unseen.last_roll.total, roller_defends=True)
    answered = other if other is not None else unseen
    changed = replace(
        c,
        dp=c.dp - t.paid,
        last_roll=LastRoll(
            total, kind, state.turn, answered.key if answered else None, won, aim.key if aim else None
        ),
        attack_limit=None if kind in (RollKind.ATTACK, RollKind.MELEE) else c.attack_limit,
    )
    new = state.put(i, changed)
    rec.emit(
        "sg.rolled",
        rolled_record(
            c,
            t,
            base,
            total,
            kind,
            label=command.label,
            check=command.check,
            modifier=modifier,
            surprise=s.case if s is not None else None,
            target=command.target,
            against=other,
            won=won if unseen is None else None,
            aim=aim.name if aim else None,
            out_of_step=out_of_step,
        ),
        () if unaware else c.secret,
    )
    if unseen is not None:
        resisted_unseen(c, unseen, total, bool(won), unaware, rec)
    return _after_roll(new, i, kind, other, won, rec)


def unseen_caster(state: SengenshoState, c: Character, gm: bool = False) -> Character | None:
    """S-SUR-6: the caster of an ability on ``c`` this turn, unresisted: hidden, or (GM) unnoticed."""
    # A player's roll is compared only with an ability the character noticed: it answers the same
    # whether or not an unnoticed one is pending (「無意識に行える」: the GM rolls that one).
    last = c.last_roll
    for x in state.characters:
        r = x.last_roll
        if r is None or r.kind is not RollKind.ABILITY or r.aim != c.key or r.turn != state.turn:
            continue
        unnoticed = x.key in c.unnoticed
        if (not x.hidden and not unnoticed) or (unnoticed and not gm):
            continue
        if (
            last is not None
            and last.kind is RollKind.RESIST
            and last.against == x.key
            and last.turn == r.turn
        ):
            continue
        return x
    return None


def resisted_unseen(
    c: Character, caster: Character, total: int, won: bool, unaware: bool, rec: EventRecorder
) -> None:
    """S-SUR-6: a resistance to a hidden caster's ability: the outcome for all, the caster for the GM."""
    # The caster and its total are read by the GM and the caster's owner only; resisted for a
    # target that did not notice the ability, the outcome too is the GM's alone.
    assert caster.last_roll is not None
    rec.emit("sg.resisted_unseen", {"name": c.name, "total": total, "won": won}, () if unaware else c.secret)
    rec.emit(
        "sg.resisted_caster",
        {
            "name": c.name,
            "caster": caster.name,
            "total": total,
            "caster_total": caster.last_roll.total,
            "won": won,
        },
        () if unaware else caster.secret,
    )


def _after_roll(
    state: SengenshoState,
    i: int,
    kind: RollKind,
    other: Character | None,
    won: bool | None,
    rec: EventRecorder,
) -> SengenshoState:
    """S-ITEM-2: what a roll gives away: an item that attacks, or loses 感知 against its 隠密, is noticed."""
    c = state.characters[i]
    if kind is RollKind.ATTACK and c.is_item and not c.exposed:
        state = expose(state, i, "attack", None, rec)
    if (
        kind is RollKind.PERCEPTION
        and won
        and other is not None
        and other.is_item
        and not other.exposed
        and other.last_roll is not None
        and other.last_roll.kind is RollKind.STEALTH
    ):
        j = state.find(other.key)
        assert j is not None
        state = expose(state, j, "perception", c.name, rec)
    return found_in_contest(state, i, kind, other, won, rec)


def found_in_contest(
    state: SengenshoState,
    i: int,
    kind: RollKind,
    other: Character | None,
    won: bool | None,
    rec: EventRecorder,
) -> SengenshoState:
    """S-SUR-5, S-SUR-3: 感覚+〈感知〉 won against 身体+〈隠密〉: the perceiver has found the one hiding."""
    if other is None or other.last_roll is None or won is None:
        return state
    c = state.characters[i]
    j = state.find(other.key)
    assert j is not None
    if kind is RollKind.PERCEPTION and other.last_roll.kind is RollKind.STEALTH and won:
        return lapse_found(state, i, state.characters[j], rec)
    if kind is RollKind.STEALTH and other.last_roll.kind is RollKind.PERCEPTION and not won:
        return lapse_found(state, j, c, rec)
    return state


def expose(state: SengenshoState, i: int, reason: str, by: str | None, rec: EventRecorder) -> SengenshoState:
    """S-ITEM-2: an item is noticed as a character (it attacked, or lost 感知 against its 隠密)."""
    c = state.characters[i]
    rec.emit("sg.item_exposed", {"name": c.name, "reason": reason, "by": by})
    return state.put(i, replace(c, exposed=True))
