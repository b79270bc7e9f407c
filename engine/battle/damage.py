"""Damage, healing and MP (B-DMG-1..4), and who falls (B-CHAR-3).

**Rulings.** A dice amount is rolled for each target (SW2.5 decides an area's damage target by target);
a number applies to each. Who deals damage is ``by`` (a character, or a monster's part); left out,
damage to a monster is dealt by the PC side (a player's own PC when they own exactly one, which then
has acted) and damage to a PC is damage taken from the enemy side. The weakness (B-KNOW-2), and the
ダメージ+N of effects on the dealer (B-EFF-2), add only to a hit that deals something (not to 0, nor
to a rating roll's 1ゾロ) and never to 確定 damage, but an element's weakness adds to 確定 damage of
that element (F-UNIT-15). MP above the maximum is capped, and the reply says so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.common import EventRecorder
from engine.limits import MAX_HP
from engine.ruleset import RuleError

from . import lookup
from .commands import MP, Damage, Heal
from .effects import numbers_of
from .knowledge import audience, rough_state, weakness_bonus
from .lookup import Target
from .rolls import roll_amount
from .state import PC, BattleState, DamageKind, Element, Monster, Part, Resisted, Side
from .words import parse_amount, parse_element, parse_kind, parse_resisted, split_list


@dataclass(frozen=True, slots=True)
class Steps:
    """B-DMG-2: each step of one hit, as the reply shows them."""

    amount: int
    mod: int
    bonus: int
    defense: int
    after_defense: int
    halved: int
    final: int


def damage_steps(
    amount: int, kind: DamageKind, defense: int, resisted: Resisted, bonus: int = 0, mod: int = 0
) -> Steps:
    """B-DMG-2: amount + weakness + ダメージ+N, − 防護点 (物理), halved rounded up, never below 0."""
    # A hit that deals nothing gains nothing; 確定 gains no ダメージ+N; resisted none lets nothing through.
    if amount <= 0:
        bonus = mod = 0
    if kind is DamageKind.FIXED:
        mod = 0
    dealt = max(0, amount + mod + bonus)
    used = defense if kind is DamageKind.PHYSICAL else 0
    after = max(0, dealt - used)
    halved = -(-after // 2) if resisted is Resisted.HALF else 0 if resisted is Resisted.NONE else after
    return Steps(amount, mod, bonus, used, after, halved, max(0, halved))


def _hp(t: Target) -> tuple[int, int]:
    if isinstance(t.who, PC):
        return t.who.hp, t.who.max_hp
    p = t.who.parts[t.part or 0]
    return p.hp, p.max_hp


def _with_hp(state: BattleState, t: Target, hp: int) -> tuple[BattleState, Target]:
    who = state.character(t.who.key)
    assert who is not None
    if isinstance(who, PC):
        changed: PC | Monster = replace(who, hp=hp)
    else:
        i = t.part or 0
        changed = who.with_part(i, replace(who.parts[i], hp=hp))
    return state.put(changed), Target(changed, t.part)


def falls(before: Target, after: Target, rec: EventRecorder) -> None:
    """B-CHAR-3: who falls (or stands again) by a change of HP, said as an event."""
    # A monster whose core (or only) part reaches 0 HP or less is down, whatever its other parts; another
    # part at 0 is destroyed and stays; a PC at 0 or less is 戦闘不能.
    if isinstance(before.who, PC) and isinstance(after.who, PC):
        if before.who.down != after.who.down:
            rec.emit(
                "bt.pc_down" if after.who.down else "bt.pc_up", {"name": after.who.name, "hp": after.who.hp}
            )
        return
    assert isinstance(before.who, Monster) and isinstance(after.who, Monster)
    i = after.part or 0
    was, now = before.who.parts[i].destroyed, after.who.parts[i].destroyed
    m = after.who
    if was != now and len(m.parts) > 1 and i != m.core:
        kind = "bt.part_destroyed" if now else "bt.part_restored"
        rec.emit(kind, {"name": m.name, "part": m.parts[i].name, "monster_down": m.down})
    if before.who.down != m.down:
        rec.emit("bt.monster_down" if m.down else "bt.monster_up", {"name": m.name})


def _dealer(state: BattleState, command: Damage, targets: list[Target]) -> Target | None:
    """Who deals it: ``by``, else a player's only PC when the damage is to a monster."""
    if command.by is not None:
        return lookup.target(state, command.by, need_part=False)
    if command.gm or not any(isinstance(t.who, Monster) for t in targets):
        return None
    own = [p for p in state.pcs if p.owner == command.invoker]
    return Target(own[0]) if len(own) == 1 else None


