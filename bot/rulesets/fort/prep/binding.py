"""The fort's prep page binding (``RuleSet.prep``): the page builds a fort battle (``toride prep``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import SheetSource
from bot.prep.binding import PrepBinding
from bot.rulesets.fort.prep import build, changes, page
from engine.fort.export import export_state


def sheet(source: SheetSource, form: Any, draft: Any, lang: str) -> dict[str, Any]:
    """The units of a monster sheet in the battle of ``draft``, as the page's elements of units
    (``items``); any JSON value as ``form`` or ``draft`` is refused in words (``PrepBinding.sheet``)."""
    settings = {
        k: v for k, v in (draft.items() if isinstance(draft, Mapping) else ()) if k not in build.LISTS
    }
    doc, _ = build.compose(settings, lang)
    checked = build.sheet_units(source, form, doc, lang)
    answer = checked.to_json()
    answer.pop("drawable", None)
    if checked.document is not None:
        answer["items"] = build.forms_of(checked.document)["units"]
    return answer


def picture(document: Mapping[str, Any], lang: str) -> tuple[bytes, dict[str, Any]]:
    """The battlefield of a document and its hit regions (``PrepBinding.picture``)."""
    from bot.rulesets.fort.pictures.regions import map_with_regions  # Pillow loads with it

    return map_with_regions(document, lang)


def new_document() -> dict[str, Any]:
    """A new battle's document (``PrepBinding.new_document``)."""
    return {"rounds": build.DEFAULT_ROUNDS}


PREP = PrepBinding(
    page_data=page.page_data,
    mark_png=page.mark_png,
    new_document=new_document,
    imported=build.imported,
    forms_of=build.forms_of,
    draft_of=lambda state: build.forms_of(export_state(state)),
    check=build.check,
    sheet=sheet,
    picture=picture,
    changes=changes.changes,
    import_command="fort import",
    file_stem=page.FILE_STEM,
)
