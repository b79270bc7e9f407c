"""``toride.sengensho/1``: a battle as a JSON document and back, losing nothing.

An import may leave out anything but the names and DP of its characters (a scenario file):
``dp`` defaults to ``dp_max``, ``max_hp`` to ``hp``, the rest to a fresh character's values.
Documents of the earlier form still read: ``ambush``/``gm_fixed`` as booleans, spell cards counted
(``{"declared": 2, "used": 1}``, read as cards named ``#1``, ``#2``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.common import ImportInvalid, JsonDoc, JsonStyle, clean_name, fold
from engine.ruleset import RuleError
from engine.sengensho.core import ATTRIBUTES, parse_gm_fixed
from engine.sengensho.sheet import parse_skills
from engine.sengensho.state import (
    Card,
    Character,
    Down,
    Evasion,
    Exchange,
    GMFixed,
    LastRoll,
    Opening,
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
        "aim": _name_of(state, r.aim),
    }


def _card(state: SengenshoState, k: Card) -> dict[str, Any]:
    """A spell card; ``taken_from`` only for one taken over (S-REIN-1)."""
    out: dict[str, Any] = {"name": k.name, "used": k.used}
    if k.taken_from is not None:
        out["taken_from"] = _name_of(state, k.taken_from)
    return out


def _character(state: SengenshoState, c: Character) -> dict[str, Any]:
    s = c.surprise
    return {
        "name": c.name,
        "owner": c.owner,
        "side": c.side.value,
        "attributes": dict(zip(ATTRIBUTES, c.attributes, strict=True)) if c.attributes else None,
        "skills": dict(c.skills),
        "hp": c.hp,
        "max_hp": c.max_hp,
        "dp": c.dp,
        "dp_max": c.dp_max,
        "recovery": c.recovery,
        "declared": c.declared,
        "acted": c.acted,
        "unable": c.unable,
        "down": c.down.value if c.down else None,
        "held_by": _name_of(state, c.held_by),
        "exposed": c.exposed,
        "hidden": {"total": c.hidden_total, "turn": c.hidden_turn} if c.hidden else None,
        "searched_by": [_name_of(state, k) for k in c.searched_by],
        "entry_turn": c.entry_turn,
        "last_roll": _last_roll(state, c.last_roll),
        "surprise": None if s is None else _surprise(state, s),
        "unaware_at": c.unaware_at,
        "attack_limit": c.attack_limit,
        "spell_cards": [_card(state, k) for k in c.cards],
        "note": c.note,
        **({"clash": c.clash} if c.clash is not None else {}),
        **_later_fields(state, c),
    }


def _surprise(state: SengenshoState, s: Surprise) -> dict[str, Any]:
    return {
        "case": s.case,
        "attacker": _name_of(state, s.attacker),
        "evasion": s.evasion.value,
        "at": s.at,
        "unaware": s.unaware,
        "spent": s.spent,
    }


def _later_fields(state: SengenshoState, c: Character) -> dict[str, Any]:
    """Fields of later rulings (S-SUR-5, S-SUR-6, S-ITEM-2), written only when not at their default."""
    out: dict[str, Any] = {}
    if len(c.surprises) > 1:  # several surprises on one target (the first is also ``surprise``)
        out["surprises"] = [_surprise(state, s) for s in c.surprises]
    if c.found:
        out["found"] = [_name_of(state, k) for k in c.found]
    if c.struck_at is not None:
        out["struck_at"] = c.struck_at
    if c.holder_knows:
        out["holder_knows"] = True
    if c.unnoticed:
        out["unnoticed"] = [_name_of(state, k) for k in c.unnoticed]
    if c.checks:  # /sg set, /sg attack
        out["checks"] = dict(c.checks)
    if c.damage is not None:
        out["damage"] = c.damage
    if c.answer is not None:
        out["answer"] = c.answer
    return out


def _exchange(state: SengenshoState, x: Exchange) -> dict[str, Any]:
    """``/sg attack``: an attack awaiting its answer (or, ``mercy``, the attacker's choice)."""
    return {
        "number": x.id,
        "attacker": _name_of(state, x.attacker),
        "aim": _name_of(state, x.aim),
        "defender": _name_of(state, x.defender),
        "kind": x.roll.kind.value,
        "total": x.roll.total,
        "turn": x.roll.turn,
        "damage": x.damage,
        "mercy": x.mercy,
        "choices": [[defence, dice] for defence, dice in x.choices],
    }


def export_state(state: SengenshoState) -> dict[str, Any]:
    pc, enemy = state.card_allowance
    return {
        "format": FORMAT,
        "title": state.title,
        "opening": state.opening.value,
        "gm_fixed": state.gm_fixed.value,
        "turn": state.turn,
        "step": state.step,
        "ended": state.ended,
        "spell_cards": {
            "pc": state.side_cards(Side.PC),
            "enemy": state.side_cards(Side.ENEMY),
            "unused": {"pc": state.side_unused(Side.PC), "enemy": state.side_unused(Side.ENEMY)},
            "allowance": {"pc": pc, "enemy": enemy},
        },
        "characters": [_character(state, c) for c in state.characters],
        **({"exchanges": [_exchange(state, x) for x in state.exchanges]} if state.exchanges else {}),
        **({"next_exchange": state.next_exchange} if state.next_exchange != 1 else {}),
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
    hidden, last, surprise = r.obj("hidden"), r.obj("last_roll"), r.obj("surprise")
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
        skills=_skills(r),
        hp=hp,
        max_hp=hp if (max_hp := r.int_("max_hp", None, 1)) is None else max_hp,
        declared=r.int_("declared", None, 0),
        acted=r.get("acted", bool, False),
        unable=r.get("unable", bool, False),
        down=r.enum("down", Down, None),
        held_by=fold(r.get("held_by", str, None) or "") or None,
        exposed=r.get("exposed", bool, False),
        hidden=hidden is not None,
        hidden_total=None if hidden is None else hidden.int_("total", None, -999),
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
            aim=fold(last.get("aim", str, None) or "") or None,
        ),
        surprises=_read_surprises(r, surprise),
        found=_keys(r.get("found", list, []), r, "found"),
        struck_at=r.int_("struck_at", None, 0),
        holder_knows=r.get("holder_knows", bool, False),
        unnoticed=_keys(r.get("unnoticed", list, []), r, "unnoticed"),
        unaware_at=r.int_("unaware_at", None, 0),
        attack_limit=r.get("attack_limit", str, None),
        cards=_cards(r),
        note=r.get("note", str, ""),
        clash=r.get("clash", str, None),
        checks=_checks(r),
        damage=r.get("damage", str, None),
        answer=r.get("answer", str, None),
    )


