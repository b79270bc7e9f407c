"""The ordinary SW2.5 battle as text: the status screen (B-VIEW-1) and the words its event sentences share
(the values of ``bt.*`` event sentences are ``bot.rulesets.battle.events``'s).

``status`` reads the export document (``toride.battle/1``) as its reader may see it: for a player the
service has passed it through ``engine.battle.visibility.visible`` (a monster the party does not know
keeps its name, its parts' names and their rough states only, B-KNOW-1); the GM's holds every number,
and the screen marks what the table does not know. Numbers are shown with the effects applied (B-EFF-2).
Every word comes from the catalogues.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bot.i18n import t
from bot.i18n.words import say
from bot.render.status_parts import StatusPart, StatusParts
from bot.views import StatusView
from engine.battle.visibility import table_monster

Values = Mapping[str, Any]

#: B-EFF-2: the numbers an effect may change, in the order a row shows them
STATS = ("defense", "evasion", "hit", "damage")
_SIDES = ("pc", "enemy")
_ROUGH = ("unhurt", "light", "heavy", "dying")
_KINDS = ("physical", "magic", "fixed")
_ELEMENTS = (
    "fire",
    "water",
    "wind",
    "earth",
    "lightning",
    "energy",
    "impact",
    "cutting",
    "poison",
    "disease",
    "curse",
    "mind",
)


# --- words the event sentences and the status share ----------------------------------------------


def list_text(items: Any, lang: str) -> str:
    return t("render.list_sep", lang).join(str(n) for n in items or [])


def names_text(names: Any, lang: str) -> str:
    """Names as a list, or the catalogue's "no one"."""
    return list_text(names, lang) or t("bt.text.nobody", lang)


def signed(n: Any) -> str:
    """``+2``, ``−1`` (a minus sign, as the steps of a sum are written)."""
    value = int(n or 0)
    return f"+{value}" if value >= 0 else f"\u2212{-value}"


def side_text(side: Any, lang: str) -> str:
    return t(f"bt.text.side.{side}", lang) if side in _SIDES else str(side)


def rough_text(state: Any, lang: str) -> str:
    """B-KNOW-1: 無傷, 軽傷, 重傷, 瀕死."""
    return t(f"bt.text.rough.{state}", lang) if state in _ROUGH else str(state)


def kind_text(kind: Any, lang: str) -> str:
    """B-DMG-1: 物理ダメージ, 魔法ダメージ, 確定ダメージ."""
    return t(f"bt.text.kind.{kind}", lang) if kind in _KINDS else str(kind)


def element_text(element: Any, lang: str) -> str:
    """B-DMG-1: the element as a sentence part (nothing without one)."""
    if element is None or element == "":
        return ""
    word = t(f"bt.text.element.{element}", lang) if element in _ELEMENTS else str(element)
    return t("bt.text.element", lang, element=word)


def target_text(name: Any, part: Any, lang: str) -> str:
    """A character, or one part of a monster (``グリフォンの頭部``)."""
    return t("bt.text.target_part", lang, name=name, part=part) if part else str(name)


def by_text(by: Any, lang: str) -> str:
    """Who dealt (healed, made) it, as a sentence part (nothing when no one was named)."""
    return t("bt.text.by", lang, by=by) if by else ""


def mods_text(mods: Any, lang: str) -> str:
    """B-EFF-2: ``防護点+2 回避力−1`` (nothing without numbers)."""
    return " ".join(
        t("bt.text.mod", lang, stat=t(f"bt.text.stat.{m['stat']}", lang), delta=signed(m["delta"]))
        for m in mods or []
    )


def left_text(effect: Values, lang: str) -> str:
    """B-EFF-1: ``残り2ラウンド`` or ``戦闘終了まで``."""
    if effect.get("left") is None:
        return t("bt.text.until_end", lang)
    return say("bt.text.left", lang, left=effect["left"])


def duration_text(effect: Values, lang: str) -> str:
    """B-EFF-1: ``3ラウンド`` or ``戦闘終了まで``."""
    if effect.get("rounds") is None:
        return t("bt.text.until_end", lang)
    return say("bt.text.rounds", lang, rounds=effect["rounds"])


def effect_name(effect: Values, lang: str) -> str:
    """An effect and what it is on: ``ガルドの「プロテクション」``."""
    target = target_text(effect.get("target"), effect.get("part"), lang)
    return t("bt.text.effect_on", lang, name=effect.get("name"), target=target)


