"""The prep page's forms: the fields of a fort battle's settings and of each kind of element, what a form
shows of a document, the document a draft's forms make, and the page's own words for a field's refusal.

A *draft* is ``{base, settings: {field: text}, <kind>: [{base: <element's document>, form: {field:
text}}]}`` for each kind of ``LISTS``: the battle's settings and each element (PC, unit, commander,
trap, cannon) as the text of its form's fields, beside the document it was opened from (``base``: what
the forms do not show, a battle's round and turn, a unit's moves, is kept as it was). A field left as
the document shows it changes nothing; one left empty is the command's own default (or refused, where
the command requires it). Any JSON value may stand anywhere in a draft: what is not what a form
holds is refused in words, never raised.

Each field is read as its command's option reads it (``bot.commands.convert_value``: ``/unit add``'s
``hp:`` for a unit's maximum HP), or as the page's own field where no command option holds it (a
current HP, a cannon's shells). A field may be shown only for some elements (``when``: a soldier's
position, a ram's fort damage is its strike, F-UNIT-10); one not shown is no part of the element.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot import commands as cmd
from bot.commands import CommandSpec, Kind, Option, OptType
from bot.i18n import has, t
from bot.render.common import refusal_text, sentence
from bot.rulesets.fort.sheets import FORT_COMMANDS
from engine import limits
from engine.errors import EngineError
from engine.fort import commands as fc
from engine.fort.export import DEFAULT_FORT_HP, FORMAT
from engine.fort.map import AREAS, EDGES, edge_text
from engine.fort.state import MAX_SHELLS, UnitType

#: the lists of a document the page edits, in the page's order
LISTS = ("pcs", "units", "commanders", "traps", "cannons")
LISTS_PLACES = tuple(f"$.{kind}[" for kind in LISTS)
#: what a field's value must be for it to be shown: any of these (a check box's is true or "true")
TRUE = (True, "true")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a form: its name (in the draft and in a refusal's place), the option that reads its
    text, and the command whose option that is (None: the page's own field)."""

    name: str
    option: Option
    path: str | None = None
    required: bool = False
    #: shown only when each of these fields of the form holds one of its values
    when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    #: the values the page offers where the option takes any text (areas, edges)
    choices: tuple[str, ...] | None = None
    #: what its text is, where its option's type does not say: ``name``, ``dice``, ``user``
    reads: str = ""
    #: where a field not shown leaves the element: ``clear`` (no value) or ``keep`` (as it was)
    hidden: str = "clear"
    #: its keys in the document (the settings' ``hp`` is ``fort.hp``); left out: ``(name,)``
    doc: tuple[str, ...] = ()
    #: the page's text for it in a new element (a choice's value)
    default: str | None = None

    @property
    def keys(self) -> tuple[str, ...]:
        return self.doc or (self.name,)


