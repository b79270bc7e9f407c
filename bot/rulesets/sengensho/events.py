"""The values of ``sg.*`` event sentences (``EVENT_VALUES``, the 千幻抄's ``RuleSet.text.event_values``):
an event's data as the pieces its catalogue sentence shows (dice paid and DP left, the order, the
surprise case), for the console and Discord alike. Every word comes from the catalogues."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import gm_targets
from bot.i18n import t
from bot.render.common import value_text
from bot.rulesets.sengensho.gm_targets import TARGETS
from bot.rulesets.sengensho.text import Values, dp_bar, flags_text, list_text, names_text, yes_text


def _order(order: Any, lang: str) -> str:
    steps = [
        t("sg.text.order_step", lang, names=names_text(step["names"], lang), dp=step["dp"])
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
    return t("sg.text.out_of_step", lang, dp=mark["dp"], names=names_text(mark.get("names"), lang))


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
        "label_text": yes_text(d.get("label"), "sg.text.label", lang, label=d.get("label")),
        "kind_text": t(f"sg.text.kind.{d['kind']}", lang),
        "check_text": yes_text(d.get("check"), "sg.text.check", lang, check=d.get("check")),
        "aim_text": yes_text(d.get("aim"), "sg.text.aim", lang, aim=d.get("aim")),
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
        "skills_text": yes_text(
            skills, "sg.text.skills", lang, skills=" ".join(f"{k}{v}" for k, v in skills.items())
        ),
        "reinforcement_text": late,
        "hidden_text": yes_text(d.get("hidden"), "sg.text.joined_hidden", lang),
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
        "searchers_text": list_text(searchers, lang) if searchers else t("sg.text.no_searchers", lang),
    }


def _step(d: Values, lang: str) -> dict[str, str]:
    skipped = d.get("skipped") or []
    return {
        "names_text": names_text(d.get("names"), lang),
        "by_text": t(f"sg.text.step_by.{d['by']}", lang),
        "skipped_text": yes_text(skipped, "sg.text.skipped", lang, names=names_text(skipped, lang)),
    }


def _surprise(d: Values, lang: str) -> dict[str, str]:
    defender = d.get("defender")
    return {
        "case_text": t(f"sg.case.{d['case']}", lang),
        "evasion_text": t(f"sg.evasion.{d.get('evasion') or 'none'}", lang, name=defender),
        "cap_text": yes_text(d.get("attacker_cap"), "sg.text.attacker_cap", lang, attacker=d["attacker"]),
        "same_text": yes_text(d.get("same_initiative"), "sg.text.same_initiative", lang),
        "defender_text": yes_text(defender != d["target"], "sg.text.defender", lang, defender=defender),
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
    """A GM change: its target as the reader types it (``霊夢.DP``), an empty value the catalogue's
    "none"."""

    def shown(value: Any) -> str:
        return t("sg.text.none", lang) if value in (None, [], "") else value_text(value, lang)

    target = gm_targets.words(TARGETS, str(d.get("target", "")), lang)
    return {"target": target, "before": shown(d.get("before")), "value": shown(d.get("value"))}


def defence_text(defence: str, dice: int, lang: str, auto: bool = False) -> str:
    """An answer to an attack in words: 回避2D, ガード1D, 受ける (自動回避 under S-SUR-2)."""
    if auto:
        return t("sg.text.defence.auto", lang)
    return t(f"sg.text.defence.{defence}", lang, dice=dice)


def _profile(d: Values, lang: str) -> dict[str, str]:
    parts = [
        t(f"sg.text.profile.{field}", lang, check=d[field], damage=d[field], answer=d[field])
        for field in ("attack", "evasion", "guard", "damage", "answer")
        if d.get(field)
    ]
    return {"profile": t("sg.text.profile_sep", lang).join(parts) or t("sg.text.profile.none", lang)}


def _awaited(d: Values, lang: str) -> dict[str, str]:
    """``/sg attack``: the answers the defender may give, and the defences it has no check for."""
    auto = d.get("surprise") == "S-SUR-2" and [list(c) for c in d["choices"]] == [["evasion", 0], ["take", 0]]
    shown = [
        defence_text(defence, dice, lang, auto and defence == "evasion") for defence, dice in d["choices"]
    ]
    missing = d.get("missing") or []
    words = t("render.list_sep", lang).join(t(f"value.defence.{m}", lang) for m in missing)
    return {
        "choices_text": t("sg.text.choices_sep", lang).join(shown)
        + (t("sg.text.surprise_limits", lang, case=d["surprise"]) if d.get("surprise") else ""),
        "missing_text": t("sg.text.missing", lang, defences=words) if missing else "",
    }


#: per event kind: its sentence's parts computed from its data
EVENT_VALUES: dict[str, Callable[[Values, str], dict[str, str]]] = {
    "sg.started": lambda d, lang: {"flags": flags_text(d.get("opening"), d.get("gm_fixed"), lang)},
    "sg.joined": _joined,
    "sg.turn_started": _turn,
    "sg.hidden_turn": _hidden_turn,
    "sg.step": _step,
    "sg.declared": lambda d, lang: {"order_text": _order(d["order"], lang)},
    "sg.rolled": _rolled,
    "sg.hidden": lambda d, lang: {
        **_throw(d, lang),
        "moved_text": yes_text(d.get("moved"), "sg.text.moved", lang),
    },
    "sg.search_rolled": _throw,
    "sg.searched": lambda d, lang: {
        "found_text": t("sg.text.found" if d["found"] else "sg.text.not_found", lang)
    },
    "sg.revealed": lambda d, lang: {
        "reason_text": t(f"sg.text.revealed.{d['reason']}", lang, by=d.get("by")),
        "cards_text": yes_text(d.get("cards_entry"), "sg.text.cards_entry", lang),
    },
    "sg.surprise": _surprise,
    "sg.surprise_struck": lambda d, lang: {
        "case_text": t(f"sg.case.{d['case']}", lang),
        "evasion_text": t(f"sg.evasion.{d['evasion']}", lang, name=d["target"]),
    },
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
        "cards_text": list_text(d.get("cards"), lang),
        "answer_text": yes_text(
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
    "sg.profile_set": _profile,
    "sg.answer_awaited": _awaited,
    "sg.answered_by_itself": lambda d, lang: {"defence_text": defence_text(d["defence"], d["dice"], lang)},
}