def none_text(value: Any, lang: str) -> str:
    """A value a sentence shows, or the catalogue's "none" (never ``None``)."""
    if value is None or value == "" or value == []:
        return t("bt.text.none", lang)
    if isinstance(value, bool):
        return t("render.yes" if value else "render.no", lang)
    if isinstance(value, list | tuple):
        return list_text(value, lang)
    return str(value)


def pool_text(label: str, value: Any, maximum: Any, lang: str) -> str:
    """``HP 12/18``."""
    return t("bt.text.pool", lang, label=label, value=value, max=maximum)


def number_text(stat: str, value: Any, lang: str, delta: int = 0) -> str:
    """``防護点 9``, with what the effects add (B-EFF-2): ``防護点 9(効果+1)``."""
    shown = t("bt.text.modded", lang, value=value, delta=signed(delta)) if delta else str(value)
    return t("bt.text.number", lang, label=t(f"bt.text.stat.{stat}", lang), value=shown)


def part_numbers(part: Values, lang: str, mods: Mapping[str, int] | None = None) -> list[str]:
    """A monster's part (or a one-part monster) as its numbers: HP, MP, 防護点, 命中力, 打撃点, 回避力;
    those it lacks (``—``) left out; with ``mods``, the effects applied (B-EFF-2)."""
    mods = mods or {}
    out = [pool_text("HP", part.get("hp"), part.get("max_hp"), lang)]
    if part.get("max_mp"):
        out.append(pool_text("MP", part.get("mp"), part.get("max_mp"), lang))
    defense = part.get("defense")
    if defense is not None:
        delta = mods.get("defense", 0)
        out.append(number_text("defense", max(0, int(defense) + delta), lang, delta))
    for stat in ("hit", "evasion"):
        value = part.get(stat)
        if value is not None:
            delta = mods.get(stat, 0)
            out.append(number_text(stat, int(value) + delta, lang, delta))
    if part.get("strike"):
        out.append(number_text("strike", part["strike"], lang))
    return out


def monster_numbers(m: Values, lang: str, weakness: bool = True) -> list[str]:
    """A monster's own numbers (B-CHAR-2): レベル, 知名度/弱点値, 弱点, 先制値, 移動速度, 抵抗力; those it
    lacks left out, the weakness only with ``weakness`` (B-KNOW-1)."""
    out = []
    if m.get("level") is not None:
        out.append(number_text("level", m["level"], lang))
    if m.get("reputation") is not None:
        out.append(
            t("bt.text.reputation", lang, reputation=m["reputation"], weakness_value=m.get("weakness_value"))
        )
    if weakness:
        out.append(t("bt.text.weakness", lang, weakness=none_text(m.get("weakness"), lang)))
    for stat in ("initiative", "move", "fortitude", "willpower"):
        if m.get(stat) is not None:
            out.append(number_text(stat, m[stat], lang))
    return out


def rough_parts(m: Values, lang: str) -> str:
    """B-KNOW-1: a monster as the table sees it without its numbers: ``軽傷``, or each part's state
    (``頭部 無傷・胴体 軽傷``, a destroyed part ``破壊``)."""
    parts = m.get("parts") or []
    states = []
    for p in parts:
        state = t("bt.text.destroyed", lang) if p.get("destroyed") and len(parts) > 1 else None
        state = state or rough_text(p.get("state"), lang)
        states.append(t("bt.text.part_state", lang, part=p["name"], state=state) if p.get("name") else state)
    return t("bt.text.part_sep", lang).join(states)


# --- the status screen -------------------------------------------------------------------------------


def _mods(doc: Values, name: Any, part: Any = None) -> dict[str, int]:
    """B-EFF-2: what the effects on ``name`` (an effect on a whole monster, or on ``part``) add."""
    out = dict.fromkeys(STATS, 0)
    for e in doc.get("effects") or []:
        if e.get("target") != name or (e.get("part") is not None and e.get("part") != part):
            continue
        for m in e.get("mods") or []:
            if m.get("stat") in out:
                out[m["stat"]] += int(m.get("delta") or 0)
    return out


def _marks(c: Values, doc: Values, lang: str, mods: Mapping[str, int]) -> str:
    marks = []
    if mods.get("damage"):
        marks.append(t("bt.status.mark.damage", lang, delta=signed(mods["damage"])))
    if doc.get("phase") == "setup" and c.get("initiative_total") is not None:
        marks.append(t("bt.status.mark.initiative", lang, total=c["initiative_total"]))
    if c.get("acted") and doc.get("phase") == "running":
        marks.append(t("bt.status.mark.acted", lang))
    if c.get("down"):
        marks.append(t("bt.status.mark.down", lang))
    return "".join(" " + m for m in marks)