#: the checks ``/sg set`` stores (attack, melee, evasion, guard)
CHECK_KINDS = frozenset(
    {RollKind.ATTACK.value, RollKind.MELEE.value, RollKind.EVASION.value, RollKind.GUARD.value}
)


def _checks(r: JsonDoc) -> tuple[tuple[str, str], ...]:
    checks = r.obj("checks")
    if checks is None:
        return ()
    if any(k not in CHECK_KINDS for k in checks.raw):
        raise r.bad("checks", "unknown_kind")
    return tuple((k, checks.get(k, str)) for k in checks.raw)


def _read_exchange(state: SengenshoState, r: JsonDoc) -> Exchange:
    def key(field: str) -> str:
        found = state.find(fold(r.get(field, str)))
        if found is None:
            raise r.bad(field, "unknown_reference")
        return state.characters[found].key

    return Exchange(
        id=r.int_("number", lo=1),
        attacker=key("attacker"),
        aim=key("aim"),
        defender=key("defender"),
        roll=LastRoll(
            total=r.int_("total", lo=-999),
            kind=r.enum("kind", RollKind, RollKind.ATTACK),
            turn=r.int_("turn", 0, 0),
            aim=key("aim"),
        ),
        damage=r.get("damage", str),
        mercy=r.int_("mercy", None, 0),
        choices=_choices(r),
    )


def _choices(r: JsonDoc) -> tuple[tuple[str, int], ...]:
    raw = r.get("choices", list, [])
    if not all(
        isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) and type(c[1]) is int for c in raw
    ):
        raise r.bad("choices", "not_choices")
    return tuple((str(c[0]), int(c[1])) for c in raw)


def _exchanges(state: SengenshoState, r: JsonDoc) -> SengenshoState:
    """``/sg attack``: the attacks awaiting an answer, and the next one's number."""
    exchanges = tuple(_read_exchange(state, x) for x in r.items("exchanges"))
    numbers = [x.id for x in exchanges]
    if len(set(numbers)) != len(numbers):
        raise RuleError("sg.import_invalid", place="exchanges", reason="duplicate_name")
    after = max(numbers, default=0) + 1
    return replace(state, exchanges=exchanges, next_exchange=max(after, r.int_("next_exchange", 1, 1)))


def _read_surprise(surprise: JsonDoc) -> Surprise:
    return Surprise(
        case=surprise.get("case", str),
        attacker=fold(surprise.get("attacker", str, None) or "") or None,
        evasion=surprise.enum("evasion", Evasion, Evasion.REFUSED),
        at=surprise.int_("at", None, 0),
        unaware=surprise.get("unaware", bool, False),
        spent=surprise.get("spent", bool, True),
    )


