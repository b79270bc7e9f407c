"""What the players know of each monster (B-KNOW-1, B-KNOW-2): 魔物知識判定 and the GM's reveal.

The party's knowledge is of a kind of monster (ゴブリン, for ゴブリンA, B and C): its best total so far.
At 知名度 the table sees the monster's numbers, at 弱点値 its weakness too; below, its name and a rough
state only (``engine.battle.visibility``). A monster added with ``hidden_stats`` (the GM's own, not in
the books) is known only as far as the GM reveals it.
"""

from __future__ import annotations

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError

from . import lookup
from .commands import Knowledge, Reveal
from .rolls import roll_check
from .state import BattleState, DamageKind, Element, Lore, Monster, Phase, Rough, Side
from .words import parse_check, parse_weakness

#: an event for the GM only (``Event.audience``): what the table may not read
GM_ONLY: tuple[str, ...] = ()


def numbers_known(best: int | None, reputation: int, revealed: bool, hidden_stats: bool) -> bool:
    """B-KNOW-1: the numbers are known at a best total of 知名度 or more (or when the GM revealed them)."""
    if revealed:
        return True
    return not hidden_stats and best is not None and best >= reputation


def weakness_known(best: int | None, weakness_value: int, revealed: bool, hidden_stats: bool) -> bool:
    """B-KNOW-1, B-KNOW-2: the weakness is known at a best total of 弱点値 or more (or GM revealed)."""
    if revealed:
        return True
    return not hidden_stats and best is not None and best >= weakness_value


def rough_state(hp: int, max_hp: int) -> Rough:
    """B-KNOW-1: 無傷 above ¾ of the part's maximum HP, 軽傷 above ¼, 重傷 above 0, 瀕死 at 0 or less."""
    if hp <= 0:
        return Rough.DYING
    if 4 * hp > 3 * max_hp:
        return Rough.UNHURT
    if 4 * hp > max_hp:
        return Rough.LIGHT
    return Rough.HEAVY


def knows_numbers(state: BattleState, m: Monster) -> bool:
    lore = state.lore_of(m.kind_key)
    return numbers_known(lore.best, m.reputation, lore.numbers_revealed, m.hidden_stats)


def knows_weakness(state: BattleState, m: Monster) -> bool:
    lore = state.lore_of(m.kind_key)
    return weakness_known(lore.best, m.weakness_value, lore.weakness_revealed, m.hidden_stats)


def audience(state: BattleState, m: Monster) -> tuple[str, ...] | None:
    """B-KNOW-1: who may read an event carrying the monster's numbers: all (None), or the GM only."""
    return None if knows_numbers(state, m) else GM_ONLY


def weakness_bonus(
    state: BattleState, m: Monster, dealer: Side, kind: DamageKind, element: Element | None
) -> int:
    """B-KNOW-2: the weakness adds to damage the PC side deals, once the party knows the weakness."""
    if dealer is not Side.PC or not knows_weakness(state, m):
        return 0
    return parse_weakness(m.weakness).bonus_for(kind, element)


def kind_of(state: BattleState, name: str) -> tuple[str, str]:
    """The kind (key, name) a monster's name or a kind's name stands for."""
    found = state.character(fold(name))
    if isinstance(found, Monster):
        return found.kind_key, found.kind
    kin = next((m for m in state.monsters if m.kind_key == fold(name)), None)
    if kin is None:
        raise RuleError("bt.unknown_monster", monster=name)
    return kin.kind_key, kin.kind


def _known_record(state: BattleState, kind_key: str) -> dict[str, object]:
    """What the table knows of a kind now: its 知名度/弱点値 (once its numbers are known) and weakness."""
    kin = [m for m in state.monsters if m.kind_key == kind_key]
    numbers = any(knows_numbers(state, m) for m in kin)
    weakness = any(knows_weakness(state, m) for m in kin)
    first = kin[0]
    return {
        "numbers": numbers,
        "weakness": weakness,
        "reputation": first.reputation if numbers else None,
        "weakness_value": first.weakness_value if numbers else None,
        "weakness_text": first.weakness if weakness else None,
    }


def knowledge(state: BattleState, command: Knowledge, rec: EventRecorder) -> BattleState:
    """B-KNOW-1: a PC's 魔物知識判定, once per kind of monster; the party keeps its best total."""
    # During the turns it is the PC's action (B-INIT-2); before them it is free.
    who = lookup.pc(state, command.name)
    lookup.check_owner(who, command.invoker, command.gm)
    lookup.turn_guard(state, who, command.gm)
    kind_key, kind_name = kind_of(state, command.monster)
    lore = state.lore_of(kind_key)
    if who.key in lore.rolled and not command.gm:
        raise RuleError("bt.knowledge_rolled", name=who.name, monster=kind_name)
    total, roll = roll_check(parse_check(command.total), rec)
    before = _known_record(state, kind_key)
    better = lore.best is None or total > lore.best
    lore = Lore(
        kind=kind_key,
        name=kind_name,
        best=total if better else lore.best,
        by=who.key if better else lore.by,
        rolled=lore.rolled if who.key in lore.rolled else (*lore.rolled, who.key),
        numbers_revealed=lore.numbers_revealed,
        weakness_revealed=lore.weakness_revealed,
    )
    new = state.with_lore(lore)
    after = _known_record(new, kind_key)
    rec.emit(
        "bt.knowledge",
        {
            "name": who.name,
            "monster": kind_name,
            "total": total,
            "roll": roll,
            "best": lore.best,
            **after,
            "learned": [k for k in ("numbers", "weakness") if after[k] and not before[k]],
        },
    )
    if state.phase is Phase.RUNNING:
        new = lookup.mark_acted(new, who, rec)
    return new


def reveal(state: BattleState, command: Reveal, rec: EventRecorder) -> BattleState:
    """B-KNOW-1, B-KNOW-2: the GM reveals (or hides again) a kind's numbers and weakness."""
    kind_key, kind_name = kind_of(state, command.monster)
    lore = state.lore_of(kind_key)
    lore = Lore(
        kind=kind_key,
        name=kind_name,
        best=lore.best,
        by=lore.by,
        rolled=lore.rolled,
        numbers_revealed=command.numbers,
        weakness_revealed=command.weakness,
    )
    new = state.with_lore(lore)
    rec.emit("bt.revealed", {"monster": kind_name, **_known_record(new, kind_key)})
    return new
