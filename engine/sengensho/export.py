"""``toride.sengensho/1``: a battle as a JSON document and back, losing nothing.

An import may leave out anything but the names and DP of its characters (a scenario file):
``dp`` defaults to ``dp_max``, ``max_hp`` to ``hp``, the rest to a fresh character's values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from engine.common import clean_name, fold
from engine.ruleset import RuleError
from engine.sengensho.core import ATTRIBUTES
from engine.sengensho.state import (
    Character,
    Down,
    Evasion,
    LastRoll,
    RollKind,
    SengenshoState,
    Side,
    Surprise,
)

FORMAT = "toride.sengensho/1"

T = TypeVar("T")


def _name_of(state: SengenshoState, key: str | None) -> str | None:
    i = None if key is None else state.find(key)
    return None if i is None else state.characters[i].name


def _last_roll(state: SengenshoState, r: LastRoll | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "total": r.total,
        "kind": r.kind.value,
        "turn": r.turn,
        "against": _name_of(state, r.against),
        "won": r.won,
    }


def _character(state: SengenshoState, c: Character) -> dict[str, Any]:
    s = c.surprise
    return {
        "name": c.name,
        "owner": c.owner,
        "side": c.side.value,
        "attributes": dict(zip(ATTRIBUTES, c.attributes, strict=True)) if c.attributes else None,
        "hp": c.hp,
        "max_hp": c.max_hp,
        "dp": c.dp,
        "dp_max": c.dp_max,
        "recovery": c.recovery,
        "declared": c.declared,
        "unable": c.unable,
        "down": c.down.value if c.down else None,
        "held_by": _name_of(state, c.held_by),
        "exposed": c.exposed,
        "hidden": None if c.hidden_total is None else {"total": c.hidden_total, "turn": c.hidden_turn},
        "searched_by": [_name_of(state, k) for k in c.searched_by],
        "entry_turn": c.entry_turn,
        "last_roll": _last_roll(state, c.last_roll),
        "surprise": None
        if s is None
        else {"case": s.case, "attacker": _name_of(state, s.attacker), "evasion": s.evasion.value},
        "unaware_at": c.unaware_at,
        "attack_limit": c.attack_limit,
        "spell_cards": {"declared": c.cards, "used": c.cards_used},
    }


def export_state(state: SengenshoState) -> dict[str, Any]:
    pc, enemy = state.card_allowance
    return {
        "format": FORMAT,
        "title": state.title,
        "ambush": state.ambush,
        "gm_fixed": state.gm_fixed,
        "turn": state.turn,
        "ended": state.ended,
        "spell_cards": {
            "pc": state.side_cards(Side.PC),
            "enemy": state.side_cards(Side.ENEMY),
            "allowance": {"pc": pc, "enemy": enemy},
        },
        "characters": [_character(state, c) for c in state.characters],
    }


# --- import ---------------------------------------------------------------------------------------


class _Reader:
    """Typed reads from a JSON object; a bad value is ``sg.import_invalid`` naming where it is."""

    def __init__(self, raw: Any, where: str) -> None:
        if not isinstance(raw, Mapping):
            raise RuleError("sg.import_invalid", field=where, reason="not_an_object")
        self.raw = raw
        self.where = where

    def bad(self, key: str, reason: str) -> RuleError:
        return RuleError("sg.import_invalid", field=f"{self.where}{key}", reason=reason)

    def get(self, key: str, kind: type[T], default: T | None = None, required: bool = False) -> T | None:
        value = self.raw.get(key)
        if value is None:
            if required:
                raise self.bad(key, "missing")
            return default
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.bad(key, f"not_{kind.__name__}")
        return value

    def int(self, key: str, default: int | None = None, least: int = 0, required: bool = False) -> int | None:
        value = self.get(key, int, default, required)
        if self.raw.get(key) is not None and value is not None and value < least:
            raise self.bad(key, "out_of_range")
        return value

    def enum(self, key: str, parse: Callable[[str], T], default: T | None = None) -> T | None:
        text = self.get(key, str)
        if text is None:
            return default
        try:
            return parse(text)
        except ValueError:
            raise self.bad(key, "unknown_value") from None

    def sub(self, key: str) -> _Reader | None:
        value = self.raw.get(key)
        return None if value is None else _Reader(value, f"{self.where}{key}.")


def _keys(raw: list[Any], r: _Reader, key: str) -> tuple[str, ...]:
    if not all(isinstance(x, str) for x in raw):
        raise r.bad(key, "not_str")
    return tuple(fold(x) for x in raw)


def _read_character(r: _Reader) -> Character:
    name, key = clean_name(r.get("name", str, required=True) or "", "sg")
    a = r.sub("attributes")
    attributes = None
    if a is not None:
        v = [a.int(f, required=True) or 0 for f in ATTRIBUTES]
        attributes = (v[0], v[1], v[2], v[3], v[4])
    dp_max = r.int("dp_max", required=True) or 0
    hidden, last, surprise, cards = (
        r.sub("hidden"),
        r.sub("last_roll"),
        r.sub("surprise"),
        r.sub("spell_cards"),
    )
    hp = r.int("hp")
    return Character(
        name=name,
        key=key,
        owner=r.get("owner", str),
        side=r.enum("side", Side, Side.PC) or Side.PC,
        dp=r.int("dp", dp_max) or 0,
        dp_max=dp_max,
        recovery=r.int("recovery", required=True) or 0,
        attributes=attributes,
        hp=hp,
        max_hp=r.int("max_hp", hp, least=1),
        declared=r.int("declared"),
        unable=bool(r.get("unable", bool, False)),
        down=r.enum("down", Down),
        held_by=fold(r.get("held_by", str) or "") or None,
        exposed=bool(r.get("exposed", bool, False)),
        hidden_total=None if hidden is None else hidden.int("total", least=-999, required=True),
        hidden_turn=None if hidden is None else hidden.int("turn", 0),
        searched_by=_keys(r.get("searched_by", list, []) or [], r, "searched_by"),
        entry_turn=r.int("entry_turn"),
        last_roll=None
        if last is None
        else LastRoll(
            total=last.int("total", least=-999, required=True) or 0,
            kind=last.enum("kind", RollKind, RollKind.CHECK) or RollKind.CHECK,
            turn=last.int("turn", 0) or 0,
            against=fold(last.get("against", str) or "") or None,
            won=last.get("won", bool),
        ),
        surprise=None
        if surprise is None
        else Surprise(
            case=surprise.get("case", str, required=True) or "",
            attacker=fold(surprise.get("attacker", str, required=True) or ""),
            evasion=surprise.enum("evasion", Evasion, Evasion.REFUSED) or Evasion.REFUSED,
        ),
        unaware_at=r.int("unaware_at"),
        attack_limit=r.get("attack_limit", str),
        cards=0 if cards is None else cards.int("declared", 0) or 0,
        cards_used=0 if cards is None else cards.int("used", 0) or 0,
    )


def _check(state: SengenshoState) -> SengenshoState:
    """The invariants an imported battle must keep: DP within its maximum, HP within its, names known."""
    keys = [c.key for c in state.characters]
    if len(set(keys)) != len(keys):
        raise RuleError("sg.import_invalid", field="characters", reason="duplicate_name")
    for c in state.characters:
        if c.dp > c.dp_max or (c.hp is not None and c.max_hp is not None and c.hp > c.max_hp):
            raise RuleError("sg.import_invalid", field=c.name, reason="out_of_range")
        if c.cards_used > c.cards:
            raise RuleError("sg.import_invalid", field=f"{c.name}.spell_cards", reason="out_of_range")
        refs = [c.held_by, *c.searched_by]
        refs += [c.last_roll.against if c.last_roll else None, c.surprise.attacker if c.surprise else None]
        if any(k is not None and k not in keys for k in refs) or c.held_by == c.key:
            raise RuleError("sg.import_invalid", field=c.name, reason="unknown_reference")
    return state


def import_state(document: Mapping[str, Any]) -> SengenshoState:
    r = _Reader(document, "")
    if r.get("format", str) != FORMAT:
        raise RuleError("sg.import_invalid", field="format", reason="wrong_format")
    cards = r.sub("spell_cards")
    allowance = None if cards is None else cards.sub("allowance")
    raw_characters = r.get("characters", list, []) or []
    return _check(
        SengenshoState(
            title=r.get("title", str, "") or "",
            ambush=bool(r.get("ambush", bool, False)),
            gm_fixed=bool(r.get("gm_fixed", bool, False)),
            turn=r.int("turn", 0) or 0,
            ended=bool(r.get("ended", bool, False)),
            characters=tuple(
                _read_character(_Reader(c, f"characters.{n}.")) for n, c in enumerate(raw_characters)
            ),
            card_allowance=(
                0 if allowance is None else allowance.int("pc", 0) or 0,
                0 if allowance is None else allowance.int("enemy", 0) or 0,
            ),
        )
    )
