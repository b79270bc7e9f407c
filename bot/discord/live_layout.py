"""The live status message fits one Discord message, and shows the whole battle in it.

Discord's limits for one message: 6,000 characters over all its embeds (titles, descriptions, field
names and values, footers, authors), at most 10 embeds, 25 fields an embed, 4,096 characters a
description, 1,024 a field value, 256 a title. A rule set's live renderer first tries its full status
(``whole``: its lines are read one by one and the attempt stops as soon as they pass one message), and
otherwise shows every part of the battle in a compact form (``fill``): each part's summary lines and
as many of its entries, most important first, as a fair share of the room allows, then a line saying
how many were left out. Entries are rendered as they are read, so only what is sent is rendered (and
at most one line a part that did not fit).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import discord

from bot.discord import limits
from bot.render.status_parts import StatusParts

#: what the compact form keeps free besides its parts (rounding, a field split by a long line)
SLACK = 64


@dataclass
class LiveMessage:
    """The live status message's embeds; ``compact`` if it leaves out entries (the full status is
    then one button or ``/... status`` away)."""

    embeds: list[discord.Embed]
    compact: bool = False


#: the longest entry line of the compact form by default
ENTRY_MAX = 100


@dataclass
class Part:
    """One part of the compact form: its summary lines (always shown), its entries in the order they
    matter (rendered as they are read), how many entries there are, and the line for ``n`` left out.

    An entry is ``(group, line)``: the lines shown are sorted by group (stably), so entries can be
    read in an order of importance (a few of each kind in turn) and shown in the order of the full
    status."""

    name: str
    head: list[str]
    entries: Iterator[tuple[int, str]]
    count: int
    more: Callable[[int], str]
    #: the longest an entry may be (a longer one is cut, its end left to the full status)
    width: int = ENTRY_MAX
    shown: list[tuple[int, str]] = field(default_factory=list)
    _pending: tuple[int, str] | None = None
    _done: bool = False

    def reserve(self) -> int:
        """The room its summary and its "n more" line need whatever it shows."""
        return sum(len(line) + 1 for line in self.head) + (
            len(self.more(self.count)) + 1 if self.count else 0
        )

    def used(self) -> int:
        return sum(len(line) + 1 for _, line in self.shown)

    def take(self, room: int) -> int:
        """Entries while they fit in ``room`` characters; the characters they took."""
        spent = 0
        while not self._done:
            if self._pending is None:
                entry = next(self.entries, None)
                if entry is None:
                    self._done = True
                    break
                self._pending = (entry[0], limits.shorten(entry[1], self.width))
            cost = len(self._pending[1]) + 1
            if spent + cost > room:
                break
            self.shown.append(self._pending)
            self._pending = None
            spent += cost
        return spent

    @property
    def done(self) -> bool:
        return self._done

    def lines(self) -> list[str]:
        left = self.count - len(self.shown)
        shown = [line for _, line in sorted(self.shown, key=lambda entry: entry[0])]
        return [*self.head, *shown, *([self.more(left)] if left > 0 else [])]


def in_turn(*groups: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Entries one of each group in turn (a group that runs out drops out), tagged with their group:
    every kind gets room, each shown in the group's place."""
    readers = [(n, iter(group)) for n, group in enumerate(groups)]
    while readers:
        for reader in list(readers):
            line = next(reader[1], None)
            if line is None:
                readers.remove(reader)
            else:
                yield reader[0], line


