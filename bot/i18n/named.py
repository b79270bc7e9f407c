"""A value that names something a reader reads in their own words (a command, an option, a choice):
``bot.i18n.t`` shows each such value in the sentence's language (``shown``)."""

from __future__ import annotations

from collections.abc import Mapping


class Named:
    """A value shown in the reader's language (``text``); ``str`` is its English form (logs).
    ``markup``: its text is Discord markup already (a mention), not to be escaped."""

    markup = False

    def text(self, lang: str) -> str:
        raise NotImplementedError

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
