"""The prep page's draft checked as the bot checks it, and monsters from a sheet as units.

Nothing here holds a rule; a draft (``bot.rulesets.fort.prep.forms``) is checked three ways, each the
bot's own, and every check's refusal is given at once:

1. each field by its command's option (``/fort start``, ``/pc add``, ``/unit add``, ``/commander add``,
   ``/trap set``: ``bot.commands.convert_value``) or as the page's own field reads it;
2. the settings by ``/fort import``'s path and ``StartBattle``; each element by that path alone on the
   settings (as far as they are valid: a refused setting is the battle's default, or a value that
   refuses nothing, for this check), then by the engine's own command (``AddUnit`` ...) while the battle
   and the element are as they were made (round 1, nothing moved);
3. the whole document by ``/fort import``'s path (``import_state`` and the limits, ``check_state``),
   each element it refuses (a name taken) set aside and the rest checked again, so every such refusal
   is found in one check.

A refusal is at a *place*: ``$.units[2].hp`` (a field), ``$.units[2]`` (an element), ``$.units`` (the
list), ``$.rounds`` (a setting) or ``$`` (the battle), where the engine's refusal says (``error.field``,
an import's ``place``); its words are the page's (``forms.said``). The document is given only when
nothing is refused; ``drawable`` always: the document of the valid part (the settings, valid or
defaulted, and every element not refused), for the picture.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.commands import BuildContext, SheetSource
from bot.i18n import t
from bot.rulesets.fort.prep.forms import (
    FORMS,
    LISTS,
    LISTS_PLACES,
    SETTINGS,
    SHEET_FIELDS,
    Field,
    Form,
    Refusal,
    compose,
    field_value,
    forms_of,
    required,
    said,
    shows,
    spec,
)
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.fort import FORT
from engine.fort import commands as fc
from engine.fort.export import FORMAT, export_state, import_state
from engine.fort.limits import check_state
from engine.fort.rules_turn import MAX_ROUNDS
from engine.fort.state import FortState

__all__ = ["FORMS", "LISTS", "LISTS_PLACES", "SETTINGS", "SHEET_FIELDS", "Checked", "check", "compose",
           "forms_of", "imported", "required", "sheet_units", "spec"]  # fmt: skip

#: a new battle's rounds, where the draft's are refused (``new_document``)
DEFAULT_ROUNDS = 3
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")


@dataclass(slots=True)
class Checked:
    """A draft checked: the document (None while anything is refused) and every refusal."""

    document: dict[str, Any] | None
    refusals: list[Refusal] = dataclasses.field(default_factory=list)
    #: the document as the forms make it, checked or not
    draft: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: what the engine's own command says of a value it took otherwise (a move of 15 m is 10 m), by place
    notes: list[Refusal] = dataclasses.field(default_factory=list)
    #: the document of the valid part: the settings (valid or defaulted) and every element not refused
    drawable: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "refusals": [{"place": r.place, "text": r.text} for r in self.refusals],
            "notes": [{"place": n.place, "text": n.text} for n in self.notes],
            "drawable": self.drawable,
        }


class _Refusals:
    """The refusals of one check, one per place (the first found: a field's before its element's)."""

    def __init__(self, found: list[Refusal]) -> None:
        self.all: list[Refusal] = []
        for refusal in found:
            self.add(refusal.place, refusal.text)

    def add(self, place: str, text: str) -> None:
        if all(r.place != place for r in self.all):
            self.all.append(Refusal(place, text))

    def at(self, place: str) -> bool:
        """Is anything at ``place`` or within it refused?"""
        return any(r.place == place or r.place.startswith((place + ".", place + "[")) for r in self.all)


# --- where a refusal is -------------------------------------------------------------------------


def _steps(path: str) -> list[str | int] | None:
    """``$.units[2].hp`` → ``["units", 2, "hp"]`` (None: no place in a document)."""
    if not path.startswith("$"):
        return None
    return [name if name else int(index) for name, index in _STEP.findall(path[1:])]


@dataclass(frozen=True, slots=True)
class _Where:
    """A refusal's place: the list and the element (its index in the document checked) it is in,
    and the field's keys within it (or within the settings)."""

    kind: str | None = None
    index: int | None = None
    keys: tuple[str, ...] = ()
    #: the field's name the engine gave where no path names it (``error.field``)
    field: str | None = None


