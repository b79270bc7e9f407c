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
- the enemy units' attacks on soldiers outside at F0 after the moves (F-UNIT-7, ``fast_pc``);
- the PC turn of ``engine.fort.planner.policy`` (``fast_pc``): repair (F-FORT-3), cannon fire with its
  catch dice and shells (F-CAN-3, F-UNIT-4, F-UNIT-15), the ballista (F-BAL-1), the attacks on
  commanders (F-UNIT-12, confusion) or units (F-UNIT-6), soldiers' attacks (F-UNIT-7), cannon loads
  (F-CAN-2).

``engine.fort.planner.reference`` plays the same policy through ``FORT.apply``; the differential
tests replay the dice of fast runs there and compare the end states field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.fort.context import parse_amount, parse_damage_expression
from engine.fort.map import AREAS, EDGES, Area, Position, make_edge, shortest_path
from engine.fort.planner import fast_pc
from engine.fort.planner.fast_end import end_document
from engine.fort.planner.policy import moves_to_fort, per_hit, threat_key
from engine.fort.planner.request import Focus, PlanRequest
from engine.fort.planner.rolls import Dice, Roller, compile_damage
from engine.fort.rules_damage import FIRE_MAGIC, Blow, applied_damage, sheltered, weakness_bonus
from engine.fort.rules_equipment import BALLISTA_EXTRA, BALLISTA_POWER, SHELL_DAMAGE
from engine.fort.rules_move import MINE_DAMAGE
from engine.fort.state import DamageKind, FortState, Side, TrapKind, Turn, UnitTrait
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
#: F-TRAP-4, F-CAN-3: mines and shells deal fire magic damage (FIRE_MAGIC)
MAGIC = FIRE_MAGIC.kind
#: F-BAL-1: the bolt's damage (the shooter's own bonus +0, critical 10)
BOLT_DAMAGE = parse_damage_expression(f"K{BALLISTA_POWER}{BALLISTA_EXTRA:+d}@10")


class FastBattle:
    """A battle compiled for fast runs; ``run()`` plays it once, its end left in the attributes."""

    def __init__(self, state: FortState, request: PlanRequest, dice: Dice) -> None:
        if state.ended:
            raise RuleError("odds.battle_over")
        units = state.units
        self.state = state
        self.n = n = len(units)
        self.equipment = request.equipment
        self.focus_commanders = request.focus is Focus.COMMANDERS
        self.pc_first = state.first is Side.PC
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
        #: F-UNIT-7: every unit's strike as a roll (None: it makes no unit attack)
        self.strike = [
            compile_damage(parse_damage_expression(u.strike), dice) if u.strike is not None else None
            for u in units
        ]
        self.outside = [
            u.side is Side.PC and u.area is Area.F0 and u.position is Position.OUTSIDE for u in units
        ]
        self.physical_bonus = [weakness_bonus(u, Blow(DamageKind.PHYSICAL)) for u in units]
        self.commander_max = [c.max_hp for c in state.commanders]
        self.commander_hp0 = [c.hp for c in state.commanders]
        self.bolt = compile_damage(BOLT_DAMAGE, dice)
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
        self.commander_hp = self.commander_hp0
        self.ballista = state.ballista

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
        fort = state.fort_hp
        rnd, rounds, pc_turn = state.round, state.rounds, state.turn is Turn.PC
        pc_first = state.first is Side.PC
        repaired, confused = state.repaired_round, state.confused_round
        ended = False
        pcs_renewed = False
        self.hp, self.area, self.gone, self.arrived, self.acted = hp, area, gone, arrived, acted
        self.cannons, self.commander_hp, self.ballista = cannons, list(self.commander_hp0), state.ballista

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
                fort, repaired, confused = fast_pc.pc_turn(self, fort, rnd, repaired, confused, hurt)
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
            if not pc_turn:  # F-TURN-2: then the units' attacks
                fast_pc.enemy_attacks(self, hurt)
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

    def end_document(self) -> dict[str, Any]:
        """The last run's end as the export document would write it (for the differential tests)."""
        return end_document(self)
