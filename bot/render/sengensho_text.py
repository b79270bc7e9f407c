"""The 千幻抄 battle as text: the turn's steps with a DP bar each, and the values of ``sg.*`` event sentences.

``status`` reads the export document (``toride.sengensho/1``) as its reader may see it (the service
leaves out what is hidden from them); ``EVENT_VALUES`` turns an event's data into the pieces its
catalogue sentence shows (dice paid and DP left, the order, the surprise case), for the console and
Discord alike. Every word comes from the catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.render.common import EVENT_VALUES, hp_bar, value_text
from bot.views import StatusView

#: the width of a DP bar, in characters
BAR = 10

Values = Mapping[str, Any]


def dp_bar(dp: Any, dp_max: Any) -> str:
    return hp_bar(int(dp or 0), int(dp_max or 0), BAR)


def _yes(flag: Any, key: str, lang: str, **values: Any) -> str:
    return t(key, lang, **values) if flag else ""


def _names(names: Any, lang: str) -> str:
    return t("sg.text.tie_sep", lang).join(str(n) for n in names or [])


def _list(items: Any, lang: str) -> str:
    return t("render.list_sep", lang).join(str(n) for n in items or [])


def _flags(opening: Any, gm_fixed: Any, lang: str) -> str:
    """S-START-1, S-GM-1: how the battle opened and which GM dice are fixed (nothing for defaults)."""
    text = _yes(opening in ("keep", "ambush"), f"sg.text.opening.{opening}", lang)
    return text + _yes(gm_fixed in ("checks", "all"), f"sg.text.gm_fixed.{gm_fixed}", lang)


# --- event values -------------------------------------------------------------------------------


def _order(order: Any, lang: str) -> str:
    steps = [
        t("sg.text.order_step", lang, names=_names(step["names"], lang), dp=step["dp"])
        for step in order or []
    ]
    return t("sg.text.order_sep", lang).join(steps) or t("sg.text.nobody", lang)


def _throw(d: Values, lang: str) -> dict[str, str]:
    """Dice paid and DP left, shared by rolls, hiding and searching."""
    if not d["dice"]:  # S-CORE-4: 0D, the base alone
        dice = t("sg.text.no_dice", lang)
    elif d.get("fixed"):
        dice = t("sg.text.dice_fixed", lang, count=d["dice"], sum=d["dice_total"])
    else:
        dice = t("sg.text.dice", lang, count=d["dice"], values=",".join(str(v) for v in d["values"]))
    paid = t("sg.text.paid", lang, paid=d["paid"]) if d["paid"] else t("sg.text.free", lang)
    return {
        "dice_text": dice,
        "paid_text": paid,
        "bar": dp_bar(d["dp"], d["dp_max"]),
        "out_of_step_text": _out_of_step(d.get("out_of_step"), lang),
    }


def _out_of_step(mark: Any, lang: str) -> str:
    """S-CORE-3: the GM's roll out of step says whose step it was."""
    if not mark:
        return ""
    if mark.get("dp") is None:
        return t("sg.text.out_of_step_done", lang)
    return t("sg.text.out_of_step", lang, dp=mark["dp"], names=_names(mark.get("names"), lang))


def _rolled(d: Values, lang: str) -> dict[str, str]:
    result = ""
    if d.get("target") is not None:
        outcome = t("sg.text.success" if d["success"] else "sg.text.failure", lang)
        result += t("sg.text.vs_target", lang, target=d["target"], outcome=outcome)
    if d.get("against") is not None:
        outcome = t("sg.text.won" if d["won"] else "sg.text.lost", lang)
        result += t("sg.text.vs", lang, against=d["against"], total=d["against_total"], outcome=outcome)
    modifier = d.get("modifier") or 0
    return {
        **_throw(d, lang),
        "label_text": _yes(d.get("label"), "sg.text.label", lang, label=d.get("label")),
        "kind_text": t(f"sg.text.kind.{d['kind']}", lang),
        "check_text": _yes(d.get("check"), "sg.text.check", lang, check=d.get("check")),
        "aim_text": _yes(d.get("aim"), "sg.text.aim", lang, aim=d.get("aim")),
        "modifier_text": t("sg.text.modifier", lang, modifier=modifier, rule=d.get("surprise"))
        if modifier
        else "",
        "result_text": result,
    }


