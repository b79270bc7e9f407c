"""Fast runs: the planner's battle on plain lists, the engine's rules step by step, no events.

``FastBattle(state, request, dice)`` compiles a battle once (``fast_compiled.CompiledBattle``: who is
what, paths, traps, the damage expressions as functions of the dice, each unit's weakness against
each blow); ``run()`` plays the rest of the battle once from the compiled state and leaves its end in
the instance. Every step is one of the engine's, in the engine's order and with the engine's
arithmetic where it has a function for it (``applied_damage``, ``shortest_path``,
``catch_radius_roll``, the policy's threat order), and is named after it:

- the enemy turn (``_advance``): the auto-advance of ``rules_move.advance`` (F-TURN-2) with
  barricades (``_barricade``), rams and mines (``_mine``) (F-TRAP-1..5, F-UNIT-10), blocks by soldiers
  (F-UNIT-2), a unit a mine destroys staying where it was (F-UNIT-6), fort damage on entering F0
  (F-FORT-4, ``_hit_fort``), no move when confused (F-UNIT-12);
- the turns of ``rules_turn.next_turn`` (``_next_turn``, F-TURN-1, F-TURN-3): reinforcements at the
  enemy turn's end (F-MAP-7, ``_enemy_turn_end``), confusion ending, allowances renewed, fort damage
  at the enemy turn's start (F-FORT-4, ``_enemy_turn_start``), the last round's end (F-END-1, F-END-2,
  ``_end_of_battle``), a collapse ending everything at once (F-FORT-6);
- the enemy units' attacks on soldiers outside at F0 after the moves (F-UNIT-7, ``fast_pc``);
- the PC turn of ``engine.fort.planner.policy`` (``fast_pc``): repair (F-FORT-3), cannon fire with its
  catch dice and shells (F-CAN-3, F-UNIT-4, F-UNIT-15), the ballista (F-BAL-1), the attacks on
  commanders (F-UNIT-12, confusion) or units (F-UNIT-6), soldiers' attacks (F-UNIT-7), cannon loads
  (F-CAN-2).

``engine.fort.planner.reference`` plays the same policy through ``FORT.apply``; the differential
tests replay the dice of fast runs there and compare the end states field by field.
"""

from __future__ import annotations

from typing import Any

from engine.fort.planner import fast_pc
from engine.fort.planner.fast_compiled import EDGE_BETWEEN, F0, MAGIC, STEPS, CompiledBattle
from engine.fort.planner.fast_end import end_document
from engine.fort.rules_damage import applied_damage

#: why a move ended early (F-UNIT-2, F-TRAP-3, F-UNIT-6), as the state writes it
BLOCKED, BARRICADE, DESTROYED = "blocked", "barricade", "destroyed"