@dataclass(frozen=True, slots=True)
class Form:
    """One kind of form: the list it edits (``settings``: the battle's own), the command that makes one
    of its elements (its options read the fields, its engine command checks one), and its fields."""

    kind: str
    path: str | None
    command: type[Any] | None
    fields: tuple[Field, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def field(self, name: str | None) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def of_command(self, name: str | None) -> Field | None:
        """The field that gives the engine command's field ``name`` (``/unit add hp:`` is the maximum)."""
        for f in self.fields:
            if f.path == self.path and f.path is not None and f.option.name == name:
                return f
        return None

    def of_document(self, keys: tuple[str, ...]) -> Field | None:
        """The field that edits the document's value at ``keys`` (``("fort", "hp")``)."""
        for f in self.fields:
            if f.keys == keys:
                return f
        return None


@dataclass(frozen=True, slots=True)
class Refusal:
    place: str
    text: str


#: the fort's commands by path (a form's fields are read by its command's options)
_BY_PATH = {spec.path: spec for spec in FORT_COMMANDS}


def spec(path: str) -> CommandSpec:
    return _BY_PATH[path]


def _required(command: type[Any]) -> frozenset[str]:
    return frozenset(
        f.name
        for f in dataclasses.fields(command)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )


def _option(path: str, option_name: str, command: type[Any] | None = None, **more: Any) -> Field:
    """The field read as ``/path``'s option ``option_name`` (required where the engine command requires
    it); ``more``: the field's own name and the rest of ``Field``."""
    option = spec(path).option(option_name)
    assert option is not None, f"/{path} has no option {option_name}"
    needed = command is not None and option_name in _required(command)
    more.setdefault("name", option_name)
    if option.default is not None and option.type is OptType.CHOICE:
        more.setdefault("default", str(option.default))
    return Field(option=option, path=path, required=needed, **more)


def _own(name: str, type_: OptType = OptType.INT, **more: Any) -> Field:
    """A field no command option holds (the page's own), read as an option of that type and bounds."""
    bounds = {k: more.pop(k) for k in ("min", "max") if k in more}
    return Field(name=name, option=Option(name, type_, **bounds), **more)


_AREAS = tuple(a.value for a in AREAS)
_TYPES = tuple(t.value for t in UnitType)
#: F-FORT-4, F-UNIT-10, F-UNIT-13: a fixed fort damage is what an enemy unit deals at F0, but a ram's is
#: its strike and a soldier (the PC side) deals none
_FORT_DAMAGE_TYPES = (UnitType.NORMAL.value, UnitType.FLYING.value)
#: F-MAP-7: a soldier is no reinforcement
_ARRIVING_TYPES = tuple(t for t in _TYPES if t != UnitType.SOLDIER.value)

SETTINGS = Form(
    "settings",
    "fort start",
    fc.StartBattle,
    (
        _option("fort start", "title", fc.StartBattle),
        _option("fort start", "rounds", fc.StartBattle),
        _option("fort start", "first", fc.StartBattle),
        _own("hp", doc=("fort", "hp")),
        _option("fort start", "fort_hp", fc.StartBattle, name="max_hp", doc=("fort", "max_hp")),
        _own("loaded", OptType.BOOL, doc=("ballista", "loaded")),
        _option("ballista load", "bolt", doc=("ballista", "bolt"), when=(("loaded", TRUE),)),
    ),
)
FORMS: dict[str, Form] = {
    "pcs": Form(
        "pcs",
        "pc add",
        fc.AddPC,
        (
            _option("pc add", "name", fc.AddPC, reads="name"),
            _own("area", OptType.STR, choices=_AREAS, default="F0"),
            _option("pc add", "position", fc.AddPC, when=(("area", ("F0",)),)),
            _own("hp"),
            _option("pc add", "hp", fc.AddPC, name="max_hp"),
            _option("pc add", "move", fc.AddPC),
            _option("pc add", "owner", fc.AddPC, reads="user"),
        ),
    ),
    "units": Form(
        "units",
        "unit add",
        fc.AddUnit,
        (
            _option("unit add", "name", fc.AddUnit, reads="name"),
            _option("unit add", "type", fc.AddUnit),
            _option("unit add", "area", fc.AddUnit, choices=_AREAS),
            _own("hp"),
            _option("unit add", "hp", fc.AddUnit, name="max_hp"),
            _option(
                "unit add", "fort_damage", fc.AddUnit, when=(("type", _FORT_DAMAGE_TYPES),), hidden="keep"
            ),
            _option("unit add", "strike", fc.AddUnit, reads="dice"),
            _option("unit add", "defense", fc.AddUnit),
            _option("unit add", "move", fc.AddUnit),
            _option("unit add", "weakness", fc.AddUnit),
            _option("unit add", "arrive_round", fc.AddUnit, when=(("type", _ARRIVING_TYPES),)),
            _option("unit add", "position", fc.AddUnit, when=(("type", ("soldier",)), ("area", ("F0",)))),
        ),
    ),
    "commanders": Form(
        "commanders",
        "commander add",
        fc.AddCommander,
        (
            _option("commander add", "name", fc.AddCommander, reads="name"),
            _option("commander add", "area", fc.AddCommander, choices=_AREAS),
            _own("hp"),
            _option("commander add", "hp", fc.AddCommander, name="max_hp"),
            _option("commander add", "horn", fc.AddCommander),
        ),
    ),
    "traps": Form(
        "traps",
        "trap set",
        fc.SetTrap,
        (
            _option("trap set", "kind", fc.SetTrap),
            _option("trap set", "edge", fc.SetTrap, choices=tuple(edge_text(e) for e in EDGES)),
            _option("trap set", "uses", fc.SetTrap),
        ),
    ),
    #: F-CAN-1: each cannon with its shells (the engine holds at most ``MAX_SHELLS``)
    "cannons": Form("cannons", None, None, (_own("shells", min=0, max=MAX_SHELLS),)),
}
#: what a sheet cannot give a unit: the fields of the sheet form (``/unit add sheet:``)
SHEET_FIELDS = ("type", "area", "fort_damage", "arrive_round")
#: the cannons of a document that has none written (as ``/fort import`` reads it)
DEFAULT_CANNONS = ({"shells": 0}, {"shells": 0})

#: the page's own fields are read as the options of no command (their refusals are the page's words)
_OWN_SPEC = CommandSpec(None, "prep", Kind.QUERY)


def form_of(kind: str) -> Form:
    return SETTINGS if kind == "settings" else FORMS[kind]


def required(form: Form) -> frozenset[str]:
    """The fields the form cannot go without."""
    return frozenset(f.name for f in form.fields if f.required)


def default(form: Form, field: Field) -> Any:
    """What the engine command takes for a field left empty (an option not given); None for the page's
    own fields."""
    if form.command is None or field.path != form.path:
        return None
    for f in dataclasses.fields(form.command):
        if f.name == field.option.name and f.default is not dataclasses.MISSING:
            return f.default
    return None


# --- what a form shows of a document ---------------------------------------------------------


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def text_of(value: Any) -> str | None:
    """A JSON value as a field's text (None: no text, a list or an object). Huge numbers are cut to
    more digits than any limit allows (Python will not write an int of 4,300 digits)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) >= limits.HUGE:
            return ("-" if value < 0 else "") + str(limits.HUGE)
        return str(value)
    if isinstance(value, str | float):
        return str(value)
    return None


def _shown_text(value: Any) -> str:
    return text_of(value) or ""


def get(doc: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    """The document's value at ``keys`` (None where a part is missing or no object)."""
    value: Any = doc
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def shown(form: Form, doc: Mapping[str, Any]) -> dict[str, str]:
    """The form of one element (or of the settings), as ``/fort import`` reads the document: its
    defaults where it leaves a value out."""
    out = {}
    for f in form.fields:
        value = get(doc, f.keys)
        out[f.name] = (f.default or "") if value is None else _shown_text(value)
    if form.kind == "settings":
        fort = _mapping(doc.get("fort"))
        hp = fort.get("hp", DEFAULT_FORT_HP)
        out["hp"] = _shown_text(hp)
        if "max_hp" not in fort and isinstance(hp, int) and not isinstance(hp, bool):
            out["max_hp"] = str(max(DEFAULT_FORT_HP, hp))
        out["loaded"] = out["loaded"] or "false"
    elif form.kind == "cannons":
        out["shells"] = out["shells"] or "0"
    return out


def forms_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A document as the page's draft: its forms, each element beside its own document."""
    doc = _mapping(doc)
    draft: dict[str, Any] = {"base": {k: v for k, v in doc.items() if k not in LISTS}}
    draft["settings"] = shown(SETTINGS, doc)
    for kind in LISTS:
        items = doc.get(kind)
        if kind == "cannons" and "cannons" not in doc:
            items = [dict(c) for c in DEFAULT_CANNONS]
        elements = [e for e in items if isinstance(e, dict)] if isinstance(items, list) else []
        draft[kind] = [{"base": e, "form": shown(FORMS[kind], e)} for e in elements]
    return draft


# --- the draft as a document ------------------------------------------------------------------

_UNCHANGED: Any = object()


def _put(doc: dict[str, Any], field: Field, value: Any) -> None:
    """``value`` at the field's place in ``doc`` (an object on the way made or copied)."""
    *outer, last = field.keys
    target = doc
    for key in outer:
        inner = dict(_mapping(target.get(key)))
        target[key] = inner
        target = inner
    if field.name == "title":
        value = value or ""
    begun = doc.get("turn") not in (None, doc.get("first", "pc")) or doc.get("round", 1) != 1
    if field.name == "first" and not outer and not begun:
        doc.pop("turn", None)  # a battle not yet begun: the side going first has the turn
    target[last] = value


def shows(form: Form, field: Field, doc: Mapping[str, Any]) -> bool:
    """Is ``field`` shown for the element ``doc`` (its ``when``, on the form as it shows the element)?
    A value not known yet (a type left empty) shows it."""
    if not field.when:
        return True
    now = shown(form, doc)
    for name, values in field.when:
        value = now.get(name, "")
        if value != "" and value not in values:
            return False
    return True


def _hide(form: Form, field: Field, doc: dict[str, Any]) -> None:
    """A field not shown: no value (``clear``), or the value it had (``keep``, else the command's
    default or 0: ``/unit add`` requires a fort damage even of a ram)."""
    if field.hidden == "keep":
        if get(doc, field.keys) is None:
            value = default(form, field)
            _put(doc, field, 0 if value is None and field.option.type is OptType.INT else value)
    elif get(doc, field.keys) is not None:
        _put(doc, field, None)


def field_value(
    form: Form, field: Field, raw: Any, was: str, place: str, refusals: list[Refusal], lang: str
) -> tuple[bool, Any]:
    """Whether the field changes the document, and its value (read as its option reads it)."""
    text = text_of(raw)
    if text is None:
        refusals.append(Refusal(place, enter(form, field, lang)))
        return False, None
    if field.option.type is OptType.BOOL and text.strip() == "":
        text = "false"  # a check box not ticked
    if text == was and text != "":
        return False, None
    if text.strip() == "":
        if field.required:
            refusals.append(Refusal(place, enter(form, field, lang)))
            return False, None
        return was != "", default(form, field)
    the = spec(field.path) if field.path is not None else _OWN_SPEC
    try:
        return True, cmd.convert_value(the, field.option, text)
    except EngineError as error:
        refusals.append(Refusal(place, said(error, lang, form, field)))
        return False, None


def _hp(form: Form, doc: dict[str, Any], before: Mapping[str, str], given: Mapping[str, Any]) -> None:
    """The HP and the maximum HP of an element (or of the fort) from their fields: a field left as it
    was keeps its value, but an HP at its maximum follows a new maximum; an HP left empty is the maximum;
    a PC's maximum left empty is its HP (a PC's HP need not be tracked at all)."""
    hp_field, max_field = form.field("hp"), form.field("max_hp")
    assert hp_field is not None and max_field is not None
    hp, top = given.get("hp", _UNCHANGED), given.get("max_hp", _UNCHANGED)
    if hp is _UNCHANGED and top is _UNCHANGED:
        return
    full = before["hp"] == before["max_hp"] or "" in (before["hp"], before["max_hp"])
    new_top = get(doc, max_field.keys) if top is _UNCHANGED else top
    new_hp = get(doc, hp_field.keys) if hp is _UNCHANGED else hp
    if hp is _UNCHANGED and full:
        new_hp = new_top
    if form.kind == "settings" and new_top is None:
        new_top = default(form, max_field)
    if new_hp is None:
        new_hp = new_top
    if new_top is None and form.kind == "pcs":
        new_top = new_hp
    _put(doc, hp_field, new_hp)
    _put(doc, max_field, new_top)


def read_form(
    form: Form, doc: dict[str, Any], raw: Any, prefix: str, refusals: list[Refusal], lang: str
) -> None:
    """``doc`` (an element's or the settings' document) edited by the text of its form's fields
    ``raw``; each field refused at ``<prefix><field>``."""
    values = _mapping(raw)
    before = shown(form, doc)
    given: dict[str, Any] = {}
    for field in sorted(form.fields, key=lambda f: bool(f.when)):  # a ``when`` reads the fields before it
        if field.when and not shows(form, field, doc):
            _hide(form, field, doc)
            continue
        place = prefix + field.name
        changed, value = field_value(
            form, field, values.get(field.name), before[field.name], place, refusals, lang
        )
        if not changed:
            continue
        given[field.name] = value
        if field.name not in ("hp", "max_hp"):
            _put(doc, field, value)
    if form.field("max_hp") is not None:
        _hp(form, doc, before, given)


def compose(draft: Any, lang: str) -> tuple[dict[str, Any], list[Refusal]]:
    """The document the draft's forms make, and the refusals of their fields."""
    draft = _mapping(draft)
    refusals: list[Refusal] = []
    doc: dict[str, Any] = dict(_mapping(draft.get("base")))
    for kind in LISTS:
        doc.pop(kind, None)
    doc["format"] = FORMAT
    read_form(SETTINGS, doc, draft.get("settings"), "$.", refusals, lang)
    for kind in LISTS:
        items = draft.get(kind)
        elements = []
        for i, item in enumerate(items if isinstance(items, list) else []):
            element: dict[str, Any] = dict(_mapping(_mapping(item).get("base")))
            read_form(FORMS[kind], element, _mapping(item).get("form"), f"$.{kind}[{i}].", refusals, lang)
            elements.append(element)
        doc[kind] = elements
    return doc, refusals


# --- the page's words for a field and its refusals ------------------------------------------------


def label(form: Form, field: Field, lang: str) -> str:
    """A field's short label (``使用回数``): ``fort.prep.label.<kind>.<field>``, else
    ``fort.prep.label.<field>``."""
    own = f"fort.prep.label.{form.kind}.{field.name}"
    return t(own if has(own, lang) else f"fort.prep.label.{field.name}", lang)


def help_text(form: Form, field: Field, lang: str) -> str:
    """A field's long help: the page's own (``fort.prep.help.<kind>.<field>``), else its option's
    description, else its label."""
    own = f"fort.prep.help.{form.kind}.{field.name}"
    if has(own, lang):
        return t(own, lang)
    if field.path is not None:
        name = field.option.name
        special = f"cmd.{field.path.replace(' ', '.')}.opt.{name}.desc"
        for key in (special, f"opt.{name}.desc"):
            if has(key, lang):
                return t(key, lang)
    return label(form, field, lang)


def choice_values(field: Field) -> tuple[str, ...] | None:
    if field.choices is not None:
        return field.choices
    if field.option.type is OptType.CHOICE:
        return field.option.choices
    return None


def choice_text(field: Field, value: str, lang: str) -> str:
    key = f"choice.{field.option.name}.{value}"
    return t(key, lang) if field.choices is None and has(key, lang) else value


def _in_sentence(text: str, lang: str) -> str:
    """A label inside an English sentence: ``Uses`` → ``uses`` (``HP`` stays)."""
    if lang == "en" and len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: the refusals that say the value is not one the field takes (a number out of its range, an area that
#: is none): the page says what the field takes instead
_SHAPE = frozenset({
    "fort.area_invalid", "fort.position_invalid", "fort.edge_invalid", "fort.unit_type_invalid",
    "fort.trap_kind_invalid", "fort.side_invalid", "fort.value_invalid", "fort.trap_uses_invalid",
    "fort.rounds_invalid", "fort.fort_hp_invalid", "fort.name_invalid", "limits.name", "limits.number",
    "limits.text_too_long", "limits.text_control", "limits.text_not_unicode",
})  # fmt: skip
_CONTROL = frozenset({"limits.text_control", "limits.text_not_unicode", "command.text_control",
                      "command.text_not_unicode"})  # fmt: skip
#: an import's reasons that say the value is not one the field takes
_SHAPE_REASONS = frozenset({
    "not_an_integer", "not_a_string", "not_a_boolean", "not_a_list", "not_an_object", "out_of_range",
    "missing", "not_one_of", "unknown_value",
})  # fmt: skip


def enter(form: Form, field: Field, lang: str, values: Mapping[str, Any] | None = None, key: str = "") -> str:
    """What the field takes, as the page asks for it: 「使用回数を1〜99で入れてください。」. ``values``: the
    refusal's (its bounds, where it names them)."""
    values = values or {}
    words = {"label": _in_sentence(label(form, field, lang), lang)}
    choices = choice_values(field)
    kind = field.option.type
    if key in _CONTROL:
        return t("fort.prep.enter.control", lang, **words)
    if choices is not None:
        shown_choices = [choice_text(field, c, lang) for c in choices]
        joined = "".join(f"「{c}」" for c in shown_choices) if lang == "ja" else ", ".join(shown_choices)
        return t("fort.prep.enter.choice", lang, choices=joined, **words)
    if field.reads == "name":
        return t("fort.prep.enter.name", lang, max=limits.NAME_MAX, **words)
    if field.reads == "dice":
        return t("fort.prep.enter.dice", lang, **words)
    if field.reads == "user" or kind is OptType.USER:
        return t("fort.prep.enter.user", lang, **words)
    if kind is OptType.BOOL:
        return t("fort.prep.enter.bool", lang, **words)
    if kind is OptType.INT:
        lo = _number(values.get("min", values.get("minimum")))
        hi = _number(values.get("max"))
        lo = field.option.min if lo is None else lo
        hi = field.option.max if hi is None else hi
        if lo == -limits.MAX_NUMBER:  # any number a document may hold: a whole number
            lo = None
            hi = None if hi == limits.MAX_NUMBER else hi
        if lo is not None and hi is not None:
            return t("fort.prep.enter.range", lang, min=lo, max=hi, **words)
        if lo is not None:
            return t("fort.prep.enter.at_least", lang, min=lo, **words)
        if hi is not None:
            return t("fort.prep.enter.at_most", lang, max=hi, **words)
        return t("fort.prep.enter.number", lang, **words)
    longest = field.option.max_len or limits.TEXT_MAX
    return t("fort.prep.enter.text", lang, max=longest, **words)


def _safe(values: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's values with every huge number cut (a sentence writes its value; Python will not
    write an int of 4,300 digits)."""

    def cut(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= limits.HUGE:
            return -limits.HUGE if value < 0 else limits.HUGE
        if isinstance(value, Mapping):
            return {k: cut(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [cut(v) for v in value]
        return value

    return {k: cut(v) for k, v in values.items()}


def said(
    error: EngineError,
    lang: str,
    form: Form | None = None,
    field: Field | None = None,
    values: Mapping[str, Any] | None = None,
) -> str:
    """A refusal in the page's words: beside a field (``field``), what the field takes where the value
    is not one it takes, else the bot's own sentence (an import's reason, a rule's refusal), in the
    page's words where the bot's names a command or an option (``fort.prep.said.<key>``)."""
    key, shown_values = error.key, _safe(error.values if values is None else values)
    if field is not None and form is not None:
        if key == "fort.import_invalid":
            reason = shown_values.get("reason")
            detail = _safe(_mapping(shown_values.get("detail")))
            top = form.field("max_hp")
            above = reason == "out_of_range" and detail.get("min") is None and detail.get("max") is not None
            if reason in _SHAPE_REASONS and not (above and field.name == "hp"):
                return enter(form, field, lang, detail)
            if reason == "above_max_hp" or (above and top is not None):
                assert top is not None
                return t("fort.prep.above_max", lang, label=label(form, field, lang),
                         max_label=_in_sentence(label(form, top, lang), lang))  # fmt: skip
            if isinstance(reason, str) and has(f"fort.prep.reason.{reason}", lang):
                return t(f"fort.prep.reason.{reason}", lang)
            if isinstance(reason, str) and "." in reason and has(reason, lang):
                key, shown_values = reason, detail  # a rule's own refusal of the value
            else:
                words = f"value.reason.{reason}"
                known = isinstance(reason, str) and has(words, lang)
                why = sentence(words, lang, detail) if known else t("value.reason.unknown", lang)
                return t(
                    "fort.prep.reason", lang, label=_in_sentence(label(form, field, lang), lang), reason=why
                )
        if key in _SHAPE or key.startswith("command."):
            return enter(form, field, lang, shown_values, key)
    own = f"fort.prep.said.{key}"
    if has(own, lang):
        return sentence(own, lang, shown_values)
    return refusal_text(key, shown_values, lang)
