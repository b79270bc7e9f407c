"""A rule set's status screen in parts (its head, its lists, its tail), so that a front-end with little
room (Discord's live status message, ``bot.discord.live_layout.parts_message``) can show each list cut
to its share and render only the rows it shows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class StatusPart:
    """A list of the status screen: its heading line and its rows, each made when it is read (so a
    front-end that shows only the first rows renders only those); ``count`` says how many."""

    heading: str
    rows: Iterator[str]
    count: int


@dataclass(frozen=True)
class StatusParts:
    head: list[str]
    parts: list[StatusPart]
    tail: list[str]

    def text(self) -> str:
        """The whole screen as text: the head, each list under its heading, the tail (the console's, and
        ``/status`` in an embed). Its rows are read once: a ``StatusParts`` is shown once."""
        lines = list(self.head)
        for part in self.parts:
            lines.append(part.heading)
            lines.extend(part.rows)
        return "\n".join(lines + self.tail)
