"""The 千幻抄 battle as text: the turn's steps with a DP bar each (the values of ``sg.*`` event sentences
are ``bot.rulesets.sengensho.events``'s).

``status`` reads the export document (``toride.sengensho/1``) as its reader may see it (the service
leaves out what is hidden from them). Every word comes from the catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from bot.i18n import t
from bot.render.common import hp_bar
from bot.render.status_parts import StatusPart, StatusParts
from bot.views import StatusView

#: the width of a DP bar, in characters
BAR = 10

Values = Mapping[str, Any]


def dp_bar(dp: Any, dp_max: Any) -> str:
    return hp_bar(int(dp or 0), int(dp_max or 0), BAR)


def yes_text(flag: Any, key: str, lang: str, **values: Any) -> str:
    return t(key, lang, **values) if flag else ""


def names_text(names: Any, lang: str) -> str:
    return t("sg.text.tie_sep", lang).join(str(n) for n in names or [])


def list_text(items: Any, lang: str) -> str:
    return t("render.list_sep", lang).join(str(n) for n in items or [])


def flags_text(opening: Any, gm_fixed: Any, lang: str) -> str:
    """S-START-1, S-GM-1: how the battle opened and which GM dice are fixed (nothing for defaults)."""
    text = yes_text(opening in ("keep", "ambush"), f"sg.text.opening.{opening}", lang)
    return text + yes_text(gm_fixed in ("checks", "all"), f"sg.text.gm_fixed.{gm_fixed}", lang)


# --- the status screen -------------------------------------------------------------------------------


def _cards(c: Values, lang: str) -> str:
    cards = c.get("spell_cards") or []
    if not cards:
        return ""
    shown = [
        t("sg.status.card_used" if k.get("used") else "sg.status.card", lang, card=k["name"]) for k in cards
    ]
    return t("sg.status.mark.cards", lang, cards=list_text(shown, lang))


def _marks(c: Values, lang: str) -> str:
    marks = []
    hidden = c.get("hidden")
    if hidden:
        if hidden.get("total") is None:
            marks.append(t("sg.status.mark.hidden_unrolled", lang))
        else:
            marks.append(t("sg.status.mark.hidden", lang, total=hidden["total"]))
        if c.get("searched_by"):
            marks.append(t("sg.status.mark.searched", lang, names=list_text(c["searched_by"], lang)))
    if c.get("acted"):
        marks.append(t("sg.status.mark.acted", lang))
    if c.get("held_by"):
        marks.append(t("sg.status.mark.item", lang, holder=c["held_by"]))
        if c.get("exposed"):
            marks.append(t("sg.status.mark.exposed", lang))
    if c.get("unable"):
        marks.append(t("sg.status.mark.unable", lang))
    surprise = c.get("surprise")
    if surprise:
        evasion = t(f"sg.evasion.{surprise['evasion']}", lang, name=c["name"])
        case = t(f"sg.case.{surprise['case']}", lang)
        marks.append(t("sg.status.mark.surprise", lang, case=case, evasion=evasion))
    cards = _cards(c, lang)
    if cards:
        marks.append(cards)
    if c.get("down"):
        marks.append(t(f"sg.text.down.{c['down']}", lang))
    if c.get("note"):
        marks.append(t("sg.status.mark.note", lang, note=c["note"]))
    if c.get("clash"):  # S-HIDE-1: a player's character took its name while it hid
        marks.append(t("sg.status.mark.clash", lang, name=c["clash"]))
    return "".join(" " + m for m in marks)


def _row(c: Values, lang: str, initiative: Any) -> str:
    hp = "" if c.get("hp") is None else t("sg.status.hp", lang, hp=c["hp"], max_hp=c.get("max_hp"))
    return t(
        "sg.status.row",
        lang,
        initiative="--" if initiative is None else initiative,
        name=c["name"],
        side=t(f"sg.text.side.{c['side']}", lang),
        bar=dp_bar(c["dp"], c["dp_max"]),
        dp=c["dp"],
        dp_max=c["dp_max"],
        hp=hp,
        marks=_marks(c, lang),
    )


def _now(doc: Values, ordered: list[Values], lang: str) -> str:
    """S-CORE-3: the value now acting and who acts there; once all there acted, whose step is next."""
    step = doc.get("step")
    here = [c for c in ordered if c.get("declared") == step]
    if step is not None and any(not c.get("acted") for c in here):
        return t("sg.status.now", lang, dp=step, names=names_text([c["name"] for c in here], lang))
    later = [c for c in ordered if not c.get("acted") and (step is None or int(c["declared"]) < int(step))]
    if not later:
        return t("sg.status.all_acted", lang, next=int(doc.get("turn") or 0) + 1)
    value = max(int(c["declared"]) for c in later)
    names = [c["name"] for c in later if c["declared"] == value]
    return t("sg.status.next", lang, dp=value, names=names_text(names, lang))


def _card_lines(doc: Values, lang: str) -> list[str]:
    """S-CARD-1: each side's cards and how many remain; a warning when the counts differ."""
    cards = doc.get("spell_cards") or {}
    unused = cards.get("unused") or {}
    allowance = cards.get("allowance") or {}
    pc, enemy = int(cards.get("pc") or 0), int(cards.get("enemy") or 0)
    lines = [
        t(
            "sg.status.cards",
            lang,
            pc=pc,
            enemy=enemy,
            pc_unused=unused.get("pc", pc),
            enemy_unused=unused.get("enemy", enemy),
            pc_allowance=allowance.get("pc", 0),
            enemy_allowance=allowance.get("enemy", 0),
        )
    ]
    if pc != enemy:
        lines.append(t("sg.status.cards_unbalanced", lang, pc=pc, enemy=enemy))
    return lines


