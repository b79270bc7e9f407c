"""The values of ``bt.*`` event sentences (``EVENT_VALUES``, the ordinary battle's
``RuleSet.text.event_values``): an event's data as the pieces its catalogue sentence shows (each step
of a hit's arithmetic, B-DMG-2; the effects that ended as a turn began, B-EFF-1; what a 魔物知識判定
taught, B-KNOW-1), for the console and Discord alike. A value the data may lack (no dealer, no element,
a part not named, a side not yet decided) becomes words or nothing here, never ``None``. Every word
comes from the catalogues."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot import gm_targets
from bot.i18n import t
from bot.i18n.words import say
from bot.rulesets.battle.gm_targets import TARGETS
from bot.rulesets.battle.text import (
    Values,
    by_text,
    duration_text,
    effect_name,
    element_text,
    kind_text,
    left_text,
    list_text,
    mods_text,
    monster_numbers,
    names_text,
    none_text,
    part_numbers,
    rough_parts,
    rough_text,
    side_text,
    signed,
    target_text,
)


def _v(d: Values, field: str, lang: str) -> str:
    """A field's value in a sentence part, the catalogue's "none" where the data has none."""
    return none_text(d.get(field), lang)


def _target(d: Values, lang: str) -> str:
    return target_text(d.get("target"), d.get("part"), lang)


def amount_text(d: Values, lang: str) -> str:
    """B-DMG-1: the amount, and the expression it was rolled from (its 1ゾロ or クリティカル said)."""
    roll = d.get("roll")
    if not isinstance(roll, Mapping):
        return str(d.get("amount"))
    how = "fumble" if roll.get("fumble") else "critical" if roll.get("critical") else "rolled"
    return t(f"bt.text.amount.{how}", lang, amount=d.get("amount"), command=roll.get("command"))


def steps_text(d: Values, lang: str) -> str:
    """B-DMG-2, each step of one hit: the amount, + the effects' ダメージ, + the weakness, − 防護点
    (物理), = what gets through, then halved (rounded up) or nullified by the resistance."""
    text = amount_text(d, lang)
    changed = False
    if d.get("mod"):
        text += t("bt.text.step.mod", lang, mod=signed(d["mod"]))
        changed = True
    if d.get("weakness"):
        text += t("bt.text.step.weakness", lang, weakness=signed(d["weakness"]))
        changed = True
    if d.get("defense"):
        text += t("bt.text.step.defense", lang, defense=d["defense"])
        changed = True
    if changed:
        text += t("bt.text.step.total", lang, total=d.get("after_defense"))
    if d.get("resisted") in ("half", "none"):
        text += t(f"bt.text.step.{d['resisted']}", lang, halved=d.get("halved"))
    return text


def _hit(d: Values, lang: str) -> dict[str, str]:
    """What a hit's sentence and its rough one share: the target, the kind and element, the dealer."""
    return {
        "target_text": _target(d, lang),
        "kind_text": kind_text(d.get("kind"), lang),
        "element_text": element_text(d.get("element"), lang),
        "by_text": by_text(d.get("by"), lang),
    }


def _change(before: Any, after: Any, lang: str) -> str:
    """B-KNOW-1: a rough state before and after (``無傷 → 軽傷``, ``無傷のまま``)."""
    if before == after:
        return t("bt.text.rough_same", lang, state=rough_text(after, lang))
    return t("bt.text.rough_change", lang, before=rough_text(before, lang), after=rough_text(after, lang))


def _damaged(d: Values, lang: str) -> dict[str, str]:
    return {**_hit(d, lang), "steps_text": steps_text(d, lang)}


def _damaged_rough(d: Values, lang: str) -> dict[str, str]:
    resisted = d.get("resisted")
    return {
        **_hit(d, lang),
        "resisted_text": t(f"bt.text.resisted.{resisted}", lang) if resisted in ("half", "none") else "",
        "state_text": _change(d.get("before"), d.get("after"), lang),
    }


def _healed(d: Values, lang: str) -> dict[str, str]:
    capped = int(d.get("gained") or 0) < int(d.get("amount") or 0)
    return {
        "target_text": _target(d, lang),
        "by_text": by_text(d.get("by"), lang),
        "amount_text": amount_text(d, lang),
        "capped_text": t("bt.text.capped", lang) if capped else "",
    }


def _healed_rough(d: Values, lang: str) -> dict[str, str]:
    return {
        "target_text": _target(d, lang),
        "by_text": by_text(d.get("by"), lang),
        "state_text": _change(d.get("before"), d.get("after"), lang),
    }


def _started(d: Values, lang: str) -> dict[str, str]:
    first = d.get("first")
    if first in ("pc", "enemy"):
        return {"first_text": t("bt.text.first_set", lang, side=side_text(first, lang))}
    return {"first_text": t("bt.text.first_open", lang)}


def _pc_added(d: Values, lang: str) -> dict[str, str]:
    source = [t("bt.text.from_sheet", lang)] if d.get("sheet") else []
    if d.get("palette"):
        source.append(t("bt.text.has_palette", lang))
    return {"source_text": "".join(source)}


