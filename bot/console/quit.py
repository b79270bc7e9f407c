"""``/quit``: known before the session has loaded, so a console told to quit at once loads no more."""

from __future__ import annotations

QUIT_WORDS = frozenset({"/quit", "/exit"})


class Quit(Exception):
    """``/quit``: the session ends."""


def is_quit(line: str) -> bool:
    """Whether a line is ``/quit`` or ``/exit`` (any case, blanks around it, a UTF-8 BOM before it)."""
    return line.removeprefix("\ufeff").strip().casefold() in QUIT_WORDS