def _where(error: EngineError, kind: str | None) -> _Where:
    """Where the refusal of a check of one element of ``kind`` (None: the settings or the whole) points,
    in the document checked."""
    for key in ("place", "what"):
        path = error.values.get(key)
        steps = _steps(path) if isinstance(path, str) else None
        if steps is None:
            continue
        if steps and steps[0] in LISTS:
            index = steps[1] if len(steps) > 1 and isinstance(steps[1], int) else None
            rest = tuple(s for s in steps[2:] if isinstance(s, str)) if index is not None else ()
            return _Where(str(steps[0]), index, rest)
        return _Where(None, None, tuple(s for s in steps if isinstance(s, str)))
    if error.field in LISTS:
        return _Where(error.field)
    return _Where(kind, 0 if kind is not None else None, (), error.field)


def _field(form: Form, where: _Where) -> Field | None:
    if where.field is not None:
        return form.of_command(where.field) or form.field(where.field)
    return form.of_document(where.keys) if where.keys else None


def _refuse(
    error: EngineError,
    kind: str | None,
    index_of: Callable[[str, int], int | None],
    refusals: _Refusals,
    lang: str,
) -> tuple[str, int] | None:
    """The refusal of a check at its place in the draft (``index_of``: an element's index in the draft
    from its index in the document checked); the element refused, if it is one."""
    where = _where(error, kind)
    values = dict(error.values)
    if where.kind is not None and where.index is not None:
        index = index_of(where.kind, where.index)
        if index is not None:
            place = values.get("place")
            if isinstance(place, str):  # the bot's sentence names the element by its place in the draft
                values["place"] = place.replace(
                    f"$.{where.kind}[{where.index}]", f"$.{where.kind}[{index}]", 1
                )
            form = FORMS[where.kind]
            field = _field(form, where)
            element = f"$.{where.kind}[{index}]"
            refusals.add(
                element + (f".{field.name}" if field else ""), said(error, lang, form, field, values)
            )
            return where.kind, where.index
    if where.kind is not None:
        refusals.add(f"$.{where.kind}", said(error, lang, values=values))
        return None
    field = _field(SETTINGS, where)
    refusals.add(f"$.{field.name}" if field else "$", said(error, lang, SETTINGS, field, values))
    return None


def _as_is(kind: str, i: int) -> int | None:
    return i


# --- the checks of the engine and of /fort import ----------------------------------------------


def imported(document: Mapping[str, Any]) -> FortState:
    """The battle of a document as ``/fort import`` takes it (``import_state``, then the limits)."""
    state = import_state(document)
    check_state(state)
    return state


def _settings_doc(doc: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in LISTS}


def _as_made(doc: Mapping[str, Any]) -> bool:
    """A battle not begun: its first round, the first side's turn, no outcome (the engine's own
    commands check what is added to it)."""
    first = doc.get("first", "pc")
    return doc.get("round", 1) == 1 and doc.get("turn", first) == first and doc.get("outcome") is None


def _fresh(kind: str, element: Mapping[str, Any]) -> bool:
    """An element as its command makes it: not moved, halted, held, acted, hurt or destroyed (a PC at F0,
    where it joins)."""
    if FORMS[kind].command is None:
        return False
    untouched = not any(element.get(k) for k in ("moved_m", "halted", "acted", "held_edge", "destroyed"))
    at_start = kind != "pcs" or element.get("area", "F0") == "F0"
    return untouched and at_start and element.get("hp") == element.get("max_hp", element.get("hp"))


