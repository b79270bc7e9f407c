"""The prep page's draft checked as the bot checks it, and monsters from a sheet as units.

Nothing here holds a rule or a sentence of its own; a draft (``bot.rulesets.fort.prep.forms``) is checked
three ways, each the bot's own:

1. each field by its command's option (``/fort start``, ``/pc add``, ``/unit add``, ``/commander add``,
   ``/trap set``: ``bot.commands.convert_value``), so a field gets the sentence that option gets;
2. each element by the engine's own command on the battle's settings (``AddUnit`` ...), while the battle
   and the element are as they were made (round 1, nothing moved), and the settings by ``StartBattle``;
3. each element alone, then the whole document, by ``/fort import``'s path: ``import_state`` and the
   limits (``check_limits``).

A refusal is the bot's sentence in the page's language at a *place*, ``$.units[2].hp`` (a field),
``$.units[2]`` (an element) or ``$`` (the battle); a document is given only when nothing is refused.
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
    Refusal,
    compose,
    field_value,
    forms_of,
    required,
    spec,
    words,
)
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.fort import FORT
from engine.fort import commands as fc
from engine.fort.export import export_state, import_state
from engine.fort.limits import check_state
from engine.fort.state import FortState

__all__ = ["FORMS", "LISTS", "SETTINGS", "SHEET_FIELDS", "Checked", "check", "compose", "forms_of",
           "imported", "required", "sheet_units", "spec"]  # fmt: skip

#: an engine refusal's field, where its values do not name it (``move``, ``option``, ``what`` do)
_FIELD_OF = {
    "fort.soldier_not_at_f0": "area",
    "fort.enemy_at_f0": "area",
    "fort.position_only_soldier": "position",
    "fort.soldier_reinforcement": "arrive_round",
    "fort.arrive_round_invalid": "arrive_round",
    "fort.ram_needs_strike": "strike",
    "fort.move_not_multiple": "move",
    "fort.trap_uses_invalid": "uses",
    "fort.rounds_invalid": "rounds",
    "fort.fort_hp_invalid": "fort_hp",
    "fort.cannons_invalid": "cannons",
    "fort.name_taken": "name",
    "limits.name": "name",
}
#: a document's key and the field that edits it, where they differ
_KEY_FIELD = {"max_hp": "hp"}
_PLACE = re.compile(r"^\$\.(\w+)(?:\[(\d+)\])?(?:\.(\w+))?")


@dataclass(slots=True)
class Checked:
    """A draft checked: the document (None while anything is refused) and every refusal."""

    document: dict[str, Any] | None
    refusals: list[Refusal] = dataclasses.field(default_factory=list)
    #: the document as the forms make it, checked or not (the picture shows the last good one)
    draft: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: what the engine's own command says of a value it took otherwise (a move of 15 m is 10 m), by place
    notes: list[Refusal] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "refusals": [{"place": r.place, "text": r.text} for r in self.refusals],
            "notes": [{"place": n.place, "text": n.text} for n in self.notes],
        }


# --- the checks of the engine and of /fort import ----------------------------------------------


def imported(document: Mapping[str, Any]) -> FortState:
    """The battle of a document as ``/fort import`` takes it (``import_state``, then the limits)."""
    state = import_state(document)
    check_state(state)
    return state


def _place_of(error: EngineError, kind: str | None, index: int) -> tuple[str, dict[str, Any]]:
    """Where an import's or the limits' refusal points, in the whole document (an element checked
    alone stands at 0), and its values with that place."""
    values = dict(error.values)
    for key in ("place", "what"):
        text = values.get(key)
        if isinstance(text, str) and text.startswith("$"):
            if kind is not None:
                text = text.replace(f"$.{kind}[0]", f"$.{kind}[{index}]", 1)
                values[key] = text
            return _field_place(text), values
    if error.key == "limits.too_many":
        return f"$.{values.get('what')}", values
    field = _FIELD_OF.get(error.key) or _named_field(error, kind)
    if kind is None:
        return f"$.{field}" if field else "$", values
    return f"$.{kind}[{index}]" + (f".{field}" if field else ""), values


def _named_field(error: EngineError, kind: str | None) -> str | None:
    fields = FORMS[kind].fields if kind is not None else SETTINGS.fields
    for key in ("option", "what"):
        if error.values.get(key) in fields:
            return str(error.values[key])
    return None


def _field_place(path: str) -> str:
    """``$.units[2].max_hp`` → ``$.units[2].hp``; ``$.fort.hp`` → ``$.fort_hp``; deeper parts dropped."""
    found = _PLACE.match(path)
    if found is None:
        return "$"
    key, index, name = found.groups()
    if index is None:
        if key in ("fort",):
            return "$.fort_hp"
        return f"$.{key}"
    if name is None:
        return f"$.{key}[{index}]"
    return f"$.{key}[{index}].{_KEY_FIELD.get(name, name)}"


def _settings_doc(doc: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in LISTS}


def _as_made(doc: Mapping[str, Any]) -> bool:
    """A battle not begun: its first round, the first side's turn, no outcome (the engine's own
    commands check what is added to it)."""
    return (
        doc.get("round", 1) == 1
        and doc.get("turn", doc.get("first", "pc")) == doc.get("first", "pc")
        and doc.get("outcome") is None
    )


def _fresh(element: Mapping[str, Any]) -> bool:
    """An element as its command makes it: not moved, halted, held, acted, hurt or destroyed."""
    untouched = not any(element.get(k) for k in ("moved_m", "halted", "acted", "held_edge", "destroyed"))
    return untouched and element.get("hp") == element.get("max_hp", element.get("hp"))


def _command(kind: str, state: FortState) -> Any:
    """The engine command that makes the one element of ``kind`` in ``state``."""
    if kind == "pcs":
        p = state.pcs[0]
        return fc.AddPC(p.name, p.position.value if p.position else None, p.max_hp, p.move, p.owner)
    if kind == "units":
        u = state.units[0]
        return fc.AddUnit(
            u.name, u.type.value, u.area.value, u.max_hp, u.fort_damage, u.strike, u.defense, u.move,
            u.arrive_round, u.position.value if u.position else None, u.weakness,
        )  # fmt: skip
    if kind == "commanders":
        c = state.commanders[0]
        return fc.AddCommander(c.name, c.max_hp, c.area.value, c.horn)
    t = state.traps[0]
    return fc.SetTrap(t.kind.value, f"{t.edge[0].value}-{t.edge[1].value}", t.uses)


def _as_the_command_took_it(
    element: dict[str, Any], events: Any, place: str, notes: list[Refusal], lang: str
) -> None:
    """A value the engine's command took otherwise, as ``/unit add`` takes it (COMMANDS.md's Conventions: a
    move not a multiple of 10 m is the multiple below, at least 10 m), and its sentence beside the field."""
    for event in events:
        if event.kind == "unit.move_rounded":
            element["move"] = event.data["move"]
            notes.append(Refusal(f"{place}.move", t(event.kind, lang, **event.data)))


def _try(step: Callable[[], Any], kind: str | None, index: int, refusals: list[Refusal], lang: str) -> Any:
    try:
        return step()
    except EngineError as error:
        place, values = _place_of(error, kind, index)
        refusals.append(Refusal(place, words(error, lang, values)))
        return None


def _start(doc: Mapping[str, Any]) -> fc.StartBattle:
    fort = doc.get("fort") or {}
    cannons = doc.get("cannons")
    return fc.StartBattle(
        rounds=doc.get("rounds"),  # type: ignore[arg-type]
        fort_hp=fort.get("max_hp", 300),
        cannons=len(cannons) if isinstance(cannons, list) else 2,
        first=doc.get("first", "pc"),
        title=doc.get("title", ""),
    )


def check(draft: Mapping[str, Any], lang: str) -> Checked:
    """The draft's document and every refusal of its fields, its elements and the whole (see above)."""
    doc, refusals = compose(draft, lang)
    checked = Checked(None, refusals, doc)
    if any(not r.place.startswith(LISTS_PLACES) for r in refusals):
        return checked  # the elements are checked against settings the forms could make
    settings = _settings_doc(doc)
    dice = SeededDice(0)
    made = _as_made(doc)
    count = len(refusals)
    base = _try(lambda: imported(settings), None, 0, refusals, lang)
    if base is not None and made:
        _try(lambda: FORT.apply(None, _start(doc), dice), None, 0, refusals, lang)
    if len(refusals) > count:
        return checked
    element_refused = False
    for kind in LISTS:
        for i, element in enumerate(doc[kind]):
            if any(r.place.startswith(f"$.{kind}[{i}]") for r in refusals):
                element_refused = True
                continue
            alone = _try(partial(imported, {**settings, kind: [element]}), kind, i, refusals, lang)
            if alone is not None and made and _fresh(element):
                add = partial(FORT.apply, base, _command(kind, alone), dice)
                outcome = _try(add, kind, i, refusals, lang)
                if outcome is not None:
                    _as_the_command_took_it(element, outcome.events, f"$.{kind}[{i}]", checked.notes, lang)
            element_refused = element_refused or alone is None
    if refusals or element_refused:
        return checked
    state = _try(lambda: imported(doc), None, 0, refusals, lang)
    if state is not None and not refusals:
        checked.document = export_state(state)
    return checked


