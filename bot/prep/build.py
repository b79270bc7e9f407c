"""The prep page's forms as a ``toride.fort/1`` document, checked as the bot checks it.

The page sends a *draft*: the battle's settings and each element (PC, unit, commander, trap) as the
text of its form's fields, beside the document it was opened from (``base``: what the forms do not
show, a battle's round and turn, a unit's damage and moves, is kept as it was). Nothing here holds a
rule or a sentence of its own; a draft is checked three ways, each the bot's own:

1. each field by its command's option (``/fort start``, ``/pc add``, ``/unit add``, ``/commander add``,
   ``/trap set``: ``bot.commands.convert_value``), so a field gets the sentence that option gets;
2. each element by the engine's own command on the battle's settings (``AddUnit`` ...), while the battle
   and the element are as they were made (round 1, nothing moved), and the settings by ``StartBattle``;
3. the whole document by ``/fort import``'s path: ``import_state`` and the limits (``check_limits``).

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

from bot import commands as cmd
from bot import rulesets
from bot.commands import BuildContext, CommandSpec, SheetSource, UserError
from bot.render.common import refusal_text
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.fort import FORT
from engine.fort import commands as fc
from engine.fort.export import FORMAT, export_state, import_state
from engine.fort.state import FortState

#: the lists of a document the page edits, each with the command that makes one of its elements
LISTS = ("pcs", "units", "commanders", "traps")
LISTS_PLACES = tuple(f"$.{kind}[" for kind in LISTS)


@dataclass(frozen=True, slots=True)
class Form:
    """One kind of form: its command (whose options check the fields), the engine command of that
    command, and the fields shown, in order."""

    path: str
    command: type[Any]
    fields: tuple[str, ...]


SETTINGS = Form("fort start", fc.StartBattle, ("title", "rounds", "fort_hp", "cannons", "first"))
FORMS: dict[str, Form] = {
    "pcs": Form("pc add", fc.AddPC, ("name", "position", "hp")),
    "units": Form(
        "unit add",
        fc.AddUnit,
        (
            "name",
            "type",
            "area",
            "hp",
            "fort_damage",
            "strike",
            "defense",
            "move",
            "weakness",
            "arrive_round",
            "position",
        ),
    ),
    "commanders": Form("commander add", fc.AddCommander, ("name", "hp", "area", "horn")),
    "traps": Form("trap set", fc.SetTrap, ("kind", "edge", "uses")),
}
#: what a sheet cannot give a unit: the fields of the sheet form (``/unit add sheet:``)
SHEET_FIELDS = ("type", "area", "fort_damage", "arrive_round")
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
_KEY_FIELD = {"max_hp": "hp", "fort": "fort_hp", "area": "area"}
_PLACE = re.compile(r"^\$\.(\w+)(?:\[(\d+)\])?(?:\.(\w+))?")


@dataclass(frozen=True, slots=True)
class Refusal:
    place: str
    text: str


@dataclass(slots=True)
class Checked:
    """A draft checked: the document (None while anything is refused) and every refusal."""

    document: dict[str, Any] | None
    refusals: list[Refusal] = dataclasses.field(default_factory=list)
    #: the document as the forms make it, checked or not (the picture shows the last good one)
    draft: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "refusals": [{"place": r.place, "text": r.text} for r in self.refusals],
        }


def spec(path: str) -> CommandSpec:
    rulesets.load_builtin()
    return cmd.lookup(path)


def required(form: Form) -> frozenset[str]:
    """The fields the engine command cannot go without (the command's required options)."""
    return frozenset(
        f.name
        for f in dataclasses.fields(form.command)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )


def default(form: Form, name: str) -> Any:
    """What the engine command takes for a field left empty (an option not given)."""
    for f in dataclasses.fields(form.command):
        if f.name == name and f.default is not dataclasses.MISSING:
            return f.default
    return None


# --- what a form shows of a document ---------------------------------------------------------


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def shown_settings(doc: Mapping[str, Any]) -> dict[str, str]:
    """The settings form of a document (its defaults where it leaves a value out, as import reads it)."""
    fort = doc.get("fort") or {}
    cannons = doc.get("cannons")
    return {
        "title": _text(doc.get("title")),
        "rounds": _text(doc.get("rounds")),
        "fort_hp": _text(fort.get("max_hp", fort.get("hp", 300))),
        "cannons": str(len(cannons)) if isinstance(cannons, list) else "2",
        "first": _text(doc.get("first", "pc")),
    }


def shown(kind: str, element: Mapping[str, Any]) -> dict[str, str]:
    """The form of one element of the list ``kind``."""
    return {name: _text(element.get(name)) for name in FORMS[kind].fields}


def forms_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A document as the page's draft: its forms, each element beside its own document."""
    draft: dict[str, Any] = {"base": {k: v for k, v in doc.items() if k not in LISTS}}
    draft["settings"] = shown_settings(doc)
    for kind in LISTS:
        items = doc.get(kind) or []
        draft[kind] = [{"base": e, "form": shown(kind, e)} for e in items if isinstance(e, dict)]
    return draft


# --- the draft as a document ------------------------------------------------------------------


def _set_settings(doc: dict[str, Any], name: str, value: Any) -> None:
    if name == "title":
        doc["title"] = value or ""
    elif name == "rounds":
        doc["rounds"] = value
    elif name == "fort_hp":
        doc["fort"] = {**(doc.get("fort") or {}), "hp": value, "max_hp": value}
    elif name == "cannons":
        old = doc.get("cannons")
        shells = [c.get("shells", 0) for c in old if isinstance(c, dict)] if isinstance(old, list) else []
        doc["cannons"] = [{"shells": s} for s in (shells + [0] * value)[:value]]
    elif name == "first":
        if doc.get("turn") in (None, doc.get("first", "pc")) and doc.get("round", 1) == 1:
            doc.pop("turn", None)  # a battle not yet begun: the side going first has the turn
        doc["first"] = value


def _set_element(kind: str, element: dict[str, Any], name: str, value: Any) -> None:
    if name == "hp":  # the HP a command gives is the element's HP and its maximum
        element["hp"] = value
        if value is None:
            element.pop("max_hp", None)
        else:
            element["max_hp"] = value
    elif kind == "pcs" and name == "position":
        element["area"] = "F0"
        element["position"] = value
    else:
        element[name] = value


def _field(
    form: Form, name: str, raw: Any, was: str, place: str, refusals: list[Refusal], lang: str
) -> tuple[bool, Any]:
    """Whether the field changes the document, and its value (checked by its command's option)."""
    text = "" if raw is None else str(raw)
    if text == was and text != "":
        return False, None
    if text.strip() == "":
        if name in required(form):
            the = spec(form.path)
            error = UserError(
                "command.missing_option", command="/" + the.path, option=name, usage=cmd.usage(the)
            )
            refusals.append(Refusal(place, _words(error, lang)))
            return False, None
        return was != "", default(form, name)
    the = spec(form.path)
    option = the.option(name)
    assert option is not None, f"/{form.path} has no option {name}"
    try:
        return True, cmd.convert_value(the, option, text)
    except EngineError as error:
        refusals.append(Refusal(place, _words(error, lang)))
        return False, None


def _words(error: EngineError, lang: str, values: Mapping[str, Any] | None = None) -> str:
    return refusal_text(error.key, dict(error.values if values is None else values), lang)


def compose(draft: Mapping[str, Any], lang: str) -> tuple[dict[str, Any], list[Refusal]]:
    """The document the draft's forms make, and the refusals of their fields (step 1)."""
    refusals: list[Refusal] = []
    base = draft.get("base")
    doc: dict[str, Any] = dict(base) if isinstance(base, Mapping) else {}
    doc["format"] = FORMAT
    settings = draft.get("settings") if isinstance(draft.get("settings"), Mapping) else {}
    assert isinstance(settings, Mapping)
    was = shown_settings(doc)
    for name in SETTINGS.fields:
        changed, value = _field(SETTINGS, name, settings.get(name), was[name], f"$.{name}", refusals, lang)
        if changed:
            _set_settings(doc, name, value)
    for kind in LISTS:
        items = draft.get(kind)
        elements = []
        for i, item in enumerate(items if isinstance(items, list) else []):
            item = item if isinstance(item, Mapping) else {}
            own = item.get("base")
            element: dict[str, Any] = dict(own) if isinstance(own, Mapping) else {}
            form = item.get("form") if isinstance(item.get("form"), Mapping) else {}
            assert isinstance(form, Mapping)
            before = shown(kind, element)
            for name in FORMS[kind].fields:
                place = f"$.{kind}[{i}].{name}"
                changed, value = _field(
                    FORMS[kind], name, form.get(name), before[name], place, refusals, lang
                )
                if changed:
                    _set_element(kind, element, name, value)
            elements.append(element)
        doc[kind] = elements
    return doc, refusals


# --- the checks of the engine and of /fort import ----------------------------------------------


def _binding() -> rulesets.RulesetBinding:
    binding = rulesets.get(FORT.name)
    assert binding is not None
    return binding


def imported(document: Mapping[str, Any]) -> FortState:
    """The battle of a document as ``/fort import`` takes it (``import_state``, then the limits)."""
    binding = _binding()
    state: FortState = binding.ruleset.import_(document)
    binding.check_limits(state)
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


def _try(step: Callable[[], Any], kind: str | None, index: int, refusals: list[Refusal], lang: str) -> Any:
    try:
        return step()
    except EngineError as error:
        place, values = _place_of(error, kind, index)
        refusals.append(Refusal(place, _words(error, lang, values)))
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
                _try(partial(FORT.apply, base, _command(kind, alone), dice), kind, i, refusals, lang)
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
    builder: ``bot.rulesets.fort_sheets.with_unit_sheet``) on the battle's settings; the refusals at
    ``$.sheet.<field>`` (``$.sheet`` for the sheet itself)."""
    from bot.rulesets.fort_sheets import read_given
    from engine.sheets.model import MonsterSheet

    refusals: list[Refusal] = []
    unit_form = FORMS["units"]
    values: dict[str, Any] = {}
    for name in SHEET_FIELDS:
        changed, value = _field(unit_form, name, form.get(name), "", f"$.sheet.{name}", refusals, lang)
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
        refusals.append(Refusal(where, _words(error, lang)))
        return checked
    checked.document = {"units": units}
    return checked