def _read_surprises(r: JsonDoc, surprise: JsonDoc | None) -> tuple[Surprise, ...]:
    """S-SUR-5: ``surprises`` (several on one target), else the one ``surprise``."""
    if r.raw.get("surprises") is not None:
        return tuple(_read_surprise(x) for x in r.items("surprises"))
    return () if surprise is None else (_read_surprise(surprise),)


def _skills(r: JsonDoc) -> tuple[tuple[str, int], ...]:
    skills = r.obj("skills")
    if skills is None:
        return ()
    text = " ".join(f"{name}{skills.int_(name, lo=-99, hi=999)}" for name in skills.raw)
    try:
        return parse_skills(text)
    except RuleError:
        raise r.bad("skills", "not_skills") from None


def _cards(r: JsonDoc) -> tuple[Card, ...]:
    """The named cards, or (an earlier document) a count of them, named ``#1``, ``#2`` ..."""
    raw = r.raw.get("spell_cards")
    if isinstance(raw, dict):
        counted = r.obj_or_empty("spell_cards")
        declared, used = counted.int_("declared", 0, 0), counted.int_("used", 0, 0)
        return tuple(Card(f"#{n}", n <= used) for n in range(1, declared + 1))
    cards = [
        (c.get("name", str), c.get("used", bool, False), c.get("taken_from", str, None))
        for c in r.items("spell_cards")
    ]
    if any(not name.strip() for name, _, _ in cards):
        raise r.bad("spell_cards", "empty_name")
    return tuple(Card(name.strip(), used, fold(giver) if giver else None) for name, used, giver in cards)


def _check(state: SengenshoState) -> SengenshoState:
    """The invariants an imported battle must keep: DP within its maximum, HP within its, names known."""
    keys = [c.key for c in state.characters]
    if len(set(keys)) != len(keys):
        raise RuleError("sg.import_invalid", place="characters", reason="duplicate_name")
    for c in state.characters:
        if c.dp > c.dp_max or (c.hp is not None and c.max_hp is not None and c.hp > c.max_hp):
            raise RuleError("sg.import_invalid", place=c.name, reason="above_max")
        if len({fold(k.name) for k in c.cards}) != len(c.cards):
            raise RuleError("sg.import_invalid", place=f"{c.name}.spell_cards", reason="duplicate_name")
        refs = [c.held_by, *c.searched_by]
        last = c.last_roll
        refs += [last.against if last else None, last.aim if last else None]
        refs += [s.attacker for s in c.surprises] + [*c.found, *c.unnoticed]
        if any(k is not None and k not in keys for k in refs) or c.held_by == c.key:
            raise RuleError("sg.import_invalid", place=c.name, reason="unknown_reference")
    return state


def import_state(document: Mapping[str, Any]) -> SengenshoState:
    try:
        return _read(document)
    except ImportInvalid as invalid:
        raise RuleError(
            "sg.import_invalid", place=invalid.path, reason=invalid.reason, detail=invalid.detail
        ) from None


def _read(document: Mapping[str, Any]) -> SengenshoState:
    r = JsonDoc(document, "", STYLE)
    if r.get("format", str, None) != FORMAT:
        raise RuleError("sg.import_invalid", place="format", reason="wrong_format")
    cards = r.obj("spell_cards")
    allowance = None if cards is None else cards.obj("allowance")
    raw_characters = r.get("characters", list, [])
    state = _check(
        SengenshoState(
            title=r.get("title", str, ""),
            opening=_opening(r),
            gm_fixed=_gm_fixed(r),
            turn=r.int_("turn", 0, 0),
            step=r.int_("step", None, 0),
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
    return _exchanges(state, r)


def _opening(r: JsonDoc) -> Opening:
    """S-START-1; an earlier document says ``"ambush": true``."""
    if "opening" not in r.raw and r.get("ambush", bool, False):
        return Opening.AMBUSH
    return r.enum("opening", Opening, Opening.FULL)


def _gm_fixed(r: JsonDoc) -> GMFixed:
    """S-GM-1; an earlier document says ``true`` or ``false``."""
    raw = r.raw.get("gm_fixed")
    if isinstance(raw, bool):
        return GMFixed.CHECKS if raw else GMFixed.OFF
    return r.enum("gm_fixed", parse_gm_fixed_value, GMFixed.OFF)


def parse_gm_fixed_value(text: str) -> GMFixed:
    try:
        return parse_gm_fixed(text)
    except RuleError:
        raise ValueError(text) from None
