"""The 千幻抄 battle as text: the turn order with a DP bar each, and the values of ``sg.*`` event sentences.

``status`` reads the export document (``toride.sengensho/1``); ``EVENT_VALUES`` turns an event's data
into the pieces its catalogue sentence shows (dice paid and DP left, the order, the surprise case),
for the console and Discord alike. Every word comes from the catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import t
from bot.render.common import EVENT_VALUES, hp_bar
from bot.views import StatusView

#: the width of a DP bar, in characters
BAR = 10

Values = Mapping[str, Any]


def dp_bar(dp: Any, dp_max: Any) -> str:
    return hp_bar(int(dp or 0), int(dp_max or 0), BAR)


def _yes(flag: Any, key: str, lang: str, **values: Any) -> str:
    return t(key, lang, **values) if flag else ""


# --- event values -------------------------------------------------------------------------------


def _order(order: Any, lang: str) -> str:
    steps = [
        t("sg.text.order_step", lang, names=t("sg.text.tie_sep", lang).join(step["names"]), dp=step["dp"])
        for step in order or []
    ]
    return t("sg.text.order_sep", lang).join(steps) or "-"


def _throw(d: Values, lang: str) -> dict[str, str]:
    """Dice paid and DP left, shared by rolls, hiding and searching."""
    if d.get("fixed"):
        dice = t("sg.text.dice_fixed", lang, count=d["dice"], sum=d["dice_total"])
    else:
        dice = t("sg.text.dice", lang, count=d["dice"], values=",".join(str(v) for v in d["values"]))
    paid = t("sg.text.paid", lang, paid=d["paid"]) if d["paid"] else t("sg.text.free", lang)
    return {"dice_text": dice, "paid_text": paid, "bar": dp_bar(d["dp"], d["dp_max"])}


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
        "modifier_text": t("sg.text.modifier", lang, modifier=modifier, rule=d.get("surprise"))
        if modifier
        else "",
        "result_text": result,
    }


def _joined(d: Values, lang: str) -> dict[str, str]:
    attributes = d.get("attributes")
    return {
        "side_text": t(f"sg.text.side.{d['side']}", lang),
        "hp_text": str(d["hp"]) if d.get("hp") is not None else t("sg.text.hp_untracked", lang),
        "attributes_text": t("sg.text.attributes", lang, **attributes) if attributes else "",
        "reinforcement_text": _yes(
            d.get("reinforcement"), "sg.text.reinforcement", lang, recovery=d["recovery"]
        ),
    }


def _turn(d: Values, lang: str) -> dict[str, str]:
    lines = []
    for r in d.get("recovered") or []:
        if r["reason"] in ("recovery", "start"):
            lines.append(t("sg.text.recovered", lang, name=r["name"], before=r["before"], after=r["after"]))
        else:
            reason = t(f"sg.text.reason.{r['reason']}", lang)
            lines.append(t("sg.text.not_recovered", lang, name=r["name"], dp=r["after"], reason=reason))
    return {
        "recovered_text": t("render.list_sep", lang).join(lines) or "-",
        "order_text": _order(d["order"], lang),
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
            hp=c["hp"] if c.get("hp") is not None else "-",
            dp=c["dp"],
            down=t(f"sg.text.down.{c['down']}", lang) if c.get("down") else "",
        )
        for c in d.get("characters") or []
    ]
    return {"characters_text": t("render.list_sep", lang).join(rows) or "-"}


_VALUES: dict[str, Callable[[Values, str], dict[str, str]]] = {
    "sg.started": lambda d, lang: {
        "flags": _yes(d.get("ambush"), "sg.text.ambush", lang)
        + _yes(d.get("gm_fixed"), "sg.text.gm_fixed", lang)
    },
    "sg.joined": _joined,
    "sg.turn_started": _turn,
    "sg.declared": lambda d, lang: {"order_text": _order(d["order"], lang)},
    "sg.rolled": _rolled,
    "sg.hidden": lambda d, lang: {
        **_throw(d, lang),
        "moved_text": _yes(d.get("moved"), "sg.text.moved", lang),
    },
    "sg.searched": lambda d, lang: {
        **_throw(d, lang),
        "found_text": t("sg.text.found" if d["found"] else "sg.text.not_found", lang),
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
        "max_hp": "-" if d.get("max_hp") is None else str(d["max_hp"]),
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
        "answer_text": _yes(
            d.get("answer"),
            "sg.text.answer",
            lang,
            side=t(f"sg.text.side.{d['other_side']}", lang),
            answer=d.get("answer"),
        )
    },
    "sg.ended": _ended,
}
EVENT_VALUES.update(_VALUES)


# --- the status screen -------------------------------------------------------------------------------


def _marks(c: Values, lang: str) -> str:
    marks = []
    if c.get("hidden"):
        marks.append(t("sg.status.mark.hidden", lang, total=c["hidden"]["total"]))
    if c.get("held_by"):
        marks.append(t("sg.status.mark.item", lang, holder=c["held_by"]))
        if c.get("exposed"):
            marks.append(t("sg.status.mark.exposed", lang))
    if c.get("unable"):
        marks.append(t("sg.status.mark.unable", lang))
    if c.get("surprise"):
        evasion = t(f"sg.evasion.{c['surprise']['evasion']}", lang, name=c["name"])
        marks.append(t("sg.status.mark.surprise", lang, case=c["surprise"]["case"], evasion=evasion))
    cards = c.get("spell_cards") or {}
    if cards.get("declared"):
        marks.append(
            t("sg.status.mark.cards", lang, unused=cards["declared"] - cards["used"], cards=cards["declared"])
        )
    if c.get("down"):
        marks.append(t(f"sg.text.down.{c['down']}", lang))
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


def status(view: StatusView, lang: str) -> str:
    """S-CORE-3 as a screen: who acts when (highest declared DP first, ties together), with DP bars."""
    doc = view.document
    flags = _yes(doc.get("ambush"), "sg.text.ambush", lang) + _yes(
        doc.get("gm_fixed"), "sg.text.gm_fixed", lang
    )
    turn = doc.get("turn") or 0
    lines = [
        t(
            "sg.status.header",
            lang,
            title=doc.get("title") or t("sg.status.untitled", lang),
            turn=turn if turn else t("sg.status.before_turns", lang),
            flags=flags,
        )
    ]
    if doc.get("ended") or view.ended:
        lines.append(t("sg.status.ended", lang))
    characters = doc.get("characters") or []
    acting = [c for c in characters if not c.get("down")]
    ordered = sorted(
        (c for c in acting if c.get("declared") is not None), key=lambda c: -int(c["declared"])
    )  # sorted() is stable: ties stay in join order
    waiting = [c for c in acting if c.get("declared") is None]
    if ordered:
        lines.append(t("sg.status.order", lang))
        previous = None
        for c in ordered:
            same = c["declared"] == previous
            lines.append(_row(c, lang, t("sg.status.tie", lang) if same else c["declared"]))
            previous = c["declared"]
    if waiting:
        lines.append(t("sg.status.waiting", lang))
        lines.extend(_row(c, lang, None) for c in waiting)
    down = [c for c in characters if c.get("down")]
    if down:
        lines.append(t("sg.status.down", lang))
        lines.extend(_row(c, lang, None) for c in down)
    cards = doc.get("spell_cards") or {}
    allowance = cards.get("allowance") or {}
    lines.append(
        t(
            "sg.status.cards",
            lang,
            pc=cards.get("pc", 0),
            enemy=cards.get("enemy", 0),
            pc_allowance=allowance.get("pc", 0),
            enemy_allowance=allowance.get("enemy", 0),
        )
    )
    if view.gms:
        lines.append(t("sg.status.gms", lang, gms=t("render.list_sep", lang).join(view.gms)))
    return "\n".join(lines)
