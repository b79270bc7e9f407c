"""Sentence parts of fort events that depend on their data: who was aimed at, why a move stopped, what a
weakness added, who a cap left out, where a PC moved (``EVENT_VALUES``, the fort's
``RuleSet.text.event_values``); every word from the catalogues."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from bot import gm_targets
from bot.i18n import has, t
from bot.i18n.names import CommandName
from bot.i18n.words import say
from bot.render.common import value_text
from bot.render.sheet_text import sheet_read_values
from bot.rulesets.fort.gm_targets import TARGETS as GM_TARGETS
from engine.fort.rules_fort import HEAL_AMOUNT, HEAL_MINIMUM

Values = dict[str, str]


def _names(names: Any, lang: str) -> str:
    """Names joined, or the catalogue's word for nobody (never a ``-``)."""
    if not names:
        return t("fort.event.nobody", lang)
    return t("render.list_sep", lang).join(str(n) for n in names)


def _part(key: str, lang: str, when: Any, **values: Any) -> str:
    """The sentence part ``key`` when ``when`` holds, else nothing."""
    return t(key, lang, **values) if when else ""


def _listed(key: str, names: Any, lang: str) -> str:
    """The sentence part ``key`` naming ``names``, or nothing when there are none."""
    return _part(key, lang, names, names=_names(names, lang))


def _target(data: Mapping[str, Any], lang: str) -> str:
    """F-UNIT-4: what an area effect aimed at: a unit, a commander, or a point in an area."""
    if data.get("unit"):
        return str(data["unit"])
    if data.get("commander"):
        return t("fort.event.target_commander", lang, commander=data["commander"])
    return t("fort.event.target_point", lang)


def _element(data: Mapping[str, Any], lang: str) -> str:
    element = data.get("element")
    return _part("fort.event.element", lang, element, element=value_text(element, lang, "element"))


def _area_effect(data: Mapping[str, Any], lang: str) -> Values:
    """attack.area, cannon.fired, ballista.fired: the target, the element, and who a cap left out."""
    return {
        "target": _target(data, lang),
        "element": _element(data, lang),
        "hit": _names(data.get("hit_units" if "hit_units" in data else "hit"), lang),
        "characters": _listed("fort.event.characters", data.get("characters"), lang),
        "over": _listed("fort.event.over_cap", data.get("over_cap"), lang),
    }


def _ballista(data: Mapping[str, Any], lang: str) -> Values:
    values = _area_effect(data, lang)
    if not data.get("hit"):
        values["result"] = t("fort.event.ballista_missed", lang)
    else:
        values["result"] = t("fort.event.ballista_hit", lang, **values)
    values["bolt"] = _bolt(data, lang)
    return values


def _bolt(data: Mapping[str, Any], lang: str) -> str:
    """F-BAL-1: the bolt named at loading, or an ordinary one (any bolt but 〈竜牙の太矢〉)."""
    bolt = data.get("bolt")
    return t("fort.event.bolt", lang, bolt=bolt) if bolt else t("fort.event.bolt_plain", lang)


def _pierce(data: Mapping[str, Any], lang: str) -> Values:
    return {"element": _element(data, lang), "hit": _names(data.get("hit"), lang)}


def _character(data: Mapping[str, Any], lang: str) -> Values:
    """F-UNIT-4: a character caught (or a commander aimed at), with its damage and the half of it."""
    role = data.get("role")
    how = "fort.event.character_targeted" if data.get("targeted") else "fort.event.character_caught"
    command = CommandName("commander hp" if role == "commander" else "pc hp").text(lang)
    return {
        "how": t(how, lang, character=data.get("character")),
        "element": _element(data, lang),
        "command": command,
    }


def _moved(data: Mapping[str, Any], lang: str) -> Values:
    """F-UNIT-2, F-TRAP-3, F-UNIT-6: why a move ended early (and who stopped it)."""
    stopped = data.get("stopped")
    stop = t(f"fort.event.stopped.{stopped}", lang, blocker=data.get("blocker")) if stopped else ""
    extra = _part("fort.event.extra_m", lang, data.get("extra_m"), extra=data.get("extra_m"))
    return {"stop": stop, "extra": extra}


def _advanced(data: Mapping[str, Any], lang: str) -> Values:
    """F-TURN-2: the units that reached another area, and those that set out but stayed."""
    moved = data.get("units") or []
    stayed = data.get("stayed") or []
    if not moved and not stayed:
        return {"result": t("fort.event.advanced_none", lang)}
    parts = (
        [say("fort.event.advanced_moved", lang, moved=len(moved), names=_names(moved, lang))] if moved else []
    )
    if stayed:
        parts.append(t("fort.event.advanced_stayed", lang, names=_names(stayed, lang)))
    return {"result": t("fort.event.advanced_sep", lang).join(parts)}


