"""Fast runs: a battle compiled once onto plain lists, and the lists a run changes.

``CompiledBattle`` holds what every run of a battle shares (who is what, paths, traps, the damage
expressions as functions of the dice, each unit's weakness against each blow, the threat order) and
the state one run changes (HP, areas, allowances, trap uses, cannons, the fort), which ``restart``
sets back to the battle's start. The runs themselves are ``fast.FastBattle`` (the enemy side and the
turns) and ``fast_pc`` (the PC side); ``fast_end`` writes a run's end as the export document does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.fort.context import parse_amount, parse_damage_expression
from engine.fort.map import AREAS, EDGES, Area, Position, make_edge, shortest_path
from engine.fort.planner.policy import moves_to_fort, per_hit, threat_key
from engine.fort.planner.request import Focus, PlanRequest
from engine.fort.planner.rolls import Dice, Roller, compile_damage
from engine.fort.rules_damage import FIRE_MAGIC, Blow, sheltered, weakness_bonus
from engine.fort.rules_equipment import BALLISTA_EXTRA, BALLISTA_POWER, SHELL_DAMAGE
from engine.fort.rules_move import MINE_DAMAGE
from engine.fort.state import DamageKind, FortState, Side, TrapKind, Turn, Unit, UnitTrait
from engine.ruleset import RuleError

F0 = AREAS.index(Area.F0)
AREA_INDEX = {a: i for i, a in enumerate(AREAS)}
EDGE_INDEX = {e: k for k, e in enumerate(EDGES)}
#: the edge index between two adjacent area indices
EDGE_BETWEEN: dict[tuple[int, int], int] = {
    (AREA_INDEX[a], AREA_INDEX[b]): EDGE_INDEX[e]
    for a in AREAS
    for b in AREAS
    if (e := make_edge(a, b)) is not None
}
#: F-MAP-2: the areas entered one by one on the shortest path between two area indices (the start left out)
STEPS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(AREA_INDEX[x] for x in shortest_path(a, b)[1:]) for b in AREAS) for a in AREAS
)
#: F-TRAP-4, F-CAN-3: mines and shells deal fire magic damage (FIRE_MAGIC)
MAGIC, PHYSICAL = FIRE_MAGIC.kind, DamageKind.PHYSICAL
#: F-BAL-1: the bolt's damage (the shooter's own bonus +0, critical 10)
BOLT_DAMAGE = parse_damage_expression(f"K{BALLISTA_POWER}{BALLISTA_EXTRA:+d}@10")


class CompiledBattle:
    """A battle compiled for fast runs, and the end of the last run in its attributes (before any run:
    the start)."""

    def __init__(self, state: FortState, request: PlanRequest, dice: Dice) -> None:
        if state.ended:
            raise RuleError("odds.battle_over")
        self.state = state
        self.n = len(state.units)
        self.rounds = state.rounds
        self.equipment = request.equipment
        self.focus_commanders = request.focus is Focus.COMMANDERS
        self.pc_first = state.first is Side.PC
        self.d6: Callable[[], int] = dice.d6
        self._compile_units(state)
        self._compile_damage(state.units, request, dice)
        self._compile_threats(state.units)
        self._compile_traps(state, dice)
        self._compile_start(state)
        #: fort damage dealt by each unit, summed over every run
        self.damage = [0] * self.n
        self.held = False
        self.restart()

    def _compile_units(self, state: FortState) -> None:
        """Who is what: sides, traits and numbers per unit index (F-UNIT-*, F-TRAP-1, F-MAP-4)."""
        units = state.units
        self.enemies = [i for i, u in enumerate(units) if u.side is Side.ENEMY]
        self.soldiers = [i for i, u in enumerate(units) if u.side is Side.PC]
        self.soldier = [u.side is Side.PC for u in units]
        self.flying = [u.flying for u in units]
        self.trapped = [u.side is Side.ENEMY and UnitTrait.IGNORES_TRAPS not in u.traits for u in units]
        self.rams = [UnitTrait.PASSES_BARRICADES in u.traits for u in units]
        self.outside = [
            u.side is Side.PC and u.area is Area.F0 and u.position is Position.OUTSIDE for u in units
        ]
        self.at_top = [u.area is Area.F0 and u.position is Position.TOP for u in units]
        self.pc_at_top = any(p.area is Area.F0 and p.position is Position.TOP for p in state.pcs)
        self.sheltered = [sheltered(u) for u in units]
        self.fort_damage = [u.fort_damage for u in units]
        self.defense = [u.defense for u in units]
        self.move = [u.move for u in units]
        self.max_hp = [u.max_hp for u in units]
        self.waiting = [(i, u.arrive_round) for i, u in enumerate(units) if not u.arrived and u.arrive_round]
        self.commander_max = [c.max_hp for c in state.commanders]

    def _compile_damage(self, units: Sequence[Unit], request: PlanRequest, dice: Dice) -> None:
        """The damage rolls as functions of the dice, and each unit's weakness bonus against each blow
        (F-UNIT-15)."""
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
        self.physical_bonus = [weakness_bonus(u, Blow(DamageKind.PHYSICAL)) for u in units]
        self.fire_bonus = [weakness_bonus(u, FIRE_MAGIC) for u in units]
        self.bolt = compile_damage(BOLT_DAMAGE, dice)
        self.attacks = [
            (compile_damage(parse_amount(a.expression), dice), a.kind,
             [weakness_bonus(u, Blow(a.kind)) for u in units])
            for a in request.attacks
        ]  # fmt: skip

    def _compile_threats(self, units: Sequence[Unit]) -> None:
        """The threat order (``policy.threat_key``) as one integer per unit and area: ``rank[i][k]``."""
        keys = sorted(
            (threat_key(moves_to_fort(a, u.move), per_hit(u), i), i, k)
            for i, u in enumerate(units)
            for k, a in enumerate(AREAS)
        )
        self.rank = [[0] * len(AREAS) for _ in units]
        for r, (_, i, k) in enumerate(keys):
            self.rank[i][k] = r

    def _compile_traps(self, state: FortState, dice: Dice) -> None:
        """F-TRAP-2: each edge's barricades and mines, in the order they trigger; the mine's roll."""
        self.bars: list[list[int]] = [[] for _ in EDGES]
        self.mines: list[list[int]] = [[] for _ in EDGES]
        for t, trap in enumerate(state.traps):
            (self.bars if trap.kind is TrapKind.BARRICADE else self.mines)[EDGE_INDEX[trap.edge]].append(t)
        self.mine = compile_damage(MINE_DAMAGE, dice)
        self.shell = compile_damage(SHELL_DAMAGE, dice)

    def _compile_start(self, state: FortState) -> None:
        """The state every run starts from, as lists of unit (and trap) indices."""
        units = state.units
        self.hp0 = [u.hp for u in units]
        self.area0 = [AREA_INDEX[u.area] for u in units]
        self.gone0 = [u.destroyed for u in units]
        self.arrived0 = [u.arrived for u in units]
        self.moved0 = [u.moved_m for u in units]
        self.halted0 = [u.halted for u in units]
        self.acted0 = [u.acted for u in units]
        self.held_edge0 = [EDGE_INDEX[u.held_edge] if u.held_edge is not None else None for u in units]
        self.held_to0 = [AREA_INDEX[u.held_to] if u.held_to is not None else None for u in units]
        self.uses0 = [t.uses for t in state.traps]
        self.commander_hp0 = [c.hp for c in state.commanders]
        #: F-UNIT-2: the soldiers on the map in each area (the blocks)
        self.soldiers_at0 = [0] * len(AREAS)
        for i in self.soldiers:
            if units[i].on_map:
                self.soldiers_at0[self.area0[i]] += 1

    def restart(self) -> None:
        """Sets the run's state back to the battle's start: fresh lists, the fort, the round, the turn."""
        state = self.state
        self.hp, self.area, self.gone = list(self.hp0), list(self.area0), list(self.gone0)
        self.arrived, self.moved, self.halted = list(self.arrived0), list(self.moved0), list(self.halted0)
        self.acted, self.held_edge = list(self.acted0), list(self.held_edge0)
        self.held_to, self.uses = list(self.held_to0), list(self.uses0)
        self.soldiers_at, self.cannons = list(self.soldiers_at0), list(state.cannons)
        self.commander_hp, self.ballista = list(self.commander_hp0), state.ballista
        self.fort, self.round, self.pc_turn = state.fort_hp, state.round, state.turn is Turn.PC
        self.repaired, self.confused, self.pcs_renewed = state.repaired_round, state.confused_round, False

    def hurt(self, i: int, taken: int) -> None:
        """F-UNIT-6: HP falls; at 0 or less the unit is destroyed (a soldier stops blocking)."""
        hp = self.hp
        hp[i] -= taken
        if hp[i] <= 0 and not self.gone[i]:
            self.gone[i] = True
            if self.soldier[i] and self.arrived[i]:
                self.soldiers_at[self.area[i]] -= 1
