"""A fort round's summary as text (``engine.fort.report.RoundReport``): its actions in order, each with
who ran it and its events with their dice, the GM's undos, then the table: the fort's HP at the start and
the end with each change by its cause, units destroyed, arrivals, traps spent, commanders fallen.

The same lines serve the console and Discord: a front-end passes its own ``event_line`` and ``name``
(Discord escapes names and shows a user id as a mention).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.i18n import t
from bot.render import command_line
from bot.render.common import event_line as text_event_line
from engine.fort.report import Action, HPChange, RoundReport, TrapSpent, Undo
from engine.ruleset import Event

EventLine = Callable[[Event, str], str]
Name = Callable[[str], str]


def _plain(text: str) -> str:
    return text


def title(report: RoundReport, lang: str) -> str:
    if report.kind == "final":
        return t("report.title.final", lang)
    if report.round is None:
        return t("report.title.round_unknown", lang)
    return t("report.title.round", lang, round=report.round)


def action_lines(
    report: RoundReport,
    lang: str,
    *,
    line: EventLine = text_event_line,
    name: Name = _plain,
    user: Name = _plain,
    indent: str = "    ",
) -> list[str]:
    """The round's actions and undos, in order, each with its events (and their dice) under it."""
    out: list[str] = []
    for entry in report.entries:
        if isinstance(entry, Undo):
            out.append(_undo(entry, lang, name, user))
            continue
        assert isinstance(entry, Action)
        text = name(command_line.shown(entry.text, lang))
        out.append(t("report.action", lang, seq=entry.seq, actor=user(entry.actor), text=text))
        out.extend(indent + line(event, lang) for event in entry.events)
    return out


def _undo(entry: Undo, lang: str, name: Name, user: Name) -> str:
    count = len(entry.seqs)
    texts = (*entry.texts, *("",) * (count - len(entry.texts)))
    what = t("report.separator", lang).join(
        t("report.undo.item", lang, seq=seq, text=name(command_line.shown(text, lang)))
        if text
        else t("report.undo.seq", lang, seq=seq)
        for seq, text in zip(entry.seqs, texts, strict=False)
    )
    verb = "redo" if entry.redo else "undo"
    key = f"report.{verb}.{'one' if count == 1 else 'many'}"
    return t(key, lang, seq=entry.seq, actor=user(entry.actor), count=count, what=what)


def table_lines(report: RoundReport, lang: str, *, name: Name = _plain, indent: str = "  ") -> list[str]:
    """The table: fort HP start → end and each change by cause; destroyed, arrivals, traps, commanders."""
    out: list[str] = []
    if report.fort_start is not None and report.fort_end is not None:
        key = "report.fort_hp" if report.fort_max is None else "report.fort_hp_max"
        out.append(
            t(
                key,
                lang,
                start=report.fort_start,
                end=report.fort_end,
                max=report.fort_max,
                change=_signed(report.fort_end - report.fort_start),
            )
        )
        for change in report.changes:
            out.append(indent + cause_text(change, lang, name))
        if not report.changes:
            out.append(indent + t("report.fort_unchanged", lang))
    if report.destroyed:
        out.append(t("report.destroyed", lang, names=_join(map(name, report.destroyed), lang)))
    if report.arrivals:
        arrivals = (t("report.arrival", lang, unit=name(a.unit), area=a.area) for a in report.arrivals)
        out.append(t("report.arrivals", lang, names=_join(arrivals, lang)))
    if report.traps:
        key = "report.traps.one" if len(report.traps) == 1 else "report.traps.many"
        out.append(t(key, lang, traps=_join((_trap(trap, lang) for trap in report.traps), lang)))
    if report.commanders_down:
        key = (
            "report.commanders_down.one"
            if len(report.commanders_down) == 1
            else "report.commanders_down.many"
        )
        out.append(t(key, lang, names=_join(map(name, report.commanders_down), lang)))
    return out


def report_lines(
    report: RoundReport,
    lang: str,
    *,
    line: EventLine = text_event_line,
    name: Name = _plain,
    user: Name = _plain,
    indent: str = "  ",
) -> list[str]:
    """The whole summary without its title: the actions (each under its command), then the table."""
    out: list[str] = []
    actions = action_lines(report, lang, line=line, name=name, user=user, indent=indent)
    if actions:
        out.append(t("report.actions", lang))
        out.extend(indent + a for a in actions)
    out.extend(table_lines(report, lang, name=name, indent=indent))
    return out


def cause_text(change: HPChange, lang: str, name: Name = _plain) -> str:
    """``ゴブリンの侵入(F0): −10``: one cause of the round's changes of the fort's HP."""
    cause = change.cause
    who = name(change.name) if change.name is not None else None
    if cause == "siege" and who is not None:
        who = t(f"value.effect.{change.name}", lang)
    key = f"report.cause.{cause}" + ("" if who is not None or cause in ("heal", "gm") else "_unnamed")
    times = t("report.times", lang, count=change.count) if change.count > 1 else ""
    return t(key, lang, name=who, amount=_signed(change.amount), times=times)


def _trap(trap: TrapSpent, lang: str) -> str:
    key = "report.trap.one" if trap.spent == 1 else "report.trap.many"
    kind = t(f"value.kind.{trap.kind}", lang)
    return t(key, lang, kind=kind, edge=trap.edge, spent=trap.spent, left=trap.left)


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else ("±0" if amount == 0 else f"−{-amount}")


def _join(items: Iterable[str], lang: str) -> str:
    return t("report.separator", lang).join(items)