def _damaged(data: Mapping[str, Any], lang: str) -> Values:
    """F-UNIT-15: what the unit's weakness added."""
    return {"weak": _part("fort.event.weakness", lang, data.get("weakness"), bonus=data.get("weakness"))}


def _unit_added(data: Mapping[str, Any], lang: str) -> Values:
    """Only what the unit has: strike, weakness, its position at F0 (a reinforcement's round is in its own
    sentence, ``unit.added.reinforcement``)."""
    place = str(data.get("area"))
    if data.get("position"):
        place = t("render.place", lang, area=place, position=value_text(data["position"], lang, "position"))
    extras = [
        _part("fort.event.strike", lang, data.get("strike"), strike=data.get("strike")),
        _part("fort.event.unit_weakness", lang, data.get("weakness"), weakness=data.get("weakness")),
        *(_part(f"fort.event.unit_{k}", lang, data.get(k) is not None, **{k: data.get(k)})
          for k in ("level", "accuracy", "evasion")),  # a monster sheet's
    ]  # fmt: skip
    return {"place": place, "extras": "".join(extras)}


def _commander_added(data: Mapping[str, Any], lang: str) -> Values:
    return {"horn_text": _part("fort.event.horn", lang, data.get("horn"), horn=data.get("horn"))}


def _repositioned(data: Mapping[str, Any], lang: str) -> Values:
    return {
        "from_position": value_text(data.get("from_position"), lang, "position"),
        "to_position": value_text(data.get("to_position"), lang, "position"),
    }


def _zoro(data: Mapping[str, Any], lang: str) -> str:
    """F-CAN-2: a rolled 2D6 check of 1ゾロ fails and one of 6ゾロ succeeds whatever its total, and the
    sentence says so (`` (1ゾロ: 自動的失敗)``); empty for any other roll or a check given as a number."""
    roll = data.get("roll")
    text = str(roll.get("text", "")) if isinstance(roll, Mapping) else ""
    pair = re.search(r"\[([16]),\1\]", text)
    if pair is None or not text.startswith("(2D6"):
        return ""
    return t("fort.event.zoro_fumble" if pair.group(1) == "1" else "fort.event.zoro_special", lang)


def _loaded(data: Mapping[str, Any], lang: str) -> Values:
    """F-CAN-2: a PC's strength check (1ゾロ and 6ゾロ named), or a soldier's two shells without one;
    the shells that fitted (never past 5 in the cannon), saying so when fewer than were loaded."""
    zoro = _zoro(data, lang)
    if data.get("check") is None:
        how = t("fort.event.loaded_by_soldier", lang, by=data.get("by"))
    else:
        how = t("fort.event.loaded_check", lang, check=data.get("check")) + zoro
    before, after, reached = data.get("before"), data.get("after"), data.get("reached")
    fitted = after - before if isinstance(after, int) and isinstance(before, int) else reached
    capped = ""
    if isinstance(reached, int) and isinstance(fitted, int) and fitted < reached:
        capped = say("fort.event.loaded_capped", lang, reached=reached, fitted=fitted)
    return {"how": how, "zoro": zoro, "fitted": str(fitted), "capped": capped}


def _repaired(data: Mapping[str, Any], lang: str) -> Values:
    """F-FORT-3: what the repair gained, saying so when the fort's maximum cut it (``+8(上限300)``)."""
    before, after, amount = data.get("before"), data.get("after"), data.get("amount")
    gained = after - before if isinstance(after, int) and isinstance(before, int) else amount
    capped = ""
    if isinstance(gained, int) and isinstance(amount, int) and gained < amount:
        capped = t("fort.event.repair_capped", lang, max_hp=after)
    return {"gained": str(gained), "capped": capped}


def _healed(data: Mapping[str, Any], lang: str) -> Values:
    """F-FORT-2: why a heal gained less than its +5: too small a heal, or the fort at its maximum."""
    amount, healed, after = data.get("amount"), data.get("healed"), data.get("after")
    why = ""
    if isinstance(amount, int) and amount < HEAL_MINIMUM:
        why = t("fort.event.heal_too_small", lang, minimum=HEAL_MINIMUM)
    elif isinstance(healed, int) and healed < HEAL_AMOUNT:
        why = t("fort.event.repair_capped", lang, max_hp=after)
    return {"why": why}


def _rammed(data: Mapping[str, Any], lang: str) -> Values:
    """F-TRAP: the ram by its type word and name, the word once when the name already says it."""
    unit, word = str(data.get("unit", "")), t("choice.type.ram", lang)
    return {
        "ram": unit if word.casefold() in unit.casefold() else t("fort.event.ram", lang, word=word, unit=unit)
    }


