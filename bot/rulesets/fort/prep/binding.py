"""The fort's prep page binding (``RuleSet.prep``): the page builds a fort battle (``toride prep``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import SheetSource
from bot.prep.binding import PrepBinding
from bot.rulesets.fort.prep import build, page
from engine.fort.export import export_state


def sheet(
    source: SheetSource, form: Mapping[str, Any], draft: Mapping[str, Any], lang: str
) -> dict[str, Any]:
    """The units of a monster sheet in the battle of ``draft``, as the page's rows of units."""
    settings, _ = build.compose({**draft, **{k: [] for k in build.LISTS}}, lang)
    checked = build.sheet_units(source, form, settings, lang)
    answer = checked.to_json()
    if checked.document is not None:
        answer["items"] = build.forms_of(checked.document)["units"]
    return answer


PREP = PrepBinding(
    html_page=page.html_page,
    mark_png=page.mark_png,
    new_document=lambda: {"rounds": 3},
    imported=build.imported,
    forms_of=build.forms_of,
    draft_of=lambda state: build.forms_of(export_state(state)),
    check=build.check,
    sheet=sheet,
)