def _pc_row(p: Values, doc: Values, lang: str) -> str:
    mods = _mods(doc, p.get("name"))
    numbers = [pool_text("HP", p.get("hp"), p.get("max_hp"), lang)]
    if p.get("max_mp"):
        numbers.append(pool_text("MP", p.get("mp"), p.get("max_mp"), lang))
    defense = int(p.get("defense") or 0)
    numbers.append(number_text("defense", max(0, defense + mods["defense"]), lang, mods["defense"]))
    evasion = int(p.get("evasion") or 0)
    numbers.append(number_text("evasion", evasion + mods["evasion"], lang, mods["evasion"]))
    if mods["hit"]:
        numbers.append(t("bt.status.mark.hit", lang, delta=signed(mods["hit"])))
    return t(
        "bt.status.row", lang, name=p.get("name"), numbers=" ".join(numbers), marks=_marks(p, doc, lang, mods)
    )


def _known(doc: Values, m: Values) -> Mapping[str, bool]:
    """B-KNOW-1: what the table knows of ``m`` (a player's document says; the GM's is read for it)."""
    known = m.get("known")
    if isinstance(known, Mapping):
        return known
    seen: Mapping[str, bool] = table_monster(doc, m)["known"]
    return seen


def _monster_rows(m: Values, doc: Values, lang: str, gm: bool) -> Iterator[str]:
    """A monster: its numbers (B-KNOW-1: once the table knows them; the GM always) with the effects
    applied, each part on a row of its own; or its name and rough state only."""
    known = _known(doc, m)
    whole = _mods(doc, m.get("name"))
    marks = _marks(m, doc, lang, whole)
    if gm and not known.get("numbers"):
        marks += " " + t("bt.status.mark.secret", lang)
    parts = m.get("parts") or []
    if not gm and not known.get("numbers"):
        yield t("bt.status.rough", lang, name=m.get("name"), state=rough_parts(m, lang), marks=marks)
        return
    if len(parts) == 1:
        numbers = part_numbers(parts[0], lang, whole)
        yield t("bt.status.row", lang, name=m.get("name"), numbers=" ".join(numbers), marks=marks)
        return
    yield t("bt.status.monster", lang, name=m.get("name"), marks=marks)
    for i, p in enumerate(parts):
        mods = _mods(doc, m.get("name"), p.get("name"))
        part_marks = "".join(
            " " + w
            for w in (
                t("bt.status.mark.damage", lang, delta=signed(mods["damage"])) if mods["damage"] else "",
                t("bt.status.mark.destroyed", lang) if p.get("destroyed") and i != m.get("core") else "",
            )
            if w
        )
        yield t(
            "bt.status.part",
            lang,
            part=p.get("name"),
            core=t("bt.status.core", lang) if i == m.get("core") else "",
            numbers=" ".join(part_numbers(p, lang, mods)),
            marks=part_marks,
        )


def _row_count(m: Values, doc: Values, gm: bool) -> int:
    """How many rows ``_monster_rows`` makes of ``m``."""
    parts = len(m.get("parts") or [])
    return 1 + parts if parts > 1 and (gm or _known(doc, m).get("numbers")) else 1


def _effect_row(e: Values, lang: str) -> str:
    mods = mods_text(e.get("mods"), lang)
    return t(
        "bt.status.effect",
        lang,
        id=e.get("id"),
        name=e.get("name"),
        target=target_text(e.get("target"), e.get("part"), lang),
        mods=" " + mods if mods else "",
        left=left_text(e, lang),
        by=t("bt.status.effect_by", lang, by=e["by"]) if e.get("by") else "",
        text=t("bt.status.effect_text", lang, text=e["text"]) if e.get("text") else "",
    )


def _lore_row(lore: Values, doc: Values, lang: str, gm: bool) -> str | None:
    """B-KNOW-1: what the party knows of a kind of monster: its best 魔物知識判定, what it reached, and
    the kind's numbers where they are seen (the GM: always, marked when the table lacks them)."""
    kin = [m for m in doc.get("monsters") or [] if (m.get("kind") or m.get("name")) == lore.get("kind")]
    if not kin:
        return None
    first = kin[0]
    known = _known(doc, first)
    if lore.get("best") is None:
        best = t("bt.status.lore_none", lang)
    elif lore.get("by"):
        best = t("bt.status.lore_best", lang, best=lore["best"], by=lore["by"])
    else:
        best = t("bt.status.lore_best.no_by", lang, best=lore["best"])
    reached = "numbers" if known.get("numbers") else "nothing"
    if known.get("weakness"):
        reached = "all" if known.get("numbers") else "weakness"
    numbers: list[str] = []
    if gm or known.get("numbers"):
        numbers = monster_numbers(first, lang, weakness=gm or bool(known.get("weakness")))
    if gm and first.get("hidden_stats"):
        numbers.append(t("bt.status.hidden_stats", lang))
    return t(
        "bt.status.lore",
        lang,
        kind=lore.get("kind"),
        best=best,
        known=t(f"bt.status.known.{reached}", lang),
        numbers=t("bt.status.lore_numbers", lang, numbers=list_text(numbers, lang)) if numbers else "",
    )


