"""A battle's state document, serialised piece by piece, and the change between two of them.

A state document is a JSON object whose values are scalars, objects, or lists of items (a fort's
units, PCs, traps ...). ``encode`` serialises one, reusing the JSON text of every item (and top-level
value) that is the very object the previous encoding had, so that a command that changed one unit of
a hundred serialises one unit. ``diff`` gives the change from one encoding to the next as a *patch*:
the top-level values replaced (old and new) and, per list, the runs of items replaced (old and new),
so that ``apply`` can go forward (redo, replay from a snapshot) or back (undo), exactly. A patch
grows with what the command changed, not with the battle.

Patch (JSON): ``{"o": {key: old}, "v": {key: new}, "l": {key: [[start, [old items], [new items]], ...]}}``
(``o`` holds keys present before that changed or went, ``v`` keys present after that changed or
came; ``l`` the lists present on both sides; each part left out when empty). List runs are given in
the old list's positions, in increasing order, without overlap.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Patch = dict[str, Any]


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(slots=True)
class Encoded:
    """A document and its JSON text, with the text of each top-level value and list item."""

    doc: dict[str, Any]
    #: top-level key → its value's JSON text (a list's: None, its items are in ``items``)
    values: dict[str, str | None]
    #: top-level list key → each item's JSON text
    items: dict[str, list[str]]
    _text: str | None = None

    @property
    def text(self) -> str:
        """The whole document as JSON (what ``json.dumps`` gives, compact, non-ASCII kept)."""
        if self._text is None:
            parts = []
            for key, fragment in self.values.items():
                if fragment is None:
                    fragment = "[" + ",".join(self.items[key]) + "]"
                parts.append(dumps(key) + ":" + fragment)
            self._text = "{" + ",".join(parts) + "}"
        return self._text


def encode(doc: dict[str, Any], previous: Encoded | None = None) -> Encoded:
    """``doc`` serialised, reusing ``previous``'s text of every value or item that is the same object."""
    values: dict[str, str | None] = {}
    items: dict[str, list[str]] = {}
    known: dict[int, str] = {}
    old_doc: dict[str, Any] = {}
    if previous is not None:
        old_doc = previous.doc
        for key, texts in previous.items.items():
            for item, text in zip(old_doc[key], texts, strict=True):
                known[id(item)] = text
    for key, value in doc.items():
        if isinstance(value, list):
            values[key] = None
            items[key] = [known.get(id(item)) or dumps(item) for item in value]
        elif key in old_doc and old_doc[key] is value and previous is not None:
            values[key] = previous.values[key]
        else:
            values[key] = dumps(value)
    return Encoded(doc, values, items)


def diff(old: Encoded, new: Encoded) -> Patch:
    """The patch that turns ``old`` into ``new`` (``{}``: nothing changed)."""
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    lists: dict[str, list[list[Any]]] = {}
    for key, value in old.doc.items():
        if key not in new.doc:
            before[key] = value
    for key, value in new.doc.items():
        if key not in old.doc:
            after[key] = value
        elif key in old.items and key in new.items:
            runs = _list_runs(old.doc[key], old.items[key], value, new.items[key])
            if runs:
                lists[key] = runs
        elif key in old.items or key in new.items or old.values[key] != new.values[key]:
            before[key], after[key] = old.doc[key], value
    patch: Patch = {}
    if before:
        patch["o"] = before
    if after:
        patch["v"] = after
    if lists:
        patch["l"] = lists
    return patch


def _list_runs(old: list[Any], old_texts: list[str], new: list[Any], new_texts: list[str]) -> list[list[Any]]:
    def same(i: int, j: int) -> bool:
        return old[i] is new[j] or old_texts[i] == new_texts[j]

    if len(old) == len(new):
        runs: list[list[Any]] = []
        i = 0
        while i < len(old):
            if same(i, i):
                i += 1
                continue
            start = i
            while i < len(old) and not same(i, i):
                i += 1
            runs.append([start, old[start:i], new[start:i]])
        return runs
    prefix = 0
    shortest = min(len(old), len(new))
    while prefix < shortest and same(prefix, prefix):
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and same(len(old) - 1 - suffix, len(new) - 1 - suffix):
        suffix += 1
    return [[prefix, old[prefix : len(old) - suffix], new[prefix : len(new) - suffix]]]


def apply(doc: dict[str, Any], patch: Patch, *, reverse: bool = False) -> dict[str, Any]:
    """``doc`` with ``patch`` applied (``reverse``: taken back); ``doc`` itself is left as it was."""
    gone, came = (
        (patch.get("v", {}), patch.get("o", {})) if reverse else (patch.get("o", {}), patch.get("v", {}))
    )
    out = {key: value for key, value in doc.items() if key not in gone or key in came}
    out.update(came)
    for key, runs in patch.get("l", {}).items():
        items = list(out[key])
        if reverse:
            # runs are in the old list's positions: find each in the new one, then put the old back
            shift, placed = 0, []
            for start, old_items, new_items in runs:
                placed.append((start + shift, new_items, old_items))
                shift += len(new_items) - len(old_items)
        else:
            placed = [(start, old_items, new_items) for start, old_items, new_items in runs]
        for start, remove, insert in reversed(placed):
            items[start : start + len(remove)] = insert
        out[key] = items
    return out
