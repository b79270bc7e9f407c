"""``/unit list`` and ``/unit advance preview:true`` as text (the console's; Discord passes its own
``name`` to escape names and ``line`` for event lines)."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import has, t
from bot.render.common import event_line as text_event_line
from engine.fort.roster import DESTROYED, PENDING, Roster, RosterCommander, RosterUnit
from engine.ruleset import Event

Name = Callable[[str], str]


def _plain(text: str) -> str:
    return text


def roster_lines(
    roster: Roster, lang: str, *, name: Name = _plain, indent: str = "  ", sub: str = "    "
) -> list[str]:
    """The roster: a header, each unit (its numbers and this turn's doings ``sub``-indented below it),
    each commander."""
    turn = t(f"fort.status.turn.{roster.turn}", lang)
    head = "roster.header" if roster.area is None else "roster.header_area"
    lines = [t(head, lang, round=roster.round, rounds=roster.rounds, turn=turn, area=roster.area)]
    if not roster.units and not roster.commanders:
        lines.append(indent + t("roster.empty" if roster.area is None else "roster.empty_area", lang))
        return lines
    for unit in roster.units:
        # what a unit did "this turn" is its own side's turn: the other side's units show their numbers
        now = unit.side == roster.turn
        lines.extend(indent + line for line in unit_lines(unit, lang, name, this_turn=now, sub=sub))
    for commander in roster.commanders:
        lines.append(indent + commander_line(commander, lang, name))
    return lines


def unit_lines(
    unit: RosterUnit, lang: str, name: Name = _plain, *, this_turn: bool = True, sub: str = "    "
) -> list[str]:
    """The unit's first line (name, kind, where, HP) and, on the map or to come, its numbers."""
    kind = t(
        "roster.kind", lang, type=t(f"value.type.{unit.type}", lang), side=t(f"value.side.{unit.side}", lang)
    )
    where = unit.area
    if unit.position is not None:
        where = t("render.place", lang, area=unit.area, position=t(f"value.position.{unit.position}", lang))
    if unit.standing == DESTROYED:
        return [t("roster.unit_destroyed", lang, name=name(unit.name), kind=kind, area=where)]
    if unit.standing == PENDING:
        first = t("roster.unit_pending", lang, name=name(unit.name), kind=kind, area=where,
                  round=unit.arrive_round, hp=unit.hp, max_hp=unit.max_hp)  # fmt: skip
    else:
        first = t(
            "roster.unit", lang, name=name(unit.name), kind=kind, area=where, hp=unit.hp, max_hp=unit.max_hp
        )
    numbers = [t("roster.fort_damage", lang, amount=unit.fort_damage)]
    if unit.strike is not None:
        numbers.append(t("roster.strike", lang, strike=name(unit.strike)))
    numbers.append(t("roster.defense", lang, defense=unit.defense))
    if unit.standing == PENDING or not this_turn:
        numbers.append(t("roster.move", lang, move=unit.move))
    else:
        numbers.append(t("roster.move_left", lang, left=unit.move_left, move=unit.move))
    if unit.weakness is not None:
        numbers.append(t("roster.weakness", lang, weakness=name(unit.weakness)))
    lines = [first, sub + t("roster.separator", lang).join(numbers)]
    if unit.standing != PENDING and this_turn:
        lines.append(sub + turn_text(unit, lang))
    return lines


def turn_text(unit: RosterUnit, lang: str) -> str:
    """What the unit did this turn: its main action, its move, or neither."""
    done: list[str] = []
    if unit.acted is not None:
        key = f"value.action.{unit.acted}"
        done.append(
            t("roster.acted", lang, action=t(key, lang) if has(key, lang) else t("value.action.gm", lang))
        )
    if unit.halted is not None:
        done.append(t("roster.halted", lang, reason=t(f"value.reason.{unit.halted}", lang)))
    elif unit.moved:
        done.append(t("roster.moved", lang))
    if not done:
        return t("roster.not_yet", lang)
    return t("roster.this_turn", lang, done=t("roster.separator", lang).join(done))


def commander_line(commander: RosterCommander, lang: str, name: Name = _plain) -> str:
    if commander.fallen:
        return t("roster.commander_fallen", lang, name=name(commander.name), area=commander.area)
    key = "roster.commander" if commander.horn is None else "roster.commander_horn"
    return t(key, lang, name=name(commander.name), area=commander.area, hp=commander.hp,
             max_hp=commander.max_hp, horn=name(commander.horn or ""))  # fmt: skip


def preview_lines(
    events: tuple[Event, ...],
    lang: str,
    *,
    line: Callable[[Event, str], str] = text_event_line,
    indent: str = "  ",
) -> list[str]:
    """What ``/unit advance`` would do, said as such: its events, then that nothing changed."""
    lines = [t("roster.preview_header", lang)]
    lines.extend(indent + line(event, lang) for event in events)
    if not events:
        lines.append(indent + t("render.no_events", lang))
    lines.append(t("roster.preview_footer", lang))
    return lines
