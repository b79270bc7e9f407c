"""Surprise (6.3.2): which case an attack is, and what the target's next evasion may do (S-SUR-1..6)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.common import EventRecorder
from engine.ruleset import RuleError
from engine.sengensho.checks import THREE_DICE
from engine.sengensho.commands import Surprise as SurpriseCommand
from engine.sengensho.lookup import able, locate, non_negative
from engine.sengensho.state import Character, Down, Evasion, RollKind, SengenshoState, Surprise

#: S-SUR-1..4: the effective range of an attack, in metres
EFFECTIVE_RANGE = 30
#: S-SUR-1: from this far the GM may ask a hit check of at most 3D
FAR = 100


@dataclass(frozen=True, slots=True)
class Case:
    """A surprise case: its rule id, what the target's evasion may do, the attacker's dice cap."""

    rule: str
    evasion: Evasion | None
    attacker_cap: int | None
    unaware: bool


def complete_far(distance: int) -> Case:
    """S-SUR-1: complete surprise from outside 30 m: no evasion; from 100 m a hit check of at most 3D."""
    return Case("S-SUR-1", Evasion.REFUSED, THREE_DICE if distance >= FAR else None, True)


def wary_far(alert: bool) -> Case:
    """S-SUR-2: outside 30 m, wary: attack ≤ 3D; evasion ≤ 3D after winning perception (sure in an alert)."""
    return Case("S-SUR-2", Evasion.MAX3 if alert else Evasion.PERCEIVE_MAX3, THREE_DICE, False)


def auto_evaded() -> Case:
    """S-SUR-2: inside an alert reaching past 30 m, an attack from outside the effective range is evaded."""
    return Case("S-SUR-2", Evasion.AUTO, THREE_DICE, False)


def complete_near(found: bool) -> Case:
    """S-SUR-3: inside 30 m, unaware: a target that lost 感知 against 隠密 cannot evade."""
    return Case("S-SUR-3", None if found else Evasion.REFUSED, None, not found)


def wary_near(found: bool) -> Case:
    """S-SUR-4: inside 30 m, a wary target that has not found the attacker evades at −5; dice are free."""
    return Case("S-SUR-4", None if found else Evasion.MINUS5, None, False)


def same_initiative(state: SengenshoState, target: Character, attacker: Character) -> bool:
    """S-SUR-5: the attacker acts at the initiative at which the target is (or will be) caught unaware."""
    # That value is the one a surprising attack was made at, or, named and not yet made, the
    # surprising attacker's. It is for the GM to read: the GM's ``wary`` decides whether the target
    # is wary, and nothing overrides it.
    if target.unaware_at is not None:
        return attacker.declared == target.unaware_at
    for s in target.surprises:
        if s.spent or not s.unaware or s.attacker is None or s.attacker == attacker.key:
            continue
        i = state.find(s.attacker)
        if (
            i is not None
            and attacker.declared is not None
            and state.characters[i].declared == attacker.declared
        ):
            return True
    return False


def ability_case(disguised: bool, unconscious: bool = False) -> dict[str, bool]:
    """S-SUR-6: the target notices an ability on it unless disguised or unconscious; it always resists."""
    return {"noticed": not disguised and not unconscious, "resist": True}


def defender_of(state: SengenshoState, target: Character) -> Character:
    """S-ITEM-1: an attack on a held item is evaded by its holder (an ability on it, resisted by it)."""
    if target.held_by is None:
        return target
    i = state.find(target.held_by)
    assert i is not None
    return state.characters[i]


def found_attacker(defender: Character, attacker: Character) -> bool | None:
    """S-SUR-3, S-HIDE-1: found by a won contest, never while the attacker hides; None: no contest."""
    # The contest of 身体+〈隠密〉 against 感覚+〈感知〉 counts whichever of the two rolled first: the
    # target's perception against the attacker, or the attacker's stealth against the target (a tie
    # goes to the one hiding either way, ``checks.roller_defends``).
    if attacker.hidden:
        return False
    if attacker.key in defender.found:  # S-SUR-5: found, until the attacker hides again
        return True
    last = defender.last_roll
    if last is not None and last.against == attacker.key:
        return bool(last.won)
    mine = attacker.last_roll
    if mine is not None and mine.kind is RollKind.STEALTH and mine.against == defender.key:
        return not mine.won
    return None


def inside_alert(distance: int, alert: bool | int) -> bool:
    """S-SUR-2, S-SUR-3: the attacker is inside the target's [アラート]/[識閾結界] (of ``alert`` m)."""
    # ``true``, an earlier command's word: an alert of a range not given, the attacker inside it.
    if isinstance(alert, bool):
        return alert
    return alert > 0 and distance <= alert


def classify(distance: int, wary: bool, alert: bool | int, found: bool | None, names: dict[str, str]) -> Case:
    """S-SUR-1..4: which case an attack is."""
    inside = inside_alert(distance, alert)
    if distance > EFFECTIVE_RANGE:
        if inside and not isinstance(alert, bool) and alert > EFFECTIVE_RANGE:
            return auto_evaded()
        return wary_far(inside) if wary or inside else complete_far(distance)
    if wary or inside:  # S-SUR-3: inside [アラート]/[識閾結界] it counts as S-SUR-4
        return wary_near(bool(found))
    if found is None:
        raise RuleError("sg.surprise_contest_required", **names)
    return complete_near(found)