def _parts(parts: Any, lang: str) -> str:
    named = [str(p) for p in parts or [] if p]
    return t("bt.text.parts", lang, parts=list_text(named, lang)) if named else ""


def _monster_added(d: Values, lang: str) -> dict[str, str]:
    return {
        "names_text": names_text(d.get("names"), lang),
        "parts_text": _parts(d.get("parts"), lang),
        "known_text": t("bt.text.known" if d.get("known") else "bt.text.unknown", lang),
    }


def _monster_stats(d: Values, lang: str) -> dict[str, str]:
    """B-CHAR-2: a monster's numbers (those it lacks left out) and each part's."""
    parts = d.get("parts") or []
    if len(parts) == 1:
        parts_text = t("bt.text.stats_part", lang, numbers=" ".join(part_numbers(parts[0], lang)))
    else:
        shown = [
            t(
                "bt.text.stats_named_part",
                lang,
                part=p.get("name"),
                core=t("bt.status.core", lang) if i == d.get("core") else "",
                numbers=" ".join(part_numbers(p, lang)),
            )
            for i, p in enumerate(parts)
        ]
        parts_text = t("bt.text.stats_parts", lang, parts=t("bt.text.part_sep", lang).join(shown))
    names = [str(n) for n in d.get("names") or [] if n != d.get("kind")]
    return {
        "names_text": t("bt.text.names", lang, names=list_text(names, lang)) if names else "",
        "stats_text": list_text(monster_numbers(d, lang), lang),
        "parts_text": parts_text,
        "hidden_text": t("bt.text.hidden_stats", lang) if d.get("hidden_stats") else "",
    }


def _weakness(d: Values, lang: str) -> str:
    return none_text(d.get("weakness_text"), lang)


def _knowledge(d: Values, lang: str) -> dict[str, str]:
    """B-KNOW-1: what this 魔物知識判定 taught the party, or what it still lacks."""
    learned = d.get("learned") or []
    said = []
    if "numbers" in learned:
        said.append(t("bt.text.lore.numbers", lang, reputation=_v(d, "reputation", lang)))
    if "weakness" in learned:
        said.append(
            t(
                "bt.text.lore.weakness",
                lang,
                weakness_value=_v(d, "weakness_value", lang),
                weakness=_weakness(d, lang),
            )
        )
    if not learned:
        if d.get("numbers") and d.get("weakness"):
            said.append(t("bt.text.lore.known", lang))
        elif d.get("numbers"):
            said.append(
                t("bt.text.lore.short_of_weakness", lang, weakness_value=_v(d, "weakness_value", lang))
            )
        else:
            said.append(t("bt.text.lore.nothing", lang))
    best = d.get("best")
    if best is not None and best != d.get("total"):
        said.append(t("bt.text.lore.best", lang, best=best))
    return {"result_text": "".join(said)}


def _revealed(d: Values, lang: str) -> dict[str, str]:
    """B-KNOW-1, B-KNOW-2: what the table knows of the kind now."""
    numbers, weakness = bool(d.get("numbers")), bool(d.get("weakness"))
    which = "all" if numbers and weakness else "numbers" if numbers else "weakness" if weakness else "nothing"
    values = {"reputation": _v(d, "reputation", lang), "weakness_value": _v(d, "weakness_value", lang)}
    return {"known_text": t(f"bt.text.revealed.{which}", lang, **values, weakness=_weakness(d, lang))}


def _first_decided(d: Values, lang: str) -> dict[str, str]:
    """B-INIT-1: the GM's choice, or the 先制判定 against the highest 先制値 (its number unsaid while the
    table does not know that monster)."""
    how = d.get("how")
    first = d.get("first")
    if how == "gm":
        how_text = t("bt.text.decided.gm", lang)
    elif how == "initiative" and d.get("enemy_best") is not None:
        how_text = t(
            "bt.text.decided.initiative",
            lang,
            pc_best=_v(d, "pc_best", lang),
            pc_name=_v(d, "pc_name", lang),
            enemy_best=d["enemy_best"],
            enemy_name=_v(d, "enemy_name", lang),
        )
    elif how == "initiative":
        reached = t("bt.text.decided.reached" if first == "pc" else "bt.text.decided.short", lang)
        how_text = t(
            "bt.text.decided.unknown",
            lang,
            pc_best=_v(d, "pc_best", lang),
            pc_name=_v(d, "pc_name", lang),
            enemy_name=_v(d, "enemy_name", lang),
            reached=reached,
        )
    else:
        how_text = t("bt.text.decided.no_monsters", lang)
    return {"how_text": how_text, "first_text": side_text(first, lang)}


def _turn_started(d: Values, lang: str) -> dict[str, str]:
    """B-INIT-2, B-EFF-1: the turn's first line: the effects that ended as it began, who may act."""
    ended = [effect_name(e, lang) for e in d.get("ended") or []]
    return {
        "side_text": side_text(d.get("side"), lang),
        "ended_text": t("bt.text.effects_ended", lang, effects=list_text(ended, lang)) if ended else "",
        "to_act_text": names_text(d.get("to_act"), lang),
    }