def _joined(d: Values, lang: str) -> dict[str, str]:
    attributes = d.get("attributes")
    skills = d.get("skills") or {}
    late = ""
    if d.get("reinforcement"):
        key = "sg.text.reinforcement_capped" if d.get("capped") else "sg.text.reinforcement"
        late = t(key, lang, recovery=d["recovery"], dp=d["dp"], dp_max=d["dp_max"])
        if d.get("initiative") is not None:
            late += t("sg.text.joins_at", lang, initiative=d["initiative"])
    return {
        "side_text": t(f"sg.text.side.{d['side']}", lang),
        "hp_text": str(d["hp"]) if d.get("hp") is not None else t("sg.text.hp_untracked", lang),
        "attributes_text": t("sg.text.attributes", lang, **attributes) if attributes else "",
        "skills_text": _yes(
            skills, "sg.text.skills", lang, skills=" ".join(f"{k}{v}" for k, v in skills.items())
        ),
        "reinforcement_text": late,
        "hidden_text": _yes(d.get("hidden"), "sg.text.joined_hidden", lang),
    }


def _recovery(r: Values, lang: str) -> str:
    if r["reason"] in ("recovery", "start"):
        return t("sg.text.recovered", lang, name=r["name"], before=r["before"], after=r["after"])
    reason = t(f"sg.text.reason.{r['reason']}", lang)
    return t("sg.text.not_recovered", lang, name=r["name"], dp=r["after"], reason=reason)


def _turn(d: Values, lang: str) -> dict[str, str]:
    lines = [_recovery(r, lang) for r in d.get("recovered") or []]
    return {
        "recovered_text": t("render.list_sep", lang).join(lines) or t("sg.text.nobody", lang),
        "order_text": _order(d["order"], lang),
    }


def _hidden_turn(d: Values, lang: str) -> dict[str, str]:
    """S-HIDE-1: a hidden character's recovery and the contests due against it (the GM's to read)."""
    searchers = d.get("searchers") or []
    return {
        "recovered_text": _recovery(d, lang),
        "total_text": t("sg.text.stealth", lang, total=d["total"])
        if d.get("total") is not None
        else t("sg.text.stealth_not_rolled", lang),
        "searchers_text": _list(searchers, lang) if searchers else t("sg.text.no_searchers", lang),
    }


def _step(d: Values, lang: str) -> dict[str, str]:
    skipped = d.get("skipped") or []
    return {
        "names_text": _names(d.get("names"), lang),
        "by_text": t(f"sg.text.step_by.{d['by']}", lang),
        "skipped_text": _yes(skipped, "sg.text.skipped", lang, names=_names(skipped, lang)),
    }


def _surprise(d: Values, lang: str) -> dict[str, str]:
    defender = d.get("defender")
    return {
        "case_text": t(f"sg.case.{d['case']}", lang),
        "evasion_text": t(f"sg.evasion.{d.get('evasion') or 'none'}", lang, name=defender),
        "cap_text": _yes(d.get("attacker_cap"), "sg.text.attacker_cap", lang, attacker=d["attacker"]),
        "same_text": _yes(d.get("same_initiative"), "sg.text.same_initiative", lang),
        "defender_text": _yes(defender != d["target"], "sg.text.defender", lang, defender=defender),
    }


def _ended(d: Values, lang: str) -> dict[str, str]:
    rows = [
        t(
            "sg.text.final_character",
            lang,
            name=c["name"],
            hp=t("sg.text.hp", lang, hp=c["hp"]) if c.get("hp") is not None else "",
            dp=c["dp"],
            down=t(f"sg.text.down.{c['down']}", lang) if c.get("down") else "",
        )
        for c in d.get("characters") or []
    ]
    return {"characters_text": t("render.list_sep", lang).join(rows) or t("sg.text.nobody", lang)}


def _set(d: Values, lang: str) -> dict[str, str]:
    """A GM change: an empty value reads as the catalogue's "none"."""

    def shown(value: Any) -> str:
        return t("sg.text.none", lang) if value in (None, [], "") else value_text(value, lang)

    return {"before": shown(d.get("before")), "value": shown(d.get("value"))}


