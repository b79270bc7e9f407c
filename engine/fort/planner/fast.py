"""Fast runs: the planner's battle on plain lists, the engine's rules step by step, no events.

``FastBattle(state, request, dice)`` compiles a battle once (who is what, paths, traps, the damage
expressions as functions of the dice, each unit's weakness against each blow); ``run()`` plays the
rest of the battle once from the compiled state and leaves its end in the instance. Every step is
one of the engine's, in the engine's order and with the engine's arithmetic where it has a function
for it (``applied_damage``, ``shortest_path``, ``catch_radius_roll``, the policy's threat order):

- the enemy turn: the auto-advance of ``rules_move.advance`` (F-TURN-2) with barricades, rams and
  mines (F-TRAP-1..5, F-UNIT-10), blocks by soldiers (F-UNIT-2), a unit a mine destroys staying
  where it was (F-UNIT-6), fort damage on entering F0 (F-FORT-4), no move when confused (F-UNIT-12);
- the turns of ``rules_turn.next_turn`` (F-TURN-1, F-TURN-3): reinforcements at the enemy turn's end
  (F-MAP-7), confusion ending, allowances renewed, fort damage at the enemy turn's start (F-FORT-4),
  the last round's end (F-END-1, F-END-2), a collapse ending everything at once (F-FORT-6);
- the PC turn of ``engine.fort.planner.policy``: repair (F-FORT-3), cannon fire with its catch
  dice and shells (F-CAN-3, F-UNIT-4, F-UNIT-15), the attacks (F-UNIT-6), cannon loads (F-CAN-2).

``engine.fort.planner.reference`` plays the same policy through ``FORT.apply``; the differential
tests replay the dice of fast runs there and compare the end states field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.fort.context import parse_amount, parse_damage_expression
from engine.fort.map import AREAS, EDGES, Area, Position, make_edge, shortest_path
from engine.fort.planner.fast_end import end_document
from engine.fort.planner.policy import moves_to_fort, per_hit, threat_key
from engine.fort.planner.request import PlanRequest
from engine.fort.planner.rolls import Dice, Roller, compile_damage
from engine.fort.rules_damage import (
    FIRE_MAGIC,
    Blow,
    applied_damage,
    catch_radius_roll,
    sheltered,
    weakness_bonus,
)
from engine.fort.rules_equipment import CANNON_RADIUS, CANNON_TARGETS, SHELL_DAMAGE, SOLDIER_SHELLS
from engine.fort.rules_fort import REPAIR_AMOUNT
from engine.fort.rules_move import MINE_DAMAGE
from engine.fort.state import MAX_SHELLS, FortState, Side, TrapKind, Turn, UnitTrait
from engine.ruleset import RuleError

F0 = AREAS.index(Area.F0)
_AREA = {a: i for i, a in enumerate(AREAS)}
_EDGE = {e: k for k, e in enumerate(EDGES)}
#: the edge index between two adjacent area indices
EDGE_BETWEEN: dict[tuple[int, int], int] = {
    (_AREA[a], _AREA[b]): _EDGE[e] for a in AREAS for b in AREAS if (e := make_edge(a, b)) is not None
}
#: F-MAP-2: the shortest path between two area indices, both included
PATHS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_AREA[x] for x in shortest_path(a, b)) for b in AREAS) for a in AREAS
)
#: why a move ended early (F-UNIT-2, F-TRAP-3), as the state writes it
BLOCKED, BARRICADE = "blocked", "barricade"
#: F-UNIT-4: a cannon's radius catches another unit on a d6 of this or less
CANNON_CATCH = catch_radius_roll(CANNON_RADIUS) or 0
#: F-TRAP-4, F-CAN-3: mines and shells deal fire magic damage (FIRE_MAGIC)
MAGIC = FIRE_MAGIC.kind


class FastBattle:
    """A battle compiled for fast runs; ``run()`` plays it once, its end left in the attributes."""

    def __init__(self, state: FortState, request: PlanRequest, dice: Dice) -> None:
        if state.ended:
            raise RuleError("odds.battle_over")
        units = state.units
        self.state = state
        self.n = n = len(units)
        self.equipment = request.equipment
        self.enemies = [i for i, u in enumerate(units) if u.side is Side.ENEMY]
        self.soldiers = [i for i, u in enumerate(units) if u.side is Side.PC]
        self.soldier = [u.side is Side.PC for u in units]
        self.flying = [u.flying for u in units]
        self.trapped = [u.side is Side.ENEMY and UnitTrait.IGNORES_TRAPS not in u.traits for u in units]
        self.rams = [UnitTrait.PASSES_BARRICADES in u.traits for u in units]
        self.strikes: list[Roller | None] = [
            compile_damage(parse_damage_expression(u.strike), dice)  # F-UNIT-10, as unit_fort_damage
            if UnitTrait.STRIKE_IS_FORT_DAMAGE in u.traits and u.strike is not None
            else None
            for u in units
        ]
        self.fort_damage = [u.fort_damage for u in units]
        self.defense = [u.defense for u in units]
        self.move = [u.move for u in units]
        self.max_hp = [u.max_hp for u in units]
        self.waiting = [(i, u.arrive_round) for i, u in enumerate(units) if not u.arrived and u.arrive_round]
        self.sheltered = [sheltered(u) for u in units]
        self.at_top = [u.area is Area.F0 and u.position is Position.TOP for u in units]
        self.fire_bonus = [weakness_bonus(u, FIRE_MAGIC) for u in units]
        self.pc_at_top = any(p.area is Area.F0 and p.position is Position.TOP for p in state.pcs)
        # the threat order (policy.threat_key) as one integer per unit and area
        keys = sorted(
            (threat_key(moves_to_fort(a, u.move), per_hit(u), i), i, k)
            for i, u in enumerate(units)
            for k, a in enumerate(AREAS)
        )
        self.rank = [[0] * len(AREAS) for _ in range(n)]
        for r, (_, i, k) in enumerate(keys):
            self.rank[i][k] = r
        self.attacks = [
            (compile_damage(parse_amount(a.expression), dice), a.kind,
             [weakness_bonus(u, Blow(a.kind)) for u in units])
            for a in request.attacks
        ]  # fmt: skip
        self.bars: list[list[int]] = [[] for _ in EDGES]
        self.mines: list[list[int]] = [[] for _ in EDGES]
        for t, trap in enumerate(state.traps):
            (self.bars if trap.kind is TrapKind.BARRICADE else self.mines)[_EDGE[trap.edge]].append(t)
        self.mine = compile_damage(MINE_DAMAGE, dice)
        self.shell = compile_damage(SHELL_DAMAGE, dice)
        self.d6: Callable[[], int] = dice.d6
        # the state a run starts from
        self.hp0 = [u.hp for u in units]
        self.area0 = [_AREA[u.area] for u in units]
        self.gone0 = [u.destroyed for u in units]
        self.arrived0 = [u.arrived for u in units]
        self.moved0 = [u.moved_m for u in units]
        self.halted0 = [u.halted for u in units]
        self.acted0 = [u.acted for u in units]
        self.held_edge0 = [_EDGE[u.held_edge] if u.held_edge is not None else None for u in units]
        self.held_to0 = [_AREA[u.held_to] if u.held_to is not None else None for u in units]
        self.uses0 = [t.uses for t in state.traps]
        self.soldiers_at0 = [0] * len(AREAS)
        for i in self.soldiers:
            if units[i].on_map:
                self.soldiers_at0[self.area0[i]] += 1
        #: fort damage dealt by each unit, summed over every run
        self.damage = [0] * n
        # the end of the last run (before any: the start)
        self.fort, self.held, self.round = state.fort_hp, False, state.round
        self.repaired, self.confused, self.pcs_renewed = state.repaired_round, state.confused_round, False
        self.hp, self.area, self.gone, self.arrived = self.hp0, self.area0, self.gone0, self.arrived0
        self.moved, self.halted, self.acted = self.moved0, self.halted0, self.acted0
        self.held_edge, self.held_to = self.held_edge0, self.held_to0
        self.uses, self.cannons = self.uses0, list(state.cannons)

    def run(self) -> None:
        """Plays the rest of the battle once; the end: ``fort``, ``held``, ``round``, the unit lists."""
        state = self.state
        hp, area, gone = list(self.hp0), list(self.area0), list(self.gone0)
        arrived, moved, halted = list(self.arrived0), list(self.moved0), list(self.halted0)
        acted, held_edge, held_to = list(self.acted0), list(self.held_edge0), list(self.held_to0)
        uses, cannons, soldiers_at = list(self.uses0), list(state.cannons), list(self.soldiers_at0)
        soldier, trapped, rams, flying = self.soldier, self.trapped, self.rams, self.flying
        strikes, fort_damage, defense, damage = self.strikes, self.fort_damage, self.defense, self.damage
        bars, mines, mine, fire_bonus = self.bars, self.mines, self.mine, self.fire_bonus
        enemies, soldiers, move = self.enemies, self.soldiers, self.move
        fort, max_hp = state.fort_hp, state.fort_max_hp
        rnd, rounds, pc_turn = state.round, state.rounds, state.turn is Turn.PC
        pc_first = state.first is Side.PC
        repaired, confused = state.repaired_round, state.confused_round
        ended = False
        pcs_renewed = False

        def hit_fort(i: int) -> None:
            """F-FORT-4, F-UNIT-10, F-FORT-6: fixed fort damage (a ram rolls its strike), never below 0."""
            nonlocal fort, ended
            strike = strikes[i]
            amount = strike() if strike is not None else fort_damage[i]
            if amount < 0:
                amount = 0
            damage[i] += amount
            fort -= amount
            if fort <= 0:
                ended = True

        def hurt(i: int, taken: int) -> None:
            """F-UNIT-6: HP falls; at 0 or less the unit is destroyed (a soldier stops blocking)."""
            hp[i] -= taken
            if hp[i] <= 0 and not gone[i]:
                gone[i] = True
                if soldier[i] and arrived[i]:
                    soldiers_at[area[i]] -= 1

        while True:
            if pc_turn:
                fort, repaired = self._pc_turn(fort, max_hp, rnd, repaired, hp, area, gone, arrived,
                                               acted, cannons, hurt)  # fmt: skip
            elif confused != rnd:  # F-TURN-2 auto-advance; F-UNIT-12: not while confused
                for i in [i for i in enemies if arrived[i] and not gone[i]]:
                    if gone[i]:
                        continue
                    left = 0 if halted[i] is not None else move[i] - moved[i]
                    # F-TRAP-3: a held unit's next move is an ordinary one toward F0
                    path = PATHS[area[i]][F0][: max(left, 0) // 10 + 1]
                    if len(path) < 2:
                        continue
                    cur, crossed, stopped, edge = path[0], 0, None, -1
                    for nxt in path[1:]:
                        area[i] = cur
                        edge = EDGE_BETWEEN[cur, nxt]
                        if trapped[i]:
                            for t in bars[edge]:  # F-TRAP-2, F-TRAP-5: the first barricade, first
                                if uses[t] > 0:
                                    if rams[i]:
                                        uses[t] -= 1
                                    elif edge != held_edge[i]:
                                        uses[t] -= 1
                                        stopped = BARRICADE
                                    break
                            if stopped is not None:
                                break
                            for t in mines[edge]:
                                if uses[t] > 0:
                                    uses[t] -= 1
                                    taken = applied_damage(mine(), MAGIC, defense[i], fire_bonus[i])
                                    hurt(i, taken)
                                    break
                            if gone[i]:
                                stopped = "destroyed"
                                break
                        cur = nxt
                        crossed += 1
                        if soldiers_at[nxt] and not flying[i]:
                            stopped = BLOCKED
                            break
                    area[i] = cur
                    moved[i] += 10 * crossed
                    held = stopped == BARRICADE
                    halted[i] = stopped if held or stopped == BLOCKED else None
                    held_edge[i] = edge if held else None
                    held_to[i] = path[-1] if held else None  # where that move was going
                    if cur == F0 and crossed and not gone[i]:
                        hit_fort(i)
                        if ended:
                            break
                if ended:
                    break
            # F-TURN-1: the turn ends
            if not pc_turn:
                for i, due in self.waiting:  # F-MAP-7: this round's reinforcements arrive
                    if not arrived[i] and due <= rnd:
                        arrived[i] = True
                        if soldier[i] and not gone[i]:
                            soldiers_at[area[i]] += 1
                if confused is not None and confused <= rnd:
                    confused = None
            if pc_turn is not pc_first:  # the round's second turn ended
                if rnd >= rounds:  # F-END-1: every unit standing strikes once more
                    for i in range(self.n):
                        if arrived[i] and not gone[i] and hp[i] >= 1 and not soldier[i]:
                            hit_fort(i)
                            if ended:
                                break
                    ended = True
                    break
                rnd += 1
                pc_turn = pc_first
            else:
                pc_turn = not pc_turn
            # F-TURN-3: the side whose turn starts has its allowances renewed
            for i in soldiers if pc_turn else enemies:
                moved[i], halted[i], acted[i] = 0, None, None
            if pc_turn:
                pcs_renewed = True
            else:  # F-FORT-4: the enemy turn starts with the fort damage of every unit at F0
                for i in enemies:
                    if arrived[i] and not gone[i] and area[i] == F0:
                        hit_fort(i)
                        if ended:
                            break
                if ended:
                    break
        self.fort, self.held, self.round, self.repaired = fort, fort >= 1, rnd, repaired
        self.confused, self.pcs_renewed = confused, pcs_renewed
        self.hp, self.area, self.gone, self.arrived, self.moved = hp, area, gone, arrived, moved
        self.halted, self.acted, self.held_edge, self.held_to = halted, acted, held_edge, held_to
        self.uses, self.cannons = uses, cannons

    def _pc_turn(
        self, fort: int, max_hp: int, rnd: int, repaired: int | None, hp: list[int], area: list[int],
        gone: list[bool], arrived: list[bool], acted: list[str | None], cannons: list[int],
        hurt: Callable[[int, int], None],
    ) -> tuple[int, int | None]:  # fmt: skip
        """The PC side's turn by the policy; returns the fort's HP and the round it was repaired in."""
        rank = self.rank
        standing = [(rank[i][area[i]], i) for i in self.enemies if arrived[i] and not gone[i]]
        order = [i for _, i in sorted(standing)]

        def target() -> int | None:
            for i in order:
                if not gone[i]:
                    return i
            return None

        def worker() -> int | None:
            """The soldier that works the equipment (-1: a PC at the top; None: nobody)."""
            for s in self.soldiers:
                if self.at_top[s] and arrived[s] and not gone[s] and acted[s] is None:
                    return s
            return -1 if self.pc_at_top else None

        if self.equipment:
            if fort < max_hp and repaired != rnd:  # F-FORT-3
                who = worker()
                if who is not None:
                    fort, repaired = min(max_hp, fort + REPAIR_AMOUNT), rnd
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
                self._fire(t, shells, area, gone, arrived, hurt)
                cannons[k] = 0
        max_unit_hp, defense = self.max_hp, self.defense
        for roll, kind, bonus in self.attacks:  # F-UNIT-6, as /unit hp applies it
            t = target()
            if t is None:
                break
            hp[t] = min(hp[t] - applied_damage(roll(), kind, defense[t], bonus[t]), max_unit_hp[t])
            if hp[t] <= 0:
                gone[t] = True
        if self.equipment:
            for s in self.soldiers:  # F-CAN-2: a soldier loads 2 shells, no check
                if self.at_top[s] and arrived[s] and not gone[s] and acted[s] is None:
                    free = next((c for c, shells in enumerate(cannons) if shells < MAX_SHELLS), None)
                    if free is None:
                        break
                    cannons[free] = min(MAX_SHELLS, cannons[free] + SOLDIER_SHELLS)
                    acted[s] = "cannon_load"
        return fort, repaired

    def _fire(
        self, t: int, shells: int, area: list[int], gone: list[bool], arrived: list[bool],
        hurt: Callable[[int, int], None],
    ) -> None:  # fmt: skip
        """F-CAN-3, F-UNIT-4: the target and the units its area's catch d6s catch (flying and sheltered
        ones roll nothing), ten at most, each taking every shell rolled for it (F-UNIT-15)."""
        aim = area[t]
        caught = [t]
        d6 = self.d6
        for j in range(self.n):
            if j == t or area[j] != aim or not arrived[j] or gone[j]:
                continue
            if not self.sheltered[j] and not self.flying[j] and d6() <= CANNON_CATCH:
                caught.append(j)
        shell, defense, bonus = self.shell, self.defense, self.fire_bonus
        for j in caught[:CANNON_TARGETS]:
            hurt(j, sum(applied_damage(shell(), MAGIC, defense[j], bonus[j]) for _ in range(shells)))

    def end_document(self) -> dict[str, Any]:
        """The last run's end as the export document would write it (for the differential tests)."""
        return end_document(self)
