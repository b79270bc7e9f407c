"""Fast runs: the PC side's turn by the policy (``engine.fort.planner.policy``) and the enemy units'
attacks after their moves, on the lists of a run (``fast_compiled.CompiledBattle``), in the order of
the engine runs (``engine.fort.planner.reference``), die for die."""

from __future__ import annotations

from collections.abc import Callable

from engine.fort.planner.fast_compiled import F0, MAGIC, PHYSICAL, CompiledBattle
from engine.fort.rules_damage import applied_damage, catch_radius_roll
from engine.fort.rules_equipment import (
    BALLISTA_RADIUS,
    BALLISTA_TARGETS,
    CANNON_RADIUS,
    CANNON_TARGETS,
    MAGIC_BOLT,
    SOLDIER_SHELLS,
)
from engine.fort.rules_fort import REPAIR_AMOUNT
from engine.fort.state import MAX_SHELLS, Ballista, DamageKind, evolve

#: F-UNIT-4: a cannon's radius (4) catches another unit on a d6 of this or less, the ballista's (6) too
CANNON_CATCH = catch_radius_roll(CANNON_RADIUS) or 0
BALLISTA_CATCH = catch_radius_roll(BALLISTA_RADIUS) or 0


def enemy_attacks(b: CompiledBattle) -> None:
    """F-TURN-2, F-UNIT-7, F-MAP-4: each enemy unit at F0 with a strike that has not acted attacks the
    first soldier outside at F0 (the hit declared): its strike less the soldier's defence."""
    arrived, gone, area, acted, strike, outside = b.arrived, b.gone, b.area, b.acted, b.strike, b.outside
    for i in b.enemies:
        if gone[i] or not arrived[i] or area[i] != F0 or acted[i] is not None:
            continue
        roll = strike[i]
        if roll is None:
            continue
        target = next((s for s in b.soldiers if outside[s] and arrived[s] and not gone[s]), None)
        if target is None:
            return
        acted[i] = "unit_attack"
        b.hurt(target, applied_damage(roll(), PHYSICAL, b.defense[target], b.physical_bonus[target]))


def pc_turn(b: CompiledBattle) -> None:
    """The PC side's turn by the policy; what it changes (the fort's HP, the round it was repaired in,
    the round of the enemy's confusion, the units) is left in ``b``."""
    hp, area, gone, arrived, acted, cannons = b.hp, b.area, b.gone, b.arrived, b.acted, b.cannons
    rank = b.rank
    standing = [(rank[i][area[i]], i) for i in b.enemies if arrived[i] and not gone[i]]
    order = [i for _, i in sorted(standing)]

    def target() -> int | None:
        for i in order:
            if not gone[i]:
                return i
        return None

    def worker() -> int | None:
        """The soldier that works the equipment (-1: a PC at the top; None: nobody)."""
        for s in b.soldiers:
            if b.at_top[s] and arrived[s] and not gone[s] and acted[s] is None:
                return s
        return -1 if b.pc_at_top else None

    if b.equipment:
        if b.fort < b.state.fort_max_hp and b.repaired != b.round:  # F-FORT-3
            who = worker()
            if who is not None:
                b.fort, b.repaired = min(b.state.fort_max_hp, b.fort + REPAIR_AMOUNT), b.round
                if who >= 0:
                    acted[who] = "repair"
        for k, shells in enumerate(cannons):  # F-CAN-3
            if shells < 1:
                continue
            t, who = target(), worker()
            if t is None or who is None:
                break
            if who >= 0:
                acted[who] = "cannon_fire"
            _area(b, t, b.shell, shells, CANNON_CATCH, CANNON_TARGETS, MAGIC, b.fire_bonus)
            cannons[k] = 0
        _ballista(b, target(), worker())
    max_unit_hp, defense, chp = b.max_hp, b.defense, b.commander_hp
    for roll, kind, bonus in b.attacks:  # F-UNIT-6, as /unit hp applies it
        if b.focus_commanders and any(h > 0 for h in chp):  # F-UNIT-12, as /commander hp applies it
            c = min((h, c) for c, h in enumerate(chp) if h > 0)[1]
            chp[c] = min(chp[c] - applied_damage(roll(), kind, 0), b.commander_max[c])
            if all(h <= 0 for h in chp):
                b.confused = b.round + 1 if not b.pc_first else b.round  # the enemy side's next turn
            continue
        t = target()
        if t is None:
            break
        hp[t] = min(hp[t] - applied_damage(roll(), kind, defense[t], bonus[t]), max_unit_hp[t])
        if hp[t] <= 0:
            gone[t] = True
    strike, flying = b.strike, b.flying
    for s in b.soldiers:  # F-UNIT-7: soldiers outside attack the most urgent threat at F0
        strike_of = strike[s]
        if not b.outside[s] or not arrived[s] or gone[s] or acted[s] is not None or strike_of is None:
            continue
        t = next((i for i in order if not gone[i] and area[i] == F0 and not flying[i]), None)
        if t is None:
            break
        acted[s] = "unit_attack"
        b.hurt(t, applied_damage(strike_of(), PHYSICAL, defense[t], b.physical_bonus[t]))
    if b.equipment:
        for s in b.soldiers:  # F-CAN-2: a soldier loads 2 shells, no check
            if b.at_top[s] and arrived[s] and not gone[s] and acted[s] is None:
                free = next((c for c, shells in enumerate(cannons) if shells < MAX_SHELLS), None)
                if free is None:
                    break
                cannons[free] = min(MAX_SHELLS, cannons[free] + SOLDIER_SHELLS)
                acted[s] = "cannon_load"


def _ballista(b: CompiledBattle, t: int | None, who: int | None) -> None:
    """F-BAL-1: loaded, it fires at the most urgent threat (K90+20@10 physical, r6/20); empty, it is
    loaded, with 〈魔力の太矢〉 while that is unused."""
    ballista = b.ballista
    if who is None or (ballista.loaded and t is None):
        return
    if ballista.loaded:
        assert t is not None
        b.ballista = evolve(ballista, loaded=False, bolt=None)
        if who >= 0:
            b.acted[who] = "ballista_fire"
        _area(b, t, b.bolt, 1, BALLISTA_CATCH, BALLISTA_TARGETS, PHYSICAL, b.physical_bonus)
        return
    magic = not ballista.magic_bolt_used
    b.ballista = Ballista(loaded=True, magic_bolt_used=True, bolt=MAGIC_BOLT if magic else None)
    if who >= 0:
        b.acted[who] = "ballista_load"


def _area(
    b: CompiledBattle, t: int, roll: Callable[[], int], times: int, catch: int, cap: int, kind: DamageKind,
    bonus: list[int],
) -> None:  # fmt: skip
    """F-UNIT-4: the target and the units its area's catch d6s catch (flying and sheltered ones roll
    nothing), ``cap`` at most, each taking ``times`` rolls rolled for it (F-UNIT-15, F-CAN-3)."""
    area, arrived, gone = b.area, b.arrived, b.gone
    aim = area[t]
    caught = [t]
    d6 = b.d6
    for j in range(b.n):
        if j == t or area[j] != aim or not arrived[j] or gone[j]:
            continue
        if not b.sheltered[j] and not b.flying[j] and d6() <= catch:
            caught.append(j)
    defense, hurt = b.defense, b.hurt
    for j in caught[:cap]:
        hurt(j, sum(applied_damage(roll(), kind, defense[j], bonus[j]) for _ in range(times)))