def _command(kind: str, state: FortState) -> Any:
    """The engine command that makes the one element of ``kind`` in ``state``."""
    if kind == "pcs":
        p = state.pcs[0]
        position = p.position.value if p.position else None
        return fc.AddPC(name=p.name, position=position, hp=p.max_hp, move=p.move, owner=p.owner)
    if kind == "units":
        u = state.units[0]
        return fc.AddUnit(
            name=u.name, type=u.type.value, area=u.area.value, hp=u.max_hp, fort_damage=u.fort_damage,
            strike=u.strike, defense=u.defense, move=u.move, arrive_round=u.arrive_round,
            position=u.position.value if u.position else None, weakness=u.weakness,
        )  # fmt: skip
    if kind == "commanders":
        c = state.commanders[0]
        return fc.AddCommander(name=c.name, hp=c.max_hp, area=c.area.value, horn=c.horn)
    trap = state.traps[0]
    return fc.SetTrap(trap.kind.value, f"{trap.edge[0].value}-{trap.edge[1].value}", trap.uses)


def _as_the_command_took_it(
    element: dict[str, Any], events: Any, place: str, notes: list[Refusal], lang: str
) -> None:
    """A value the engine's command took otherwise, as ``/unit add`` takes it (COMMANDS.md's Conventions: a
    move not a multiple of 10 m is the multiple below, at least 10 m), and its sentence beside the field."""
    for event in events:
        if event.kind == "unit.move_rounded":
            element["move"] = event.data["move"]
            notes.append(Refusal(f"{place}.move", t(event.kind, lang, **event.data)))


def _start(state: FortState, doc: Mapping[str, Any]) -> fc.StartBattle:
    cannons = doc.get("cannons")
    return fc.StartBattle(
        rounds=state.rounds,
        fort_hp=state.fort_max_hp,
        cannons=len(cannons) if isinstance(cannons, list) else 2,
        first=state.first.value,
        title=state.title,
    )


def _lenient_rounds(doc: Mapping[str, Any]) -> int:
    """Rounds that refuse no element where the draft's own are refused: a new battle's, or enough for
    the latest reinforcement."""
    arriving = [u.get("arrive_round") for u in doc.get("units") or [] if isinstance(u, Mapping)]
    rounds = [r for r in arriving if isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= MAX_ROUNDS]
    return max([DEFAULT_ROUNDS, *rounds])


def _fallback(
    settings: Mapping[str, Any],
    doc: Mapping[str, Any],
    on_refusal: Callable[[EngineError], Any] | None = None,
) -> tuple[dict[str, Any], FortState, bool]:
    """Settings as far as they are valid: each refused one left out (its default), refused rounds the
    lenient ones; the battle they make, and whether they are the settings given (nothing refused).
    ``on_refusal`` hears each refusal: every refused setting is found in one check."""
    kept = dict(settings)
    rounds = _lenient_rounds(doc)
    for _ in range(len(kept) + 2):
        try:
            return kept, imported(kept), kept == settings
        except EngineError as error:
            if on_refusal is not None:
                on_refusal(error)
            steps = _steps(str(error.values.get("place") or error.values.get("what") or ""))
            top = steps[0] if steps else error.field
            if top == "rounds" and kept.get("rounds") != rounds:
                kept["rounds"] = rounds
            elif isinstance(top, str) and top in kept and top not in ("format", "rounds"):
                del kept[top]
            else:
                break
    least = {"format": FORMAT, "rounds": rounds}
    return least, imported(least), False


def _try(step: Callable[[], Any], on_refusal: Callable[[EngineError], Any]) -> Any:
    try:
        return step()
    except EngineError as error:
        on_refusal(error)
        return None