class FastBattle(CompiledBattle):
    """A battle compiled for fast runs; ``run()`` plays it once, its end left in the attributes."""

    def run(self) -> None:
        """F-TURN-1: plays the rest of the battle once, turn by turn (the PC side's by the policy, the
        enemy side's by the auto-advance) until the end or a collapse (F-FORT-6); the end: ``fort``,
        ``held``, ``round``, the unit lists."""
        self.restart()
        advance, next_turn = self._advance, self._next_turn
        while True:
            if self.pc_turn:
                fast_pc.pc_turn(self)
            else:
                if self.confused != self.round and advance():  # F-UNIT-12: no move while confused
                    break
                fast_pc.enemy_attacks(self)  # F-TURN-2: then the units' attacks
            if next_turn():
                break
        self.held = self.fort >= 1

    def _hit_fort(self, i: int) -> bool:
        """F-FORT-4, F-UNIT-10, F-FORT-6: fixed fort damage (a ram rolls its strike), never below 0; True
        when the fort has fallen (the battle ends at once)."""
        strike = self.strikes[i]
        amount = strike() if strike is not None else self.fort_damage[i]
        if amount < 0:
            amount = 0
        self.damage[i] += amount
        self.fort -= amount
        return self.fort <= 0

    def _advance(self) -> bool:
        """F-TURN-2: the auto-advance, unit by unit, each toward F0 by what it has left of its move, edge
        by edge (F-MAP-2): the edge's traps (F-TRAP-5: the barricade first), then the area entered,
        where soldiers block it (F-UNIT-2); entering F0 costs the fort (F-FORT-4). True: the fort fell."""
        area, gone, arrived, moved, halted = self.area, self.gone, self.arrived, self.moved, self.halted
        held_edge, held_to, move, flying = self.held_edge, self.held_to, self.move, self.flying
        trapped, bars, mines, soldiers_at = self.trapped, self.bars, self.mines, self.soldiers_at
        for i in self.enemies:
            if gone[i] or not arrived[i] or halted[i] is not None:
                continue
            left = move[i] - moved[i]  # F-TURN-3: 10 m an edge
            if left < 10:
                continue
            # F-TRAP-3: a held unit's next move is an ordinary one toward F0
            path = STEPS[area[i]][F0][: left // 10]
            if not path:
                continue
            cur, crossed, stopped, edge = area[i], 0, None, -1
            for nxt in path:
                edge = EDGE_BETWEEN[cur, nxt]
                if trapped[i]:
                    if bars[edge] and self._barricade(i, edge):
                        stopped = BARRICADE
                        break
                    if mines[edge] and self._mine(i, edge):
                        stopped = DESTROYED  # F-UNIT-6: it falls on the edge, before ``nxt``
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
            if cur == F0 and crossed and not gone[i] and self._hit_fort(i):
                return True
        return False

    def _barricade(self, i: int, edge: int) -> bool:
        """F-TRAP-3, F-TRAP-2: the edge's first barricade with uses left holds the unit (True) and loses a
        use; the unit it held passes it freely; a ram passes and it loses a use (F-UNIT-10)."""
        uses = self.uses
        for t in self.bars[edge]:
            if uses[t] > 0:
                if self.rams[i]:
                    uses[t] -= 1
                    return False
                if edge == self.held_edge[i]:
                    return False
                uses[t] -= 1
                return True
        return False

    def _mine(self, i: int, edge: int) -> bool:
        """F-TRAP-4, F-TRAP-2: the edge's first mine with uses left deals 2D6+10 fire magic damage and
        loses a use; True when it destroyed the unit."""
        uses = self.uses
        for t in self.mines[edge]:
            if uses[t] > 0:
                uses[t] -= 1
                self.hurt(i, applied_damage(self.mine(), MAGIC, self.defense[i], self.fire_bonus[i]))
                return self.gone[i]
        return False

    def _next_turn(self) -> bool:
        """F-TURN-1: one side's turn, then the other's; after the last round's second turn, the end (True,
        as when the fort falls). F-TURN-3: the side whose turn starts has its allowances renewed."""
        pc_turn = self.pc_turn
        if not pc_turn:
            self._enemy_turn_end()
        if pc_turn is not self.pc_first:  # the round's second turn ended
            if self.round >= self.rounds:
                self._end_of_battle()
                return True
            self.round += 1
            pc_turn = self.pc_first
        else:
            pc_turn = not pc_turn
        self.pc_turn = pc_turn
        moved, halted, acted = self.moved, self.halted, self.acted
        for i in self.soldiers if pc_turn else self.enemies:
            moved[i], halted[i], acted[i] = 0, None, None
        if pc_turn:
            self.pcs_renewed = True
            return False
        return self._enemy_turn_start()

    def _enemy_turn_end(self) -> None:
        """F-MAP-7, F-UNIT-12: at the enemy turn's end this round's reinforcements arrive (a soldier
        starts blocking), and confusion ends."""
        arrived, rnd = self.arrived, self.round
        for i, due in self.waiting:
            if not arrived[i] and due <= rnd:
                arrived[i] = True
                if self.soldier[i] and not self.gone[i]:
                    self.soldiers_at[self.area[i]] += 1
        if self.confused is not None and self.confused <= rnd:
            self.confused = None

    def _enemy_turn_start(self) -> bool:
        """F-FORT-4: the enemy turn starts with the fort damage of every unit at F0, unit by unit; True
        when the fort fell."""
        arrived, gone, area, hit_fort = self.arrived, self.gone, self.area, self._hit_fort
        for i in self.enemies:  # noqa: SIM110 - a loop: any() of a generator is slower here
            if arrived[i] and not gone[i] and area[i] == F0 and hit_fort(i):
                return True
        return False

    def _end_of_battle(self) -> None:
        """F-END-1: after the last round every unit standing (HP 1 or more) strikes the fort once more,
        unit by unit, until it falls."""
        arrived, gone, hp, soldier, hit_fort = self.arrived, self.gone, self.hp, self.soldier, self._hit_fort
        for i in range(self.n):
            if arrived[i] and not gone[i] and hp[i] >= 1 and not soldier[i] and hit_fort(i):
                return

    def end_document(self) -> dict[str, Any]:
        """The last run's end as the export document would write it (for the differential tests)."""
        return end_document(self)