def _not_acted(names: Any, lang: str) -> str:
    return t("bt.text.not_acted", lang, names=list_text(names, lang)) if names else ""


def _acted(d: Values, lang: str) -> dict[str, str]:
    if not d.get("acted"):
        return {"acted_text": t("bt.text.acted_undone", lang, name=d.get("name"))}
    return {"acted_text": t("bt.text.acted", lang, name=d.get("name")) + _not_acted(d.get("not_acted"), lang)}


def _mp(d: Values, lang: str) -> dict[str, str]:
    delta = int(d.get("delta") or 0)
    if delta < 0:
        change = t("bt.text.mp_spent", lang, amount=-delta)
    else:
        change = t("bt.text.mp_restored", lang, amount=delta)
        if d.get("capped"):
            change += t("bt.text.mp_capped", lang)
    return {"who_text": target_text(d.get("name"), d.get("part"), lang), "change_text": change}


def _effect(d: Values, lang: str) -> dict[str, str]:
    return {"target_text": _target(d, lang)}


def _effect_added(d: Values, lang: str) -> dict[str, str]:
    """B-EFF-1, B-EFF-2: its duration, the numbers it changes, who made it, its text."""
    details = [duration_text(d, lang)]
    mods = mods_text(d.get("mods"), lang)
    if mods:
        details.append(mods)
    if d.get("by"):
        details.append(t("bt.text.made_by", lang, by=d["by"]))
    return {
        **_effect(d, lang),
        "details_text": list_text(details, lang),
        "text_text": t("bt.text.effect_text", lang, text=d["text"]) if d.get("text") else "",
        "replaced_text": t("bt.text.replaced", lang) if d.get("replaced") is not None else "",
    }


def _effect_extended(d: Values, lang: str) -> dict[str, str]:
    delta = int(d.get("delta") or 0)
    key = "bt.text.extended" if delta > 0 else "bt.text.shortened"
    return {
        **_effect(d, lang),
        "change_text": say(key, lang, rounds=abs(delta)),
        "left_text": left_text(d, lang),
    }


def _gm_set(d: Values, lang: str) -> dict[str, str]:
    """A GM's change: its target as the reader types it (``ガルド.HP``), an empty value the catalogue's
    "none"."""
    return {
        "target": gm_targets.words(TARGETS, str(d.get("target", "")), lang),
        "before": none_text(d.get("before"), lang),
        "value": none_text(d.get("value"), lang),
    }


def _ended(d: Values, lang: str) -> dict[str, str]:
    """B-VIEW-1: each side as the table sees it at the end (PCs' HP, monsters' rough states)."""
    pcs = [
        t(
            "bt.text.final_pc_down" if p.get("down") else "bt.text.final_pc",
            lang,
            name=p.get("name"),
            hp=p.get("hp"),
            max_hp=p.get("max_hp"),
        )
        for p in d.get("pcs") or []
    ]
    monsters = [
        t("bt.text.final_monster", lang, name=m.get("name"), state=t("bt.text.final_down", lang))
        if m.get("down")
        else t("bt.text.final_monster", lang, name=m.get("name"), state=rough_parts(m, lang))
        for m in d.get("monsters") or []
    ]
    round_ = int(d.get("round") or 0)
    return {
        "round_text": t("bt.text.final_round", lang, round=round_)
        if round_
        else t("bt.text.final_setup", lang),
        "pcs_text": t("bt.text.final_pcs", lang, pcs=list_text(pcs, lang)) if pcs else "",
        "monsters_text": t("bt.text.final_monsters", lang, monsters=list_text(monsters, lang))
        if monsters
        else "",
    }


#: per event kind: its sentence's parts computed from its data
EVENT_VALUES: dict[str, Callable[[Values, str], dict[str, str]]] = {
    "bt.started": _started,
    "bt.pc_added": _pc_added,
    "bt.monster_added": _monster_added,
    "bt.monster_stats": _monster_stats,
    "bt.knowledge": _knowledge,
    "bt.revealed": _revealed,
    "bt.first_decided": _first_decided,
    "bt.turn_started": _turn_started,
    "bt.turn_ended": lambda d, lang: {
        "side_text": side_text(d.get("side"), lang),
        "not_acted_text": _not_acted(d.get("not_acted"), lang),
    },
    "bt.side_done": lambda d, lang: {"side_text": side_text(d.get("side"), lang)},
    "bt.acted": _acted,
    "bt.damaged": _damaged,
    "bt.damaged_rough": _damaged_rough,
    "bt.healed": _healed,
    "bt.healed_rough": _healed_rough,
    "bt.part_destroyed": lambda d, lang: {
        "down_text": "" if d.get("monster_down") else t("bt.text.still_standing", lang, name=d.get("name"))
    },
    "bt.mp": _mp,
    "bt.effect_added": _effect_added,
    "bt.effect_ended": _effect,
    "bt.effect_extended": _effect_extended,
    "bt.gm_set": _gm_set,
    "bt.ended": _ended,
}
