"""A sheet given to a command: ``sheet:`` (a URL the front-end fetched, or a file's text) or ``file:`` (an
attachment), read as a ゆとシートⅡ character or monster sheet (``engine.sheets``), every mistake in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.jsonread import JsonRefused, load_json
from bot.commands.model import SheetSource, UserError
from bot.i18n.names import OptionName
from engine.sheets.model import MonsterSheet
from engine.sheets.ytsheet import CharacterRead, read_sheet

__all__ = ["read_given"]


def read_given(values: Mapping[str, Any]) -> CharacterRead | MonsterSheet | None:
    """The sheet of ``sheet:`` (a URL fetched, or a file) or ``file:`` (an attachment), None if neither."""
    source: SheetSource | None = values.get("sheet")
    text: str | None = values.get("file")
    if source is not None and text is not None:
        raise UserError("sheet.both_given")
    given = "sheet"
    if source is None:
        if text is None:
            return None
        source, given = SheetSource(text), "file"
    # what was not JSON: the file or URL by its name, else the option as the reader's client names it
    not_json = (
        UserError("sheet.not_json", source=source.source)
        if source.source
        else UserError("sheet.not_json.given", option=OptionName(given))
    )
    try:
        document = load_json(source.text)
    except JsonRefused as refused:  # too deep, a number no sheet means, a lone surrogate
        raise UserError(refused.key, option="sheet", **refused.values) from None
    except ValueError:
        raise not_json from None
    if not isinstance(document, dict):
        raise not_json
    return read_sheet(document, source.source)
