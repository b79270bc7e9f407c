"""The prep page's data: its fields and kinds of element (``page_data``, what the page's template and
script are built from), and the map's marks.

Every word is the catalogue's: a field has a short label (``fort.prep.label.<field>``) and a long help
(the page's own, ``fort.prep.help.<kind>.<field>``, else its option's description); a choice is named by
its choice's words (``choice.<option>.<value>``); the choices of an area or an edge are the engine's
own. What the page script would otherwise hold as a rule is data here: which fields an element of a
type has (``when``), how an element is named (``title_fields``) and which mark it shows (``mark``,
``mark_field``).
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from bot.commands import OptType
from bot.i18n import t
from bot.rulesets.fort.prep.forms import (
    FORMS,
    LISTS,
    SETTINGS,
    SHEET_FIELDS,
    Field,
    Form,
    choice_text,
    choice_values,
    help_text,
    label,
)

#: the map's marks an element shows (``bot.rulesets.fort.pictures.marks``; a cannon is its shell)
MARK_KINDS = ("normal", "ram", "flying", "commander", "pc", "soldier", "barricade", "mine", "cannon")
MARK_PX = 48
#: how each kind of element is marked and named: a fixed mark, or the field whose value is its mark
#: (and the mark while that field is empty); the fields whose words name one without a name
_KINDS: dict[str, dict[str, Any]] = {
    "pcs": {"mark": "pc", "mark_field": None, "mark_default": None, "title_fields": ["name"]},
    "units": {"mark": None, "mark_field": "type", "mark_default": "normal", "title_fields": ["name"]},
    "commanders": {"mark": "commander", "mark_field": None, "mark_default": None, "title_fields": ["name"]},
    "traps": {
        "mark": None,
        "mark_field": "kind",
        "mark_default": "barricade",
        "title_fields": ["kind", "edge"],
    },
    "cannons": {"mark": "cannon", "mark_field": None, "mark_default": None, "title_fields": []},
}
#: a saved file's name when the battle has no title
FILE_STEM = "fort"


def field_data(form: Form, field: Field, lang: str, required: bool | None = None) -> dict[str, Any]:
    """One field as the page shows it."""
    values = choice_values(field)
    choices = [[v, choice_text(field, v, lang)] for v in values] if values is not None else None
    return {
        "name": field.name,
        "label": label(form, field, lang),
        "help": help_text(form, field, lang),
        "choices": choices,
        "numeric": field.option.type is OptType.INT,
        "check": field.option.type is OptType.BOOL,
        "required": field.required if required is None else required,
        "default": field.default,
        "when": {name: list(allowed) for name, allowed in field.when} or None,
    }


def kinds(lang: str) -> list[dict[str, Any]]:
    """Each list of elements, in the page's order: its heading (``title``), one element's word
    (``one``), its add button's words (``add``), its mark and the fields that name one."""
    out = []
    for kind in LISTS:
        words = {part: t(f"fort.prep.kind.{kind}.{part}", lang) for part in ("title", "one", "add")}
        out.append({"kind": kind, **words, **_KINDS[kind]})
    return out


def _odds_form() -> Form:
    from bot.rulesets.fort.commands import ODDS

    fields = []
    for option in ODDS.options:
        shown = option.default if option.type is OptType.CHOICE else None
        fields.append(Field(option.name, option, path=ODDS.path, default=shown))
    return Form("odds", ODDS.path, None, tuple(fields))


@cache
def fields(lang: str) -> dict[str, Any]:
    """Each form's fields (``settings``, each list kind, ``sheet``, ``odds``): name, label, help,
    choices ([value, words]) or None, numeric, check, required, default, when; and ``kinds``."""
    out: dict[str, Any] = {"settings": [field_data(SETTINGS, f, lang) for f in SETTINGS.fields]}
    for kind, form in FORMS.items():
        out[kind] = [field_data(form, f, lang) for f in form.fields]
    units = FORMS["units"]
    out["sheet"] = [
        field_data(units, f, lang, required=False) for f in units.fields if f.name in SHEET_FIELDS
    ]
    odds = _odds_form()
    out["odds"] = [field_data(odds, f, lang, required=False) for f in odds.fields]
    out["kinds"] = kinds(lang)
    return out


def page_data(lang: str) -> dict[str, Any]:
    """What the page's template and script are built from (``PrepBinding.page_data``)."""
    every = fields(lang)
    return {
        "fields": {k: v for k, v in every.items() if k != "kinds"},
        "kinds": every["kinds"],
        "words": {},  # the page's own words are the shell's (bot.prep.handlers.SHELL_WORDS)
        "lang": lang,
        "file_stem": FILE_STEM,
    }


@cache
def mark_png(kind: str) -> bytes | None:
    """The map's mark of ``kind`` on a chip, as the picture draws it (None: no such mark)."""
    if kind not in MARK_KINDS:
        return None
    from PIL import Image, ImageDraw

    from bot.render.picture import theme
    from bot.rulesets.fort.pictures.marks import draw_mark, shell

    image = Image.new("RGB", (MARK_PX, MARK_PX), theme.CHIP)
    draw = ImageDraw.Draw(image)
    if kind == "cannon":
        shell(draw, MARK_PX / 2, MARK_PX / 2, MARK_PX * 0.5, True)
    else:
        draw_mark(draw, kind, MARK_PX / 2, MARK_PX / 2, MARK_PX * 0.7)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
