"""A battle's state document, serialised piece by piece, and the change between two of them.

A state document is a JSON object whose values are scalars, objects, or lists of items (a fort's
units, PCs, traps ...). ``encode`` serialises one, reusing the JSON text of every item (and top-level
value) that is the very object the previous encoding had, so that a command that changed one unit of
a hundred serialises one unit. ``diff`` gives the change from one encoding to the next as a *patch*:
the top-level values replaced (old and new) and, per list, the runs of items replaced (old and new),
so that ``apply`` can go forward (redo, replay from a snapshot) or back (undo), exactly. A patch
grows with what the command changed, not with the battle.

Patch (JSON): ``{"o": {key: old}, "v": {key: new}, "l": {key: [run, ...]}}`` (``o`` holds keys
present before that changed or went, ``v`` keys present after that changed or came; ``l`` the lists
present on both sides; each part left out when empty). A run is ``[start, [old items], [new items]]``
(in the old list's positions, in increasing order, without overlap), or, for one object of a list
that kept its length, ``{"i": index, "o": {field: old}, "v": {field: new}}``.
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
    def size(self) -> int:
        """How long ``text`` is (without building it)."""
        if self._text is not None:
            return len(self._text)
        total = 2 + max(len(self.values) - 1, 0)  # the braces and the commas between values
        for key, fragment in self.values.items():
            total += _key_length(key) + 1
            if fragment is None:
                texts = self.items[key]
                total += 1 + sum(map(len, texts)) + max(len(texts), 1)
            else:
                total += len(fragment)
        return total

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


_KEY_LENGTHS: dict[str, int] = {}


def _key_length(key: str) -> int:
    length = _KEY_LENGTHS.get(key)
    if length is None:
        length = _KEY_LENGTHS[key] = len(dumps(key))
    return length


def encode(doc: dict[str, Any], previous: Encoded | None = None) -> Encoded:
    """``doc`` serialised, reusing ``previous``'s text of every value or item that is the same object."""
    values: dict[str, str | None] = {}
    items: dict[str, list[str]] = {}
    old_doc = previous.doc if previous is not None else {}
    for key, value in doc.items():
        old = old_doc.get(key)
        if isinstance(value, list):
            values[key] = None
            if previous is None or key not in previous.items or not isinstance(old, list):
                items[key] = [dumps(item) for item in value]
            elif old is value:
                items[key] = previous.items[key]
            else:
                items[key] = _item_texts(value, old, previous.items[key])
        elif previous is not None and old is value and key in old_doc:
            values[key] = previous.values[key]
        else:
            values[key] = dumps(value)
    return Encoded(doc, values, items)


def _item_texts(new: list[Any], old: list[Any], old_texts: list[str]) -> list[str]:
    """Each item's text: the old one where the item is the same object (in place, else anywhere)."""
    if len(new) == len(old):
        return [old_texts[i] if item is old[i] else dumps(item) for i, item in enumerate(new)]
    known = {id(item): text for item, text in zip(old, old_texts, strict=True)}
    return [known.get(id(item)) or dumps(item) for item in new]


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


def _fields(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """One object's change: ``o`` the keys that changed or went (old values), ``v`` those that changed
    or came (new values)."""
    gone = {k: v for k, v in before.items() if k not in after or not _same(after[k], v)}
    came = {k: v for k, v in after.items() if k not in before or not _same(before[k], v)}
    out: dict[str, Any] = {}
    if gone:
        out["o"] = gone
    if came:
        out["v"] = came
    return out


def _same(a: Any, b: Any) -> bool:
    """Whether two JSON values have the same text: ``==`` with the types too (``0 == False`` and
    ``1 == 1.0`` in Python, not in JSON)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(value, b[key]) for key, value in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _changed(doc: dict[str, Any], change: dict[str, Any], reverse: bool) -> dict[str, Any]:
    gone, came = (
        (change.get("v", {}), change.get("o", {})) if reverse else (change.get("o", {}), change.get("v", {}))
    )
    out = {key: value for key, value in doc.items() if key not in gone or key in came}
    out.update(came)
    return out


def _list_runs(old: list[Any], old_texts: list[str], new: list[Any], new_texts: list[str]) -> list[Any]:
    def same(i: int, j: int) -> bool:
        return old[i] is new[j] or old_texts[i] == new_texts[j]

    if len(old) == len(new):
        runs: list[Any] = []
        for i, (before, after) in enumerate(zip(old, new, strict=True)):
            if same(i, i):
                continue
            if isinstance(before, dict) and isinstance(after, dict):
                runs.append({"i": i, **_fields(before, after)})
            else:
                runs.append([i, [before], [after]])
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
    out = _changed(doc, patch, reverse)
    for key, runs in patch.get("l", {}).items():
        items = list(out[key])
        placed = []
        shift = 0  # reverse: runs are in the old list's positions; find each in the new one
        for run in runs:
            if isinstance(run, dict):  # one object's fields: the list keeps its length
                items[run["i"]] = _changed(items[run["i"]], run, reverse)
                continue
            start, old_items, new_items = run
            if reverse:
                placed.append((start + shift, new_items, old_items))
                shift += len(new_items) - len(old_items)
            else:
                placed.append((start, old_items, new_items))
        for start, remove, insert in reversed(placed):
            items[start : start + len(remove)] = insert
        out[key] = items
    return out
