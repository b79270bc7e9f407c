"""Defence equipment: traps (F-TRAP-1), cannons (F-CAN-1..3) and the ballista (F-BAL-1)."""

from __future__ import annotations

from engine import limits
from engine.common import fold
from engine.dice import parse_command
from engine.errors import about
from engine.fort.commands import FireBallista, FireCannon, LoadBallista, LoadCannon, RemoveTrap, SetTrap
from engine.fort.context import Context, parse_damage_expression, roll_record
from engine.fort.lookup import require_equipment, resolve_actor, soldier_acted
from engine.fort.map import edge_text, parse_edge
from engine.fort.rules_attack import aim_data, resolve_aim
from engine.fort.rules_characters import hurt_pc
from engine.fort.rules_damage import FIRE_MAGIC, Blow, area_catch, caught_names, deal_area
from engine.fort.state import MAX_SHELLS, Ballista, DamageKind, FortState, Trap, TrapKind, evolve
from engine.ruleset import RuleError

MAX_TRAP_USES = 99
#: F-CAN-2: a strength check loads one shell per threshold reached.
LOAD_THRESHOLDS = (15, 18, 21, 24, 27)
#: F-CAN-2: a soldier unit loads this many shells, no check.
SOLDIER_SHELLS = 2
#: F-CAN-2, F-CAN-3: the shell's fire magic damage (also what a failed loader takes).
SHELL_DAMAGE = parse_command("K40+12@10")
#: F-CAN-3: 対象：1エリア(半径4m)/10; F-BAL-1: 1エリア(半径6m)/20.
CANNON_RADIUS, CANNON_TARGETS = 4, 10
BALLISTA_RADIUS, BALLISTA_TARGETS = 6, 20
BALLISTA_POWER, BALLISTA_EXTRA = 90, 20
#: F-BAL-1: any bolt but 〈竜牙の太矢〉; 〈魔力の太矢〉 exists once.
FORBIDDEN_BOLT = "竜牙の太矢"
MAGIC_BOLT = "魔力の太矢"


def parse_trap_kind(text: str) -> TrapKind:
    try:
        return TrapKind(fold(text))
    except ValueError:
        raise RuleError("fort.trap_kind_invalid", kind=text, allowed=[k.value for k in TrapKind]) from None


def set_trap(ctx: Context, state: FortState, cmd: SetTrap) -> FortState:
    """F-TRAP-1: a trap on an edge between two adjacent areas, with 1-99 uses."""
    with about("kind"):
        kind = parse_trap_kind(cmd.kind)
    with about("edge"):
        edge = parse_edge(cmd.edge)
    if not 1 <= cmd.uses <= MAX_TRAP_USES:
        raise RuleError("fort.trap_uses_invalid", about="uses", uses=cmd.uses, max=MAX_TRAP_USES)
    limits.check_count("traps", len(state.traps) + 1, limits.MAX_TRAPS)
    ctx.emit("trap.set", {"kind": kind.value, "edge": edge_text(edge), "uses": cmd.uses})
    return evolve(state, traps=(*state.traps, Trap(kind, edge, cmd.uses)))


def remove_trap(ctx: Context, state: FortState, cmd: RemoveTrap) -> FortState:
    """F-TRAP-1: removes the first trap of that kind on that edge (in the order they were set)."""
    kind = parse_trap_kind(cmd.kind)
    edge = parse_edge(cmd.edge)
    for i, t in enumerate(state.traps):
        if t.kind is kind and t.edge == edge:
            ctx.emit("trap.removed", {"kind": kind.value, "edge": edge_text(edge), "uses": t.uses})
            return evolve(state, traps=state.traps[:i] + state.traps[i + 1 :])
    raise RuleError("fort.trap_unknown", kind=kind.value, edge=edge_text(edge))


def _cannon(state: FortState, number: int) -> int:
    """F-CAN-1: cannons are numbered from 1."""
    if not 1 <= number <= len(state.cannons):
        raise RuleError("fort.cannon_unknown", cannon=number, cannons=len(state.cannons))
    return number - 1


def shells_for_check(total: int, dice: tuple[int, ...]) -> int:
    """F-CAN-2: one shell per threshold 15/18/21/24/27 reached.

    **Ruling:** Sword World's 2D6 check rules apply: 1ゾロ fails whatever the total, 6ゾロ loads at least
    one shell.
    """
    reached = sum(1 for t in LOAD_THRESHOLDS if total >= t)
    if dice == (1, 1):
        return 0
    if dice == (6, 6):
        return max(1, reached)
    return reached


def load_cannon(ctx: Context, state: FortState, cmd: LoadCannon) -> FortState:
    """F-CAN-2: a main action; the strength check loads shells (never past 5); under 15 the shell drops and
    the loader takes K40+12@10 fire magic damage; a soldier loads 2 shells, no check."""
    c = _cannon(state, cmd.cannon)
    actor = resolve_actor(state, cmd.by, cmd.invoker)
    require_equipment(state, actor)
    before = state.cannons[c]
    if before >= MAX_SHELLS:
        raise RuleError("fort.cannon_full", cannon=cmd.cannon, shells=before)
    data: dict[str, object] = {"cannon": cmd.cannon, "by": actor.name, "before": before}
    if actor.unit is not None:
        reached, check, roll = SOLDIER_SHELLS, None, None
    elif cmd.check is not None:
        reached, check, roll = shells_for_check(cmd.check, ()), cmd.check, None
    else:
        result = ctx.roll_command(parse_damage_expression(f"2D6{cmd.bonus:+d}" if cmd.bonus else "2D6"))
        check, roll = result.total, roll_record(result)
        reached = shells_for_check(check or 0, result.dice)
    state = soldier_acted(state, actor, "cannon_load")
    if reached == 0:
        ctx.emit("cannon.load_failed", {**data, "check": check, "roll": roll})
        assert actor.pc is not None
        hit = ctx.roll_command(SHELL_DAMAGE)
        return hurt_pc(
            ctx,
            state,
            actor.pc,
            hit.damage,
            {"source": "cannon_load", **FIRE_MAGIC.data(), "roll": roll_record(hit)},
        )
    after = min(MAX_SHELLS, before + reached)
    ctx.emit("cannon.loaded", {**data, "check": check, "roll": roll, "reached": reached, "after": after})
    cannons = (*state.cannons[:c], after, *state.cannons[c + 1 :])
    return evolve(state, cannons=cannons)