def before_it_strikes(*attackers: Character) -> tuple[str, ...]:
    """S-HIDE-1: who besides the GM reads of a surprise before it strikes: the attackers' owners."""
    return tuple(dict.fromkeys(a.owner for a in attackers if a.owner))


def restrict(state: SengenshoState, i: int, case: Case, attacker: Character) -> SengenshoState:
    """S-SUR-1..5: the restriction ``case`` puts on character ``i``'s defence, pending until the attack."""
    # One per attacker (S-SUR-5): it replaces that attacker's own and adds to the others'. None if
    # the target found the attacker; ``steps.spend`` makes it hold at the attack's value.
    c = state.characters[i]
    others = tuple(s for s in c.surprises if s.attacker != attacker.key)
    if case.evasion is None:
        return state.put(i, replace(c, surprises=others))
    pending = Surprise(case.rule, attacker.key, case.evasion, None, case.unaware, spent=False)
    return state.put(i, replace(c, surprises=(*others, pending)))


def told(
    state: SengenshoState, before: Character, attacker: Character, case: Case, rec: EventRecorder
) -> None:
    """S-SUR-5: the GM is told when a surprise replaces the attacker's own, or adds to others'."""
    if case.evasion is None:
        return
    data = {"attacker": attacker.name, "target": before.name, "case": case.rule}
    old = before.surprise_by(attacker.key)
    if old is not None:
        rec.emit("sg.surprise_replaced", {**data, "before": old.case}, before_it_strikes(attacker))
    others = [s for s in before.surprises if s.attacker != attacker.key]
    if others:
        keys = [s.attacker for s in others if s.attacker is not None]
        their = [state.characters[j] for k in keys if (j := state.find(k)) is not None]
        rec.emit("sg.surprise_added", {**data, "count": len(others) + 1}, before_it_strikes(attacker, *their))


def ability_surprise(
    state: SengenshoState,
    attacker: Character,
    target: Character,
    command: SurpriseCommand,
    rec: EventRecorder,
) -> SengenshoState:
    """S-SUR-6: an ability used on the target, noticed unless disguised; always resisted."""
    # A hidden user stays hidden: the table reads only that the target noticed something. Noticed,
    # the target is wary from the next initiative value on (S-SUR-5): the GM is told. Not noticed,
    # its resistance is rolled for it by the GM (``checks.unseen_caster``). It uses up no surprise.
    noticed = ability_case(command.disguised, target.down is Down.UNCONSCIOUS)
    data = {"attacker": attacker.name, "target": target.name, "distance": command.distance}
    rec.emit("sg.surprise_ability", {**data, "case": "S-SUR-6", **noticed}, before_it_strikes(attacker))
    ti = state.find(target.key)
    assert ti is not None
    if not noticed["noticed"]:
        if attacker.key not in target.unnoticed:
            state = state.put(ti, replace(target, unnoticed=(*target.unnoticed, attacker.key)))
        return state
    if attacker.hidden:
        rec.emit("sg.ability_noticed", {"target": target.name, "case": "S-SUR-6"})
    if attacker.key in target.unnoticed:  # named again, noticed this time
        kept = tuple(k for k in target.unnoticed if k != attacker.key)
        state = state.put(ti, replace(target, unnoticed=kept))
    if state.turn >= 1:
        rec.emit("sg.ability_wary", {"target": target.name, "case": "S-SUR-5"}, before_it_strikes(attacker))
    return state


def surprise(state: SengenshoState, command: SurpriseCommand, rec: EventRecorder) -> SengenshoState:
    """S-SUR-1..6: names the case of an attack or ability and sets what the target may do about it."""
    # A hidden attacker appears with its attack (S-HIDE-1). On a held item the holder defends
    # (S-ITEM-1), and the item keeps the same restriction should it jump out to defend (S-ITEM-2).
    ai, attacker = able(state, command.attacker)
    ti, target = locate(state, command.target)
    non_negative("distance", command.distance)
    if ai == ti:
        raise RuleError("sg.against_self", name=attacker.name)
    if target.hidden:
        raise RuleError("sg.target_hidden", name=target.name)
    if command.ability:
        return ability_surprise(state, attacker, target, command, rec)
    di = state.find(defender_of(state, target).key)
    assert di is not None
    defender = state.characters[di]
    if defender.hidden:  # an item goes where its hidden holder is
        raise RuleError("sg.target_hidden", name=target.name)
    found = found_attacker(defender, attacker)
    # S-HIDE-1, S-SUR-5: named before the attack, a hidden attacker stays hidden until it attacks;
    # the GM's ``wary`` is honoured, at the same initiative as another surprise too
    wary = command.wary
    same = not wary and same_initiative(state, defender, attacker)
    names = {"attacker": attacker.name, "target": defender.name}
    case = classify(command.distance, wary, command.alert, found, names)
    told(state, defender, attacker, case, rec)
    new = restrict(state, di, case, attacker)
    if ti != di:
        new = restrict(new, ti, case, attacker)
    limit = case.rule if case.attacker_cap is not None else None
    new = new.put(ai, replace(new.characters[ai], attack_limit=limit))
    rec.emit(
        "sg.surprise",
        {
            "attacker": attacker.name,
            "target": target.name,
            "distance": command.distance,
            "defender": defender.name,
            "case": case.rule,
            "wary": wary,
            "alert": command.alert,
            "same_initiative": same,
            "found": found,
            "evasion": case.evasion.value if case.evasion else None,
            "attacker_cap": case.attacker_cap,
        },
        before_it_strikes(attacker),
    )
    return new