def in_order(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Entries in the order given."""
    return ((0, line) for line in lines)


def fill(parts: Sequence[Part], room: int, cap: int | None = limits.FIELD_VALUE) -> list[list[str]]:
    """Each part's lines within ``room`` characters in all (and ``cap`` each): every summary, then
    entries by equal shares, the room a part did not need going to those that still have entries."""
    left = room - sum(part.reserve() for part in parts)
    while left > 0:
        open_parts = [p for p in parts if not p.done]
        if not open_parts:
            break
        share = left // len(open_parts)
        spent = 0
        for part in open_parts:
            allowance = share
            if cap is not None:
                allowance = min(allowance, cap - part.reserve() - part.used())
            spent += part.take(max(0, allowance))
        if spent == 0:
            break
        left -= spent
    return [part.lines() for part in parts]


def whole(room: int, sections: Iterable[tuple[str, Iterable[str]]]) -> list[tuple[str, str, bool]] | None:
    """The fields of the full status if they fit in ``room`` characters, else None (reading stops at
    the first line past it)."""
    fields: list[tuple[str, str, bool]] = []
    for name, lines in sections:
        taken: list[str] = []
        for line in lines:
            room -= len(line) + 1
            if room < 0 or len(line) > limits.FIELD_VALUE:  # a field would cut that line short
                return None
            taken.append(line)
        made = limits.fields_of(name, taken)
        room -= sum(len(n) for n, _, _ in made)
        if room < 0:
            return None
        fields += made
    return fields


def size(embeds: Sequence[discord.Embed]) -> int:
    """The characters Discord counts towards a message's 6,000."""
    return sum(len(embed) for embed in embeds)


def fits(embeds: Sequence[discord.Embed]) -> bool:
    """Do ``embeds`` make one message within Discord's limits?"""
    return (
        0 < len(embeds) <= limits.EMBEDS
        and size(embeds) <= limits.TOTAL
        and all(
            len(e.fields) <= limits.FIELDS
            and len(e.description or "") <= limits.DESCRIPTION
            and len(e.title or "") <= limits.TITLE
            and all(
                len(f.value or "") <= limits.FIELD_VALUE and len(f.name or "") <= limits.FIELD_NAME
                for f in e.fields
            )
            for e in embeds
        )
    )


def first_message(embeds: list[discord.Embed], note: str) -> LiveMessage:
    """A rule set without a live renderer: its full status if it fits, else its first message with
    ``note`` (where the rest is)."""
    if fits(embeds):
        return LiveMessage(embeds)
    shown = limits.messages(embeds)[0]
    while shown and size(shown) + len(note) + 1 > limits.TOTAL:
        shown.pop()
    last = shown[-1] if shown else discord.Embed()
    last.set_footer(text=note)
    return LiveMessage(shown or [last], compact=True)


#: the longest row of a status screen's list in the compact form (a row with many marks is cut after them)
ROW_MAX = 200


def _lines_size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def parts_message(shown: StatusParts, colour: int, note: str, more: Callable[[int], str]) -> LiveMessage:
    """A live status message from a status screen in parts (``bot.render.status_parts``): the whole
    screen if it fits one embed, else each list cut to its share of the room in the screen's order,
    with how many were left out (``more``), after ``note``; the head and the tail always. The rows read
    while trying the whole screen are not made again."""
    title, *head = shown.head
    room = limits.DESCRIPTION - _lines_size(head) - _lines_size(shown.tail)
    read: list[list[str]] = []  # each list's heading and the rows read so far
    whole = True
    for part in shown.parts:
        rows = [part.heading]
        read.append(rows)
        room -= len(part.heading) + 1
        for row in part.rows:
            rows.append(row)
            room -= len(row) + 1
            if room < 0:
                whole = False
                break
        if not whole:
            break
    if whole:
        lines = [*head, *(row for rows in read for row in rows), *shown.tail]
        embeds = limits.build(title=title, lines=lines, colour=colour)
        if fits(embeds) and len(embeds) == 1:
            return LiveMessage(embeds)
    parts = []
    for n, part in enumerate(shown.parts):
        before = read[n][1:] if n < len(read) else []
        entries = in_order(itertools.chain(before, part.rows))
        parts.append(Part(part.heading, [part.heading], entries, part.count, more, width=ROW_MAX))
    room = limits.DESCRIPTION - _lines_size(head) - _lines_size(shown.tail) - len(note) - 1 - SLACK
    lists = fill(parts, room, cap=None)
    lines = [*head, note, *(line for part in lists for line in part), *shown.tail]
    return LiveMessage(limits.build(title=title, lines=lines, colour=colour), compact=True)
