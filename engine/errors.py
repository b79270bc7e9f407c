"""Typed errors of the engine: a message key and values, never a sentence."""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base of every error the engine raises on purpose.

    ``key`` names a message in the front-ends' catalogues (``dice.unknown_command``);
    ``values`` fill that message's placeholders.
    """

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key, values)
        self.key = key
        self.values: dict[str, Any] = values

    def __str__(self) -> str:
        if not self.values:
            return self.key
        args = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"{self.key}({args})"