_VALUES: dict[str, Callable[[Values, str], dict[str, str]]] = {
    "sg.started": lambda d, lang: {"flags": _flags(d.get("opening"), d.get("gm_fixed"), lang)},
    "sg.joined": _joined,
    "sg.turn_started": _turn,
    "sg.hidden_turn": _hidden_turn,
    "sg.step": _step,
    "sg.declared": lambda d, lang: {"order_text": _order(d["order"], lang)},
    "sg.rolled": _rolled,
    "sg.hidden": lambda d, lang: {
        **_throw(d, lang),
        "moved_text": _yes(d.get("moved"), "sg.text.moved", lang),
    },
    "sg.search_rolled": _throw,
    "sg.searched": lambda d, lang: {
        "found_text": t("sg.text.found" if d["found"] else "sg.text.not_found", lang)
    },
    "sg.revealed": lambda d, lang: {
        "reason_text": t(f"sg.text.revealed.{d['reason']}", lang, by=d.get("by")),
        "cards_text": _yes(d.get("cards_entry"), "sg.text.cards_entry", lang),
    },
    "sg.surprise": _surprise,
    "sg.surprise_ability": lambda d, lang: {
        "noticed_text": t("sg.text.noticed" if d["noticed"] else "sg.text.not_noticed", lang)
    },
    "sg.damaged": lambda d, lang: {
        "via_text": t(f"sg.text.via.{d['via']}", lang),
        "max_hp": str(d["max_hp"]) if d.get("max_hp") is not None else str(d["hp"]),
        "bar": dp_bar(d["hp"], d.get("max_hp")),
    },
    "sg.knocked_out": lambda d, lang: {"mercy_text": t(f"sg.text.mercy.{d['mercy']}", lang)},
    "sg.item_exposed": lambda d, lang: {
        "reason_text": t(f"sg.text.exposed.{d['reason']}", lang, by=d.get("by"))
    },
    "sg.unable_set": lambda d, lang: {
        "unable_text": t("sg.text.unable" if d["unable"] else "sg.text.able", lang)
    },
    "sg.cards_declared": lambda d, lang: {
        "cards_text": _list(d.get("cards"), lang),
        "answer_text": _yes(
            d.get("answer"),
            "sg.text.answer",
            lang,
            side=t(f"sg.text.side.{d['other_side']}", lang),
            answer=d.get("answer"),
        ),
    },
    "sg.gm_set": _set,
    "sg.resisted_unseen": lambda d, lang: {
        "won_text": t("sg.text.resisted" if d["won"] else "sg.text.not_resisted", lang)
    },
    "sg.resisted_caster": lambda d, lang: {
        "won_text": t("sg.text.resisted" if d["won"] else "sg.text.not_resisted", lang)
    },
    "sg.ended": _ended,
}
EVENT_VALUES.update(_VALUES)


# --- the status screen -------------------------------------------------------------------------------


def _cards(c: Values, lang: str) -> str:
    cards = c.get("spell_cards") or []
    if not cards:
        return ""
    shown = [
        t("sg.status.card_used" if k.get("used") else "sg.status.card", lang, card=k["name"]) for k in cards
    ]
    return t("sg.status.mark.cards", lang, cards=_list(shown, lang))


def _marks(c: Values, lang: str) -> str:
    marks = []
    hidden = c.get("hidden")
    if hidden:
        if hidden.get("total") is None:
            marks.append(t("sg.status.mark.hidden_unrolled", lang))
        else:
            marks.append(t("sg.status.mark.hidden", lang, total=hidden["total"]))
        if c.get("searched_by"):
            marks.append(t("sg.status.mark.searched", lang, names=_list(c["searched_by"], lang)))
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
        return t("sg.status.now", lang, dp=step, names=_names([c["name"] for c in here], lang))
    later = [c for c in ordered if not c.get("acted") and (step is None or int(c["declared"]) < int(step))]
    if not later:
        return t("sg.status.all_acted", lang, next=int(doc.get("turn") or 0) + 1)
    value = max(int(c["declared"]) for c in later)
    names = [c["name"] for c in later if c["declared"] == value]
    return t("sg.status.next", lang, dp=value, names=_names(names, lang))


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


@dataclass(frozen=True)
class StatusPart:
    """A list of the status screen: its heading line and its rows, each made when it is read (so a
    front-end that shows only the first rows renders only those); ``count`` says how many."""

    heading: str
    rows: Iterator[str]
    count: int


@dataclass(frozen=True)
class StatusParts:
    head: list[str]
    parts: list[StatusPart]
    tail: list[str]


def _rows(characters: list[Values], lang: str, initiative: Callable[[Values, Any], Any]) -> Iterator[str]:
    previous = None
    for c in characters:
        yield _row(c, lang, initiative(c, previous))
        previous = c.get("declared")


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
            flags=_flags(doc.get("opening"), doc.get("gm_fixed"), lang),
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
    if view.gms:
        tail.append(t("sg.status.gms", lang, gms=t("render.list_sep", lang).join(view.gms)))
    return StatusParts(head, parts, tail)


def status(view: StatusView, lang: str) -> str:
    """The whole status screen as text (``status_parts`` joined)."""
    shown = status_parts(view, lang)
    lines = list(shown.head)
    for part in shown.parts:
        lines.append(part.heading)
        lines.extend(part.rows)
    return "\n".join(lines + shown.tail)