def fire_cannon(ctx: Context, state: FortState, cmd: FireCannon) -> FortState:
    """F-CAN-3: needs a shell; sure hit anywhere (20 m from F0) at a unit, a commander or a point, 1 area
    (r4)/10; everyone affected takes every shell, each K40+12@10 fire magic damage rolled for that one
    (F-UNIT-4, F-UNIT-15); then the cannon is empty."""
    c = _cannon(state, cmd.cannon)
    actor = resolve_actor(state, cmd.by, cmd.invoker)
    require_equipment(state, actor)
    shells = state.cannons[c]
    if shells < 1:
        raise RuleError("fort.cannon_empty", cannon=cmd.cannon)
    aim = resolve_aim(state, cmd.unit, cmd.commander, cmd.area)
    state = soldier_acted(state, actor, "cannon_fire")
    caught = area_catch(ctx, state, aim, CANNON_RADIUS, CANNON_TARGETS)
    hit, characters = caught_names(state, caught)
    ctx.emit(
        "cannon.fired",
        {
            "cannon": cmd.cannon,
            "by": actor.name,
            "shells": shells,
            **aim_data(state, aim),
            "checks": list(caught.checks),
            "hit": hit,
            "characters": characters,
            "over_cap": list(caught.over),
        },
    )
    state = deal_area(ctx, state, caught, FIRE_MAGIC, {"source": "cannon", "by": actor.name}, _shell, shells)
    return evolve(state, cannons=(*state.cannons[:c], 0, *state.cannons[c + 1 :]))


def _shell(ctx: Context) -> tuple[int, dict[str, object]]:
    result = ctx.roll_command(SHELL_DAMAGE)
    return result.damage, roll_record(result)


def load_ballista(ctx: Context, state: FortState, cmd: LoadBallista) -> FortState:
    """F-BAL-1: loading is a main action; any bolt but 〈竜牙の太矢〉; 〈魔力の太矢〉 only once."""
    actor = resolve_actor(state, cmd.by, cmd.invoker)
    require_equipment(state, actor)
    if state.ballista.loaded:
        raise RuleError("fort.ballista_loaded", bolt=state.ballista.bolt)
    bolt = fold(cmd.bolt).strip("〈〉<>") if cmd.bolt else None
    if bolt == FORBIDDEN_BOLT:
        raise RuleError("fort.ballista_bolt_forbidden", bolt=cmd.bolt)
    magic = bolt == MAGIC_BOLT
    if magic and state.ballista.magic_bolt_used:
        raise RuleError("fort.ballista_magic_bolt_used")
    ctx.emit("ballista.loaded", {"by": actor.name, "bolt": bolt, "magic_bolt": magic})
    ballista = Ballista(loaded=True, magic_bolt_used=state.ballista.magic_bolt_used or magic, bolt=bolt)
    return soldier_acted(evolve(state, ballista=ballista), actor, "ballista_load")


def fire_ballista(ctx: Context, state: FortState, cmd: FireBallista) -> FortState:
    """F-BAL-1: a ranged attack (the hit is declared) at a unit, a commander or a point; damage
    K90+20+bonus@crit physical to 1 area (r6)/20, everyone affected rolled separately (F-UNIT-4); the
    ballista is then empty."""
    actor = resolve_actor(state, cmd.by, cmd.invoker)
    require_equipment(state, actor)
    if not state.ballista.loaded:
        raise RuleError("fort.ballista_not_loaded")
    aim = resolve_aim(state, cmd.unit, cmd.commander, cmd.area)
    expression = parse_damage_expression(f"K{BALLISTA_POWER}{BALLISTA_EXTRA + cmd.bonus:+d}@{cmd.crit}")
    bolt = state.ballista.bolt
    state = evolve(state, ballista=evolve(state.ballista, loaded=False, bolt=None))
    state = soldier_acted(state, actor, "ballista_fire")
    data = {
        "by": actor.name,
        **aim_data(state, aim),
        "bolt": bolt,
        "hit": cmd.hit,
        "command": expression.command,
    }
    if not cmd.hit:
        ctx.emit("ballista.fired", {**data, "checks": [], "hit_units": [], "characters": [], "over_cap": []})
        return state
    caught = area_catch(ctx, state, aim, BALLISTA_RADIUS, BALLISTA_TARGETS)
    hit, characters = caught_names(state, caught)
    ctx.emit(
        "ballista.fired",
        {**data, "checks": list(caught.checks), "hit_units": hit, "characters": characters,
         "over_cap": list(caught.over)},
    )  # fmt: skip

    def one(c: Context) -> tuple[int, dict[str, object]]:
        result = c.roll_command(expression)
        return result.damage, roll_record(result)

    return deal_area(
        ctx, state, caught, Blow(DamageKind.PHYSICAL), {"source": "ballista", "by": actor.name}, one
    )
