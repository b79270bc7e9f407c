"""Message catalogues (``bot.i18n.catalogue``): every sentence a user reads, per language (``ja``
default, ``en``); commands, options and choices in the reader's own words (``marks``, ``names``); words
that depend on a sentence's values (``words``)."""

from bot.i18n.catalogue import (
    DEFAULT_LANG,
    LANGUAGES,
    catalogue,
    catalogue_files,
    fill,
    folders,
    has,
    placeholders,
    raw_catalogue,
    t,
    use_folders,
)

__all__ = [
    "DEFAULT_LANG",
    "LANGUAGES",
    "catalogue",
    "catalogue_files",
    "fill",
    "folders",
    "has",
    "placeholders",
    "raw_catalogue",
    "t",
    "use_folders",
]
