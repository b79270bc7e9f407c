"""A value that names something a reader reads in their own words (a command, an option, a choice):
``bot.i18n.t`` shows each such value in the sentence's language (``shown``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping


class Named:
    """A value shown in the reader's language (``text``); ``str`` is its English form (logs).
    ``escaped``: its text where Discord renders markup (``escape`` neutralises a user's text)."""

    def text(self, lang: str) -> str:
        raise NotImplementedError

    def escaped(self, lang: str, escape: Callable[[str], str]) -> str:
        """The text for Discord: escaped as a whole, unless the value marks up parts of it itself."""
        return escape(self.text(lang))

    def __str__(self) -> str:
        return self.text("en")

    def __eq__(self, other: object) -> bool:
        """Equal to its English text (a refusal's values compare as they read in English) or to a like
        value naming the same thing."""
        if isinstance(other, str):
            return str(self) == other
        return type(other) is type(self) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


def shown(values: Mapping[str, object], lang: str) -> dict[str, object]:
    """``values`` with each ``Named`` one in the words of ``lang``."""
    return {k: v.text(lang) if isinstance(v, Named) else v for k, v in values.items()}
