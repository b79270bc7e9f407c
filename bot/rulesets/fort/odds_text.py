"""``/fort odds`` as text: the chance that the defence holds, the fort's HP at the end, when it falls,
the units that threaten it most, the commanders left for the boss fight, what the PC side was taken
to do (the stated policy), what of this battle was not played, and how.

``odds_lines`` serves the console and Discord alike; ``escape`` marks user text (unit and PC names,
the title) for Discord's markdown. Every sentence comes from the catalogues (``odds.toml``).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.rulesets.fort.views import OddsView
from engine.fort.planner import Attack, Focus, OddsResult

#: the units named in the answer, most fort damage first
TOP_THREATS = 5


def number(value: int) -> str:
    return f"{value:,}"


def percent(fraction: float) -> str:
    return f"{fraction:.1%}"


def odds_title(view: OddsView, lang: str, escape: Callable[[str], str] = str) -> str:
    title = escape(view.title) if view.title else t("fort.status.untitled", lang)
    return t("odds.title", lang, title=title)


def odds_lines(view: OddsView, lang: str, escape: Callable[[str], str] = str) -> list[str]:
    result = view.result
    assert result is not None
    lines = [
        t("odds.hold", lang, hold=percent(result.hold), margin=percent(result.margin),
          held=number(result.held), runs=number(result.runs)),
        t("odds.fort_hp", lang, p10=result.hp_percentile(10), p50=result.hp_percentile(50),
          p90=result.hp_percentile(90), max_hp=result.fort_max_hp),
        _falls(result, lang),
        *_threats(result, lang, escape),
        *_commanders(result, lang, escape),
        t("odds.pc_damage", lang, attacks=_attacks(result.attacks, lang, escape)) if result.attacks
        else t("odds.pc_damage_none", lang),
        *t("odds.policy", lang).splitlines(),  # a heading and short lines, one a rule
        *(t("odds.policy_focus", lang).splitlines() if result.focus is Focus.COMMANDERS else []),
        *(t("odds.policy_equipment", lang).splitlines() if result.equipment else []),  # else: not played
        *_not_played(result, lang, escape),
        t("odds.setup", lang, runs=number(result.runs), seed=result.seed, round=result.round,
          rounds=result.rounds),
    ]  # fmt: skip
    return lines


def odds_text(view: OddsView, lang: str) -> str:
    return "\n".join([odds_title(view, lang), *odds_lines(view, lang)])


def _falls(result: OddsResult, lang: str) -> str:
    if not result.falls:
        return t("odds.never_falls", lang)
    p10, p50, p90 = (result.fall_percentile(p) for p in (10, 50, 90))
    if p10 == p90:
        return t("odds.falls_in", lang, falls=number(result.falls), round=p50)
    return t("odds.falls_spread", lang, falls=number(result.falls), p10=p10, p50=p50, p90=p90)


def _threats(result: OddsResult, lang: str, escape: Callable[[str], str]) -> list[str]:
    if not result.threats:
        return [t("odds.no_threats", lang)]
    lines = [t("odds.threats", lang)]
    for threat in result.threats[:TOP_THREATS]:
        lines.append(
            t("odds.threat", lang, unit=escape(threat.unit), damage=f"{result.mean_damage(threat):.1f}",
              share=percent(result.share(threat)))
        )  # fmt: skip
    rest = len(result.threats) - TOP_THREATS
    if rest > 0:
        lines.append(t("odds.threats_more", lang, count=rest))
    return lines


def _commanders(result: OddsResult, lang: str, escape: Callable[[str], str]) -> list[str]:
    """F-UNIT-12, F-END-2: how often each commander stood at the end, and the boss fights with one."""
    if not result.commanders:
        return []
    shares = [
        t("odds.commander", lang, commander=escape(c.commander), share=percent(c.standing / result.runs))
        for c in result.commanders
    ]
    lines = [t("odds.commanders", lang, commanders=t("render.list_sep", lang).join(shares))]
    if result.held_standing:
        lines.append(
            t("odds.boss_with_commander", lang, held=number(result.held), count=number(result.held_standing),
              share=percent(result.held_standing / result.held))
        )  # fmt: skip
    return lines


def _not_played(result: OddsResult, lang: str, escape: Callable[[str], str]) -> list[str]:
    """What of this battle the planner leaves out, one line each."""
    if not result.not_played:
        return []
    lines = [t("odds.not_played", lang)]
    for omission in result.not_played:
        names = t("render.list_sep", lang).join(t("odds.name", lang, name=escape(n)) for n in omission.names)
        text = escape(omission.text) if omission.text is not None else ""
        lines.append(t(f"odds.not_played.{omission.what}", lang, names=names, text=text))
    return lines


def _attacks(attacks: tuple[Attack, ...], lang: str, escape: Callable[[str], str]) -> str:
    parts = []
    for attack in attacks:
        kind = t(f"value.kind.{attack.kind.value}", lang)
        if attack.name is None:
            parts.append(t("odds.attack", lang, expression=escape(attack.expression), kind=kind))
        else:
            parts.append(
                t("odds.attack_named", lang, name=escape(attack.name), expression=escape(attack.expression),
                  kind=kind)
            )  # fmt: skip
    return t("render.list_sep", lang).join(parts)