def _check_dealer(dealer: Target, targets: list[Target], command: Damage) -> None:
    """B-CHAR-1: a player deals damage as their own PC, or records a monster's to their own PCs."""
    if command.gm:
        return
    if isinstance(dealer.who, Monster):
        if all(isinstance(t.who, PC) and t.who.owner == command.invoker for t in targets):
            return
        raise RuleError("bt.enemy_gm_only", name=dealer.who.name)
    lookup.check_owner(dealer.who, command.invoker, command.gm)


def _pc_side_guard(state: BattleState, command: Damage, targets: list[Target]) -> None:
    """B-INIT-2: a player's damage to a monster, dealt by no one named, is the PC side's action."""
    if command.gm or state.turn in (None, Side.PC) or not any(isinstance(t.who, Monster) for t in targets):
        return
    assert state.turn is not None
    raise RuleError("bt.not_your_turn", name=None, turn=state.turn.value, round=state.round)


def _targets(state: BattleState, text: str) -> list[Target]:
    words = split_list(text)
    if not words:
        raise RuleError("bt.targets_required", about="targets")
    targets = [lookup.target(state, w, need_part=True) for w in words]
    labels = [t.label for t in targets]
    for label in labels:
        if labels.count(label) > 1:
            raise RuleError("bt.target_twice", about="targets", target=label)
    return targets


def _rough_pair(t: Target, hp: int) -> str:
    return rough_state(hp, _hp(t)[1]).value


def damage(state: BattleState, command: Damage, rec: EventRecorder) -> BattleState:
    """B-DMG-1, B-DMG-2, B-DMG-3: damage to one target or several, each with its defence and resistance."""
    kind, element = parse_kind(command.kind), parse_element(command.element)
    amount = parse_amount(command.amount)
    targets = _targets(state, command.targets)
    resisted = parse_resisted(command.resisted, len(targets))
    dealer = _dealer(state, command, targets)
    if dealer is not None:
        _check_dealer(dealer, targets, command)
        lookup.turn_guard(state, dealer.who, command.gm)
    else:
        _pc_side_guard(state, command, targets)
    new = state
    for t, r in zip(targets, resisted, strict=True):
        new = _hit(new, t, r, kind, element, amount, dealer, rec)
    if dealer is not None:
        new = lookup.mark_acted(new, dealer.who, rec)
    return new


def _hit(
    state: BattleState,
    t: Target,
    resisted: Resisted,
    kind: DamageKind,
    element: Element | None,
    amount: Any,
    dealer: Target | None,
    rec: EventRecorder,
) -> BattleState:
    """B-DMG-2: one target's hit, every step in its event."""
    # The event is the GM's alone when the table does not know the monster; the table reads its rough
    # state (B-KNOW-1).
    t = Target(lookup.character(state, t.who.name), t.part)
    value, roll = roll_amount(amount, rec)
    dealer_side = dealer.who.side if dealer is not None else t.who.side.other
    bonus = weakness_bonus(state, t.who, dealer_side, kind, element) if isinstance(t.who, Monster) else 0
    mod = numbers_of(state, dealer.who, dealer.part)["mods"]["damage"] if dealer is not None else 0
    steps = damage_steps(value, kind, numbers_of(state, t.who, t.part)["defense"], resisted, bonus, mod)
    before, maximum = _hp(t)
    new, after_t = _with_hp(state, t, max(-MAX_HP, before - steps.final))
    after = _hp(after_t)[0]
    shown = {
        "target": t.who.name,
        "part": t.part_name,
        "by": dealer.label if dealer is not None else None,
        "kind": kind.value,
        "element": element.value if element is not None else None,
        "resisted": resisted.value,
        "amount": value,
        "roll": roll,
    }
    secret = audience(state, t.who) if isinstance(t.who, Monster) else None
    flags = {"down": after_t.who.down, "destroyed": isinstance(t.who, Monster) and after <= 0}
    if secret is not None:
        rough = {"before": _rough_pair(t, before), "after": _rough_pair(t, after), **flags}
        rec.emit("bt.damaged_rough", {**shown, **rough})
    full = {
        **shown,
        "side": t.who.side.value,
        "dealer_side": dealer_side.value,
        "mod": steps.mod,
        "weakness": steps.bonus,
        "defense": steps.defense,
        "after_defense": steps.after_defense,
        "halved": steps.halved,
        "final": steps.final,
        "hp_before": before,
        "hp_after": after,
        "max_hp": maximum,
        **flags,
    }
    rec.emit("bt.damaged", full, secret)
    falls(t, after_t, rec)
    return new


