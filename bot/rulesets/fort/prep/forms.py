"""The prep page's forms: which command each form stands for, what a form shows of a document, and the
document a draft's forms make (each field checked by its command's option, ``bot.commands.convert_value``).

A *draft* is the battle's settings and each element (PC, unit, commander, trap) as the text of its form's
fields, beside the document it was opened from (``base``: what the forms do not show, a battle's round
and turn, a unit's damage and moves, is kept as it was). A field left as the document shows it changes
nothing; one left empty is the command's own default (or refused, where the command requires it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot import commands as cmd
from bot.commands import CommandSpec, UserError
from bot.i18n.names import CommandName, OptionName
from bot.render.common import refusal_text
from bot.rulesets.fort.sheets import FORT_COMMANDS
from engine.errors import EngineError
from engine.fort import commands as fc
from engine.fort.export import FORMAT

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


@dataclass(frozen=True, slots=True)
class Refusal:
    place: str
    text: str


#: the fort's commands by path (a form's fields are checked by its command's options)
_BY_PATH = {spec.path: spec for spec in FORT_COMMANDS}


def spec(path: str) -> CommandSpec:
    return _BY_PATH[path]


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


def field_value(
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
                "command.missing_option", command=CommandName(the.path), option=OptionName(name, the.path),
                usage=cmd.usage(the),
            )
            refusals.append(Refusal(place, words(error, lang)))
            return False, None
        return was != "", default(form, name)
    the = spec(form.path)
    option = the.option(name)
    assert option is not None, f"/{form.path} has no option {name}"
    try:
        return True, cmd.convert_value(the, option, text)
    except EngineError as error:
        refusals.append(Refusal(place, words(error, lang)))
        return False, None


def words(error: EngineError, lang: str, values: Mapping[str, Any] | None = None) -> str:
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
        changed, value = field_value(
            SETTINGS, name, settings.get(name), was[name], f"$.{name}", refusals, lang
        )
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
                changed, value = field_value(
                    FORMS[kind], name, form.get(name), before[name], place, refusals, lang
                )
                if changed:
                    _set_element(kind, element, name, value)
            elements.append(element)
        doc[kind] = elements
    return doc, refusals