def _rows(characters: list[Values], lang: str, initiative: Callable[[Values, Any], Any]) -> Iterator[str]:
    previous = None
    for c in characters:
        yield _row(c, lang, initiative(c, previous))
        previous = c.get("declared")


def _awaited_lines(doc: Values, lang: str) -> list[str]:
    """``/sg attack``: whose answer (or, at 0 HP, whose mercy) each attack waits for."""
    return [
        t(
            "sg.text.awaiting_line" if x.get("mercy") is None else "sg.text.awaiting_mercy",
            lang,
            number=x["number"],
            attacker=x["attacker"],
            name=x["defender"] if x.get("mercy") is None else x["aim"],
            total=x["total"],
            amount=x.get("mercy"),
        )
        for x in doc.get("exchanges") or []
    ]


def status_parts(view: StatusView, lang: str) -> StatusParts:
    """S-CORE-3 as a screen: the step now acting, then who acts when (highest declared DP first,
    ties together) with DP bars; the hidden (only in a GM's or owner's view, S-HIDE-1); spell cards."""
    doc = view.document
    turn = doc.get("turn") or 0
    head = [
        t(
            "sg.status.header",
            lang,
            title=doc.get("title") or t("sg.status.untitled", lang),
            turn=turn if turn else t("sg.status.before_turns", lang),
            flags=flags_text(doc.get("opening"), doc.get("gm_fixed"), lang),
        )
    ]
    if doc.get("ended") or view.ended:
        head.append(t("sg.status.ended", lang))
    characters = doc.get("characters") or []
    acting = [c for c in characters if not c.get("down") and not c.get("hidden")]
    ordered = sorted(
        (c for c in acting if c.get("declared") is not None), key=lambda c: -int(c["declared"])
    )  # sorted() is stable: ties stay in join order
    waiting = [c for c in acting if c.get("declared") is None]
    parts = []
    if ordered:
        if turn and not (doc.get("ended") or view.ended):
            head.append(_now(doc, ordered, lang))
        tie = t("sg.status.tie", lang)

        def initiative(c: Values, previous: Any) -> Any:
            return tie if c["declared"] == previous else c["declared"]

        parts.append(StatusPart(t("sg.status.order", lang), _rows(ordered, lang, initiative), len(ordered)))
    if waiting:
        parts.append(
            StatusPart(t("sg.status.waiting", lang), _rows(waiting, lang, lambda c, p: None), len(waiting))
        )
    hidden = [c for c in characters if c.get("hidden") and not c.get("down")]
    if hidden:
        rows = _rows(hidden, lang, lambda c, p: c.get("declared"))
        parts.append(StatusPart(t("sg.status.hidden", lang), rows, len(hidden)))
    down = [c for c in characters if c.get("down")]
    if down:
        parts.append(StatusPart(t("sg.status.down", lang), _rows(down, lang, lambda c, p: None), len(down)))
    tail = _card_lines(doc, lang)
    awaited = _awaited_lines(doc, lang)
    if awaited:
        parts.insert(0, StatusPart(t("sg.text.awaiting", lang), iter(awaited), len(awaited)))
    if view.gms:
        tail.append(t("sg.status.gms", lang, gms=t("render.list_sep", lang).join(view.gms)))
    return StatusParts(head, parts, tail)


def status(view: StatusView, lang: str) -> str:
    """The whole status screen as text (``status_parts`` joined)."""
    return status_parts(view, lang).text()
