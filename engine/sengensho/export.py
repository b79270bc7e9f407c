"""``toride.sengensho/1``: a battle as a JSON document and back, losing nothing.

An import may leave out anything but the names and DP of its characters (a scenario file):
``dp`` defaults to ``dp_max``, ``max_hp`` to ``hp``, the rest to a fresh character's values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.common import ImportInvalid, JsonDoc, JsonStyle, clean_name, fold
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


#: the sengensho's paths and reasons: field ``characters.0.dp`` with reason ``not_int``
STYLE = JsonStyle(
    sep="", end=".", item=".{}", wrong_type=lambda kind: f"not_{kind.__name__}", null_is_missing=True
)


def _keys(raw: list[Any], r: JsonDoc, key: str) -> tuple[str, ...]:
    if not all(isinstance(x, str) for x in raw):
        raise r.bad(key, "not_str")
    return tuple(fold(x) for x in raw)


def _read_character(r: JsonDoc) -> Character:
    name, key = clean_name(r.get("name", str), "sg")
    a = r.obj("attributes")
    attributes = None
    if a is not None:
        v = [a.int_(f, lo=0) for f in ATTRIBUTES]
        attributes = (v[0], v[1], v[2], v[3], v[4])
    dp_max = r.int_("dp_max", lo=0)
    hidden, last, surprise, cards = (
        r.obj("hidden"),
        r.obj("last_roll"),
        r.obj("surprise"),
        r.obj("spell_cards"),
    )
    hp = r.int_("hp", None, 0)
    return Character(
        name=name,
        key=key,
        owner=r.get("owner", str, None),
        side=r.enum("side", Side, Side.PC),
        dp=r.int_("dp", dp_max, 0),
        dp_max=dp_max,
        recovery=r.int_("recovery", lo=0),
        attributes=attributes,
        hp=hp,
        max_hp=hp if (max_hp := r.int_("max_hp", None, 1)) is None else max_hp,
        declared=r.int_("declared", None, 0),
        unable=r.get("unable", bool, False),
        down=r.enum("down", Down, None),
        held_by=fold(r.get("held_by", str, None) or "") or None,
        exposed=r.get("exposed", bool, False),
        hidden_total=None if hidden is None else hidden.int_("total", lo=-999),
        hidden_turn=None if hidden is None else hidden.int_("turn", 0, 0),
        searched_by=_keys(r.get("searched_by", list, []), r, "searched_by"),
        entry_turn=r.int_("entry_turn", None, 0),
        last_roll=None
        if last is None
        else LastRoll(
            total=last.int_("total", lo=-999),
            kind=last.enum("kind", RollKind, RollKind.CHECK),
            turn=last.int_("turn", 0, 0),
            against=fold(last.get("against", str, None) or "") or None,
            won=last.get("won", bool, None),
        ),
        surprise=None
        if surprise is None
        else Surprise(
            case=surprise.get("case", str),
            attacker=fold(surprise.get("attacker", str)),
            evasion=surprise.enum("evasion", Evasion, Evasion.REFUSED),
        ),
        unaware_at=r.int_("unaware_at", None, 0),
        attack_limit=r.get("attack_limit", str, None),
        cards=0 if cards is None else cards.int_("declared", 0, 0),
        cards_used=0 if cards is None else cards.int_("used", 0, 0),
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
    try:
        return _read(document)
    except ImportInvalid as invalid:
        raise RuleError("sg.import_invalid", field=invalid.path, reason=invalid.reason) from None


def _read(document: Mapping[str, Any]) -> SengenshoState:
    r = JsonDoc(document, "", STYLE)
    if r.get("format", str, None) != FORMAT:
        raise RuleError("sg.import_invalid", field="format", reason="wrong_format")
    cards = r.obj("spell_cards")
    allowance = None if cards is None else cards.obj("allowance")
    raw_characters = r.get("characters", list, [])
    return _check(
        SengenshoState(
            title=r.get("title", str, ""),
            ambush=r.get("ambush", bool, False),
            gm_fixed=r.get("gm_fixed", bool, False),
            turn=r.int_("turn", 0, 0),
            ended=r.get("ended", bool, False),
            characters=tuple(
                _read_character(r.item("characters", n, c)) for n, c in enumerate(raw_characters)
            ),
            card_allowance=(
                0 if allowance is None else allowance.int_("pc", 0, 0),
                0 if allowance is None else allowance.int_("enemy", 0, 0),
            ),
        )
    )