def check(draft: Any, lang: str) -> Checked:
    """The draft's document and every refusal of its fields, its elements and the whole (see above)."""
    doc, field_refusals = compose(draft, lang)
    refusals = _Refusals(field_refusals)
    checked = Checked(None, [], doc)
    dice = SeededDice(0)
    made = _as_made(doc)
    settings = _settings_doc(doc)

    def refused(kind: str | None, index: int) -> Callable[[EngineError], Any]:
        at = _as_is if kind is None else (lambda k, i: index if k == kind and i == 0 else None)
        return lambda error: _refuse(error, kind, at, refusals, lang)

    base_settings, base, valid = _fallback(settings, doc, refused(None, 0))
    if valid and made:
        _try(lambda: FORT.apply(None, _start(base, doc), dice), refused(None, 0))
    accepted: dict[str, list[tuple[int, dict[str, Any]]]] = {kind: [] for kind in LISTS}
    for kind in LISTS:
        for i, element in enumerate(doc[kind]):
            if refusals.at(f"$.{kind}[{i}]"):
                continue
            alone = _try(partial(imported, {**base_settings, kind: [element]}), refused(kind, i))
            if alone is None:
                continue
            if made and _fresh(kind, element):
                added = _try(partial(FORT.apply, base, _command(kind, alone), dice), refused(kind, i))
                if added is None:
                    continue
                _as_the_command_took_it(element, added.events, f"$.{kind}[{i}]", checked.notes, lang)
            accepted[kind].append((i, element))
    whole = _whole(base_settings, accepted, refusals, lang)
    checked.refusals = refusals.all
    checked.drawable = export_state(whole if whole is not None else base)
    if whole is not None and not refusals.all:
        checked.document = export_state(whole)
    return checked


def _whole(
    settings: Mapping[str, Any],
    accepted: dict[str, list[tuple[int, dict[str, Any]]]],
    refusals: _Refusals,
    lang: str,
) -> FortState | None:
    """The battle of the settings and the elements accepted, checked whole: an element it refuses is
    refused and set aside, and the rest checked again (None: a refusal of the whole)."""

    def index_of(kind: str, i: int) -> int | None:
        found = accepted.get(kind, [])
        return found[i][0] if 0 <= i < len(found) else None

    for _ in range(sum(len(v) for v in accepted.values()) + 1):
        document = {**settings, **{kind: [e for _, e in accepted[kind]] for kind in LISTS}}
        try:
            return imported(document)
        except EngineError as error:
            element = _refuse(error, None, index_of, refusals, lang)
            if element is None:
                return None
            del accepted[element[0]][element[1]]
    return None


# --- monsters from a ゆとシートⅡ sheet -------------------------------------------------------------


def sheet_units(source: SheetSource, form: Any, settings: Mapping[str, Any], lang: str) -> Checked:
    """The units a monster sheet makes, one per part, as ``/unit add sheet: part:`` makes each (its
    builder: ``bot.rulesets.fort.sheets.with_unit_sheet``) on the battle's settings (as far as they are
    valid); the refusals at ``$.sheet.<field>`` (``$.sheet`` for the sheet itself)."""
    from bot.commands.sheet_source import read_given
    from engine.sheets.model import MonsterSheet

    refusals: list[Refusal] = []
    units = FORMS["units"]
    given = form if isinstance(form, Mapping) else {}
    values: dict[str, Any] = {}
    for name in SHEET_FIELDS:  # the type first: the fields it does not have are none (F-UNIT-10, F-UNIT-13)
        field = units.field(name)
        assert field is not None
        if not shows(units, field, values):
            values[name] = 0 if field.hidden == "keep" else None
            continue
        changed, value = field_value(units, field, given.get(name), "", f"$.sheet.{name}", refusals, lang)
        if changed:
            values[name] = value
    checked = Checked(None, refusals)
    if refusals:
        return checked
    _, state, _ = _fallback(_settings_doc(settings), settings)
    if not source.source:  # a file the page read: named as the page names it
        source = SheetSource(source.text, t("fort.prep.sheet_source", lang))
    try:
        read = read_given({"sheet": source})
        parts = len(read.parts) if isinstance(read, MonsterSheet) else 1
        build = spec("unit add").build
        assert build is not None
        made = []
        for n in range(1, parts + 1):
            asked = {**values, "sheet": source, "part": str(n) if parts > 1 else None}
            command = build(asked, BuildContext(invoker="gm", is_gm=True))
            after = FORT.apply(state, command, SeededDice(0)).state
            made.append(export_state(after)["units"][-1])
    except EngineError as error:
        field = units.of_command(error.field) or units.field(error.field)
        if field is not None and field.name in SHEET_FIELDS:
            refusals.append(Refusal(f"$.sheet.{field.name}", said(error, lang, units, field)))
        else:
            refusals.append(Refusal("$.sheet", said(error, lang)))
        return checked
    checked.document = {"units": made}
    checked.drawable = None
    return checked