# --- monsters from a ゆとシートⅡ sheet -------------------------------------------------------------


def sheet_units(
    source: SheetSource, form: Mapping[str, Any], settings: Mapping[str, Any], lang: str
) -> Checked:
    """The units a monster sheet makes, one per part, as ``/unit add sheet: part:`` makes each (its
    builder: ``bot.rulesets.fort.sheets.with_unit_sheet``) on the battle's settings; the refusals at
    ``$.sheet.<field>`` (``$.sheet`` for the sheet itself)."""
    from bot.rulesets.fort.sheets import read_given
    from engine.sheets.model import MonsterSheet

    refusals: list[Refusal] = []
    unit_form = FORMS["units"]
    values: dict[str, Any] = {}
    for name in SHEET_FIELDS:
        changed, value = field_value(unit_form, name, form.get(name), "", f"$.sheet.{name}", refusals, lang)
        if changed:
            values[name] = value
    checked = Checked(None, refusals)
    state = None if refusals else _try(lambda: import_state(_settings_doc(settings)), None, 0, refusals, lang)
    if state is None:
        return checked
    try:
        read = read_given({"sheet": source})
        parts = len(read.parts) if isinstance(read, MonsterSheet) else 1
        build = spec("unit add").build
        assert build is not None
        units = []
        for n in range(1, parts + 1):
            given = {**values, "sheet": source, "part": str(n) if parts > 1 else None}
            command = build(given, BuildContext(invoker="gm", is_gm=True))
            made = FORT.apply(state, command, SeededDice(0)).state
            units.append(export_state(made)["units"][-1])
    except EngineError as error:
        field = _FIELD_OF.get(error.key) or _named_field(error, "units")
        where = f"$.sheet.{field}" if field in SHEET_FIELDS else "$.sheet"
        refusals.append(Refusal(where, words(error, lang)))
        return checked
    checked.document = {"units": units}
    return checked
