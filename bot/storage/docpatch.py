"""A battle's state document, serialised piece by piece, and the change between two of them.

A state document is a JSON object whose values are scalars, objects, or lists of items (a fort's
units, PCs, traps ...). ``encode`` serialises one into the JSON text of each top-level value and list
item (``Encoded``; the document is not kept). A list may be given as ``Items``, the elements of a
state and how each becomes an item: then only the elements that are not the very objects of the
previous encoding are made into items and serialised, so that a command that changed one unit of a
hundred exports and serialises one unit. ``diff`` gives the change from one encoding to the next as
a *patch*, reading the items whose text changed back from it: the top-level values replaced (old and
new) and, per list, the runs of items replaced (old and new), so that ``apply`` can go forward (redo,
replay from a snapshot) or back (undo), exactly. A patch grows with what the command changed, not
with the battle.

Patch (JSON): ``{"o": {key: old}, "v": {key: new}, "l": {key: [run, ...]}}`` (``o`` holds keys
present before that changed or went, ``v`` keys present after that changed or came; ``l`` the lists
present on both sides; each part left out when empty). A run is ``[start, [old items], [new items]]``
(in the old list's positions, in increasing order, without overlap), or, for one object of a list
that kept its length, ``{"i": index, "o": {field: old}, "v": {field: new}}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Patch = dict[str, Any]


#: ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, without making an encoder each call
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(value: Any) -> str:
    """``value`` as compact JSON, non-ASCII kept."""
    return _ENCODER.encode(value)


@dataclass(frozen=True, slots=True)
class Items:
    """A list of a document made from elements (a state's units ...): an item is ``make(element)``.

    ``encode`` makes and serialises only the elements that are not the very objects of the previous
    encoding (the state is immutable: the same element has the same item); the others keep their text.
    """

    elements: Sequence[Any]
    make: Callable[[Any], Any]


@dataclass(slots=True)
class Encoded:
    """A document as the JSON text of each top-level value and list item (the document itself is not
    kept: ``diff`` reads the few items that changed back from their text)."""

    #: top-level key → its value's JSON text (a list's: None, its items are in ``items``)
    values: dict[str, str | None]
    #: top-level list key → each item's JSON text
    items: dict[str, list[str]]
    #: list key → the elements its items were made from (``Items``), for the next encoding to reuse
    sources: dict[str, Sequence[Any]]

    @property
    def size(self) -> int:
        """How long ``text`` is (without building it)."""
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
        """The whole document as JSON (what ``json.dumps`` gives, compact, non-ASCII kept), built on
        each call (not kept beside the pieces)."""
        parts = []
        for key, fragment in self.values.items():
            if fragment is None:
                fragment = "[" + ",".join(self.items[key]) + "]"
            parts.append(dumps(key) + ":" + fragment)
        return "{" + ",".join(parts) + "}"

    def value(self, key: str) -> Any:
        """The top-level value of ``key``, read back from its text."""
        fragment = self.values[key]
        if fragment is None:
            return [json.loads(text) for text in self.items[key]]
        return json.loads(fragment)

    def document(self) -> dict[str, Any]:
        """The whole document, read back from its text."""
        loaded: dict[str, Any] = json.loads(self.text)
        return loaded


_KEY_LENGTHS: dict[str, int] = {}


def _key_length(key: str) -> int:
    length = _KEY_LENGTHS.get(key)
    if length is None:
        length = _KEY_LENGTHS[key] = len(dumps(key))
    return length


def encode(doc: Mapping[str, Any], previous: Encoded | None = None) -> Encoded:
    """``doc`` serialised; a list given as ``Items`` reuses ``previous``'s text of each item made from
    the same element (the others are made and serialised)."""
    values: dict[str, str | None] = {}
    items: dict[str, list[str]] = {}
    sources: dict[str, Sequence[Any]] = {}
    for key, value in doc.items():
        if isinstance(value, Items):
            values[key] = None
            old = previous.sources.get(key) if previous is not None else None
            if old is None:
                items[key] = [dumps(value.make(element)) for element in value.elements]
            else:
                assert previous is not None
                items[key] = _item_texts(value, old, previous.items[key])
            sources[key] = value.elements
        elif isinstance(value, list):
            values[key] = None
            items[key] = [dumps(item) for item in value]
        else:
            values[key] = dumps(value)
    return Encoded(values, items, sources)


def _item_texts(new: Items, old: Sequence[Any], old_texts: list[str]) -> list[str]:
    """Each item's text: the old one where its element is the same object (in place, else anywhere;
    ``old`` is alive, so an id names one object)."""
    make, elements = new.make, new.elements
    texts = []
    known: dict[int, str] | None = None
    for i, element in enumerate(elements):
        if i < len(old) and element is old[i]:
            texts.append(old_texts[i])
            continue
        if known is None:
            known = {id(e): text for e, text in zip(old, old_texts, strict=True)}
        texts.append(known.get(id(element)) or dumps(make(element)))
    return texts


def diff(old: Encoded, new: Encoded) -> Patch:
    """The patch that turns ``old`` into ``new`` (``{}``: nothing changed); what changed is read back
    from its text, the same values as the documents had."""
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    lists: dict[str, list[list[Any]]] = {}
    for key in old.values:
        if key not in new.values:
            before[key] = old.value(key)
    for key, fragment in new.values.items():
        if key not in old.values:
            after[key] = new.value(key)
        elif key in old.items and key in new.items:
            runs = _list_runs(old.items[key], new.items[key])
            if runs:
                lists[key] = runs
        elif key in old.items or key in new.items or old.values[key] != fragment:
            before[key], after[key] = old.value(key), new.value(key)
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


def _list_runs(old: list[str], new: list[str]) -> list[Any]:
    """The runs of items replaced, from the items' texts (the same text: the same item)."""
    loads = json.loads
    if len(old) == len(new):
        runs: list[Any] = []
        for i, (text_before, text_after) in enumerate(zip(old, new, strict=True)):
            if text_before == text_after:
                continue
            before, after = loads(text_before), loads(text_after)
            if isinstance(before, dict) and isinstance(after, dict):
                runs.append({"i": i, **_fields(before, after)})
            else:
                runs.append([i, [before], [after]])
        return runs
    prefix = 0
    shortest = min(len(old), len(new))
    while prefix < shortest and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    removed = [loads(text) for text in old[prefix : len(old) - suffix]]
    return [[prefix, removed, [loads(text) for text in new[prefix : len(new) - suffix]]]]


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
