"""Typed errors of the engine: a message key and values, never a sentence."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class EngineError(Exception):
    """Base of every error the engine raises on purpose.

    ``key`` names a message in the front-ends' catalogues (``dice.unknown_command``);
    ``values`` fill that message's placeholders. ``field`` (given as ``about=``) is the one field of the
    command or the document the refusal is about, where it is about one (``RuleError(
    "fort.trap_uses_invalid", about="uses", uses=0, max=99)``): a front-end that shows a form puts the
    refusal beside that field. It is no value of the sentence (a sentence's own ``{field}`` is one, as
    ``sheet.value_invalid``'s), so it is spelt apart, and no sentence has an ``{about}``.
    """

    def __init__(self, key: str, **values: Any) -> None:
        about = values.pop("about", None)
        super().__init__(key, values)
        self.key = key
        self.values: dict[str, Any] = values
        self.field: str | None = about if isinstance(about, str) else None

    def __str__(self) -> str:
        if not self.values:
            return self.key
        args = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"{self.key}({args})"


@contextmanager
def about(field: str) -> Iterator[None]:
    """The refusals raised inside are about ``field`` (those that name no field of their own):
    ``with about("area"): area = parse_area(cmd.area)``."""
    try:
        yield
    except EngineError as error:
        if error.field is None:
            error.field = field
        raise