def _ballista_loaded(data: Mapping[str, Any], lang: str) -> Values:
    return {"bolt": _bolt(data, lang)}


def _pc_added(data: Mapping[str, Any], lang: str) -> Values:
    return {"hp_text": _part("fort.event.pc_hp", lang, data.get("hp") is not None, hp=data.get("hp"))}


def _gm_set(data: Mapping[str, Any], lang: str) -> Values:
    """A GM's override: values in the words of what was set (``position`` → 砦上部), nothing as "none"."""
    attr = str(data.get("target", "")).rsplit(".", 1)[-1]

    def shown(value: Any) -> str:
        return t("fort.event.nobody", lang) if value is None else value_text(value, lang, attr)

    return {
        "before": shown(data.get("before")),
        "after": shown(data.get("after")),
        "target": target_words(str(data.get("target", "")), lang),
    }


#: ``/gm set`` targets of the battle as a whole, by their path
_WHOLE = ("round", "rounds", "turn", "title", "fort.hp", "fort.max_hp", "ballista.loaded")


def target_words(target: str, lang: str) -> str:
    """A ``/gm set`` target as the table says it: ``round`` → ラウンド, ``unit.ゴブリン隊.hp`` →
    ゴブリン隊のHP, ``cannon.2.shells`` → 大砲2の砲弾; one without a phrase of its own as the GM types it
    (``unit.ゴブリン隊.destroyed`` → ゴブリン隊.撃破済み, ``bot.gm_targets``)."""
    if target in _WHOLE:
        return t(f"fort.target.{target}", lang)
    head, _, rest = target.partition(".")
    owner, _, attr = rest.rpartition(".")
    if head == "cannon" and attr == "shells" and owner:
        return t("fort.target.cannon_shells", lang, cannon=owner)
    key = f"fort.target.attr.{attr}"
    if head in ("unit", "pc", "commander") and owner and has(key, lang):
        return t("fort.target.of", lang, name=owner, attr=t(key, lang))
    return gm_targets.words(GM_TARGETS, target, lang)


def _outcome_set(data: Mapping[str, Any], lang: str) -> Values:
    """The GM's outcome after the end: in the words of outcomes; an absent one is left out."""
    return {
        name: value_text(data[name], lang, "outcome")
        for name in ("before", "after")
        if data.get(name) is not None
    }


def _round_summary(data: Mapping[str, Any], lang: str) -> Values:
    cannons = data.get("cannons") or []
    return {
        "units_on_map": _names(data.get("units_on_map"), lang),
        "cannons": t("render.list_sep", lang).join(str(c) for c in cannons) or t("fort.event.nobody", lang),
    }


def _place(area: Any, position: Any, lang: str) -> str:
    """``F0(砦上部)`` at F0, just ``A1`` elsewhere (a PC has a position only at F0)."""
    if not position:
        return str(area)
    return t("render.place", lang, area=area, position=value_text(position, lang, "position"))


def _pc_moved(data: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The places, and the metres the move counts: its distance plus a change of position at F0
    (F-MAP-6), which alone is a move of 0 m between areas."""
    parts = {
        "from_place": _place(data.get("from"), data.get("from_position"), lang),
        "to_place": _place(data.get("to"), data.get("to_position"), lang),
        "position_part": "",
    }
    distance, extra = data.get("distance"), data.get("extra_m")
    if isinstance(distance, int) and isinstance(extra, int) and extra:
        key = "pc.event.position_part" if distance else "pc.event.position_only"
        parts["position_part"] = t(key, lang, extra=extra)
        parts["distance"] = str(distance + extra)
    return parts


#: per event kind: its sentence's parts computed from its data
EVENT_VALUES: dict[str, Callable[[Mapping[str, Any], str], Values]] = {
    "attack.area": _area_effect,
    "cannon.fired": _area_effect,
    "ballista.fired": _ballista,
    "attack.pierce": _pierce,
    "attack.character": _character,
    "unit.moved": _moved,
    "unit.advanced": _advanced,
    "unit.damaged": _damaged,
    "unit.added": _unit_added,
    "unit.repositioned": _repositioned,
    "commander.added": _commander_added,
    "cannon.loaded": _loaded,
    "cannon.load_failed": _loaded,
    "fort.repaired": _repaired,
    "fort.healed": _healed,
    "trap.rammed": _rammed,
    "ballista.loaded": _ballista_loaded,
    "pc.added": _pc_added,
    "battle.gm_set": _gm_set,
    "battle.outcome_set": _outcome_set,
    "battle.round_summary": _round_summary,
    "pc.moved": _pc_moved,
    "pc.sheet_read": sheet_read_values,
}