def _waiting(doc: Values, side: Any) -> list[str]:
    """B-INIT-2: who of ``side`` has not acted yet (those down are not waited for)."""
    group = doc.get("pcs") if side == "pc" else doc.get("monsters")
    return [str(c.get("name")) for c in group or [] if not c.get("acted") and not c.get("down")]


def _now(doc: Values, lang: str) -> list[str]:
    """B-INIT-1, B-INIT-2: before the turns, who acts first; during them, whose turn and who waits."""
    phase = doc.get("phase")
    if phase == "setup":
        first = doc.get("first")
        rolled = [p for p in doc.get("pcs") or [] if p.get("initiative_total") is not None]
        if first in _SIDES:
            line = t("bt.status.first_set", lang, side=side_text(first, lang))
        elif rolled:
            top = max(rolled, key=lambda p: int(p["initiative_total"]))
            line = t("bt.status.first_rolled", lang, best=top["initiative_total"], name=top.get("name"))
        else:
            line = t("bt.status.first_open", lang)
        return [line, t("bt.status.setup", lang)]
    if phase != "running":
        return []
    turn = doc.get("turn")
    waiting = _waiting(doc, turn)
    if waiting:
        return [t("bt.status.turn", lang, side=side_text(turn, lang), names=list_text(waiting, lang))]
    return [t("bt.status.turn_done", lang, side=side_text(turn, lang))]


def _header(doc: Values, lang: str) -> str:
    phase = doc.get("phase")
    if phase == "running":
        when = t("bt.status.round", lang, round=doc.get("round"), side=side_text(doc.get("turn"), lang))
    elif phase == "ended":
        when = t("bt.status.ended_round", lang, round=doc.get("round"))
    else:
        when = t("bt.status.before", lang)
    title = doc.get("title") or t("bt.status.untitled", lang)
    return t("bt.status.header", lang, title=title, when=when)


def _is_gm_view(doc: Values) -> bool:
    """The GM's document: its monsters carry their numbers whatever the table knows (a player's, as
    ``visible`` leaves it, says per monster what the table knows)."""
    return not any("known" in m for m in doc.get("monsters") or [])


def status_parts(view: StatusView, lang: str) -> StatusParts:
    """B-VIEW-1 as a screen: the round and whose turn, who has not acted, each side's characters with HP
    and MP (monsters as B-KNOW-1 allows), numbers with the effects applied (B-EFF-2), the effects with
    the rounds left, what the party knows of each kind of monster, the GMs."""
    doc = view.document
    gm = _is_gm_view(doc)
    head = [_header(doc, lang)]
    if doc.get("phase") == "ended" or view.ended:
        head.append(t("bt.status.ended", lang))
    else:
        head += _now(doc, lang)
    pcs = doc.get("pcs") or []
    monsters = doc.get("monsters") or []
    parts = [
        StatusPart(
            t("bt.status.pcs", lang, count=len(pcs)),
            (_pc_row(p, doc, lang) for p in pcs) if pcs else iter([t("bt.status.nobody", lang)]),
            max(1, len(pcs)),
        )
    ]
    rows = sum(_row_count(m, doc, gm) for m in monsters)
    parts.append(
        StatusPart(
            t("bt.status.monsters", lang, count=len(monsters)),
            (row for m in monsters for row in _monster_rows(m, doc, lang, gm))
            if monsters
            else iter([t("bt.status.nobody", lang)]),
            max(1, rows),
        )
    )
    effects = doc.get("effects") or []
    if effects:
        parts.append(
            StatusPart(t("bt.status.effects", lang), (_effect_row(e, lang) for e in effects), len(effects))
        )
    lore = [row for k in doc.get("knowledge") or [] if (row := _lore_row(k, doc, lang, gm)) is not None]
    if lore:
        parts.append(StatusPart(t("bt.status.knowledge", lang), iter(lore), len(lore)))
    tail = []
    if view.gms:
        tail.append(t("bt.status.gms", lang, gms=list_text(view.gms, lang)))
    return StatusParts(head, parts, tail)


def status(view: StatusView, lang: str) -> str:
    """The whole status screen as text (``status_parts`` joined)."""
    return status_parts(view, lang).text()