def heal(state: BattleState, command: Heal, rec: EventRecorder) -> BattleState:
    """B-DMG-4: healing up to each target's maximum; the reply says what was gained."""
    amount = parse_amount(command.amount)
    targets = _targets(state, command.targets)
    healer = lookup.target(state, command.by, need_part=False) if command.by is not None else None
    if healer is not None:
        lookup.check_owner(healer.who, command.invoker, command.gm)  # B-CHAR-1: one's own PC only
        lookup.turn_guard(state, healer.who, command.gm)
    new = state
    for t in targets:
        t = Target(lookup.character(new, t.who.name), t.part)
        value, roll = roll_amount(amount, rec)
        before, maximum = _hp(t)
        new, after_t = _with_hp(new, t, max(before, min(maximum, before + value)))
        after = _hp(after_t)[0]
        shown = {
            "target": t.who.name,
            "part": t.part_name,
            "by": healer.label if healer is not None else None,
            "amount": value,
            "roll": roll,
        }
        secret = audience(new, t.who) if isinstance(t.who, Monster) else None
        if secret is not None:
            rec.emit(
                "bt.healed_rough", {**shown, "before": _rough_pair(t, before), "after": _rough_pair(t, after)}
            )
        full = {**shown, "gained": after - before, "hp_before": before, "hp_after": after, "max_hp": maximum}
        rec.emit("bt.healed", full, secret)
        falls(t, after_t, rec)
    if healer is not None:
        new = lookup.mark_acted(new, healer.who, rec)
    return new


def _mp_of(t: Target) -> tuple[int, int]:
    if isinstance(t.who, PC):
        return t.who.mp, t.who.max_mp
    p: Part = t.who.parts[t.part or 0]
    return p.mp, p.max_mp


def mp(state: BattleState, command: MP, rec: EventRecorder) -> BattleState:
    """B-DMG-4: MP spent (never below 0) or restored (capped), by its owner or the GM, in any turn."""
    # Spending more than is left is refused, saying what is left.
    t = lookup.target(state, command.name, need_part=True)
    lookup.check_owner(t.who, command.invoker, command.gm)
    if command.delta == 0 or abs(command.delta) > MAX_HP:
        raise RuleError("bt.value_invalid", about="delta", field="delta", value=command.delta)
    before, maximum = _mp_of(t)
    if before + command.delta < 0:
        raise RuleError("bt.mp_short", name=t.label, mp=before, cost=-command.delta)
    after = min(maximum, before + command.delta) if command.delta > 0 else before + command.delta
    who = t.who
    if isinstance(who, PC):
        new = state.put(replace(who, mp=after))
    else:
        i = t.part or 0
        new = state.put(who.with_part(i, replace(who.parts[i], mp=after)))
    data = {
        "name": who.name,
        "part": t.part_name,
        "delta": command.delta,
        "mp_before": before,
        "mp_after": after,
        "max_mp": maximum,
        "capped": command.delta > 0 and before + command.delta > maximum,
    }
    rec.emit("bt.mp", data, audience(state, who) if isinstance(who, Monster) else None)
    return new
