"""docpatch: a document's text built piece by piece is ``json.dumps``'s; a patch goes forward and back
exactly, for any two documents, and holds only what changed; it is the patch the diff of the
documents themselves gave (before issue 22 an encoding kept its document), so the rows stored are
the same; an ``Items`` list exports only the elements that are not the previous encoding's."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage.docpatch import Items, apply, diff, dumps, encode


def exact(value: Any) -> str:
    """A JSON value's text with its keys sorted: equal only when the JSON is (``0`` is not ``false``)."""
    return json.dumps(value, sort_keys=True)


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-1000, 1000), st.sampled_from([0.0, 1.0, 2.5]), st.text(max_size=5)
)
items = st.one_of(
    scalars,
    st.dictionaries(
        st.sampled_from("abcde"),
        st.one_of(scalars, st.lists(scalars, max_size=2), st.dictionaries(st.sampled_from("pq"), scalars)),
        max_size=4,
    ),
)
values = st.one_of(scalars, st.lists(items, max_size=6), st.dictionaries(st.sampled_from("xy"), scalars))
documents = st.dictionaries(st.sampled_from(["units", "pcs", "title", "round", "fort", "名前"]), values)


@settings(max_examples=300, deadline=None)
@given(old=documents, new=documents)
def test_a_patch_goes_forward_and_back_exactly(old: dict[str, Any], new: dict[str, Any]) -> None:
    before, after = encode(old), encode(new)
    patch = diff(before, after)
    assert exact(apply(old, patch)) == exact(new)
    assert exact(apply(new, patch, reverse=True)) == exact(old)
    # a change of the JSON is never lost, and equal texts make no patch (keys only reordered inside
    # a value may make one: the patch is of the values' texts)
    if exact(old) != exact(new):
        assert patch != {}
    if dumps(old) == dumps(new):
        assert patch == {}
    assert before.text == dumps(old) and before.size == len(dumps(old))


@settings(max_examples=200, deadline=None)
@given(old=documents, data=st.data())
def test_reused_items_keep_their_text_and_a_change_is_what_the_patch_holds(
    old: dict[str, Any], data: st.DataObject
) -> None:
    """A new document sharing most items with the old one (as an export with a memo does)."""
    new = dict(old)
    for key, value in old.items():
        if isinstance(value, list) and value and data.draw(st.booleans()):
            changed = list(value)
            changed[data.draw(st.integers(0, len(value) - 1))] = data.draw(items)
            new[key] = changed
    before = encode(old)
    after = encode(new, before)
    assert after.text == dumps(new)
    patch = diff(before, after)
    assert exact(apply(old, patch)) == exact(new)
    assert exact(apply(new, patch, reverse=True)) == exact(old)
    for key, runs in patch.get("l", {}).items():
        assert len(runs) <= 1  # one item changed at most
        assert exact(new[key]) != exact(old[key])


def test_one_field_of_one_unit() -> None:
    units = [{"name": f"u{i}", "hp": 10} for i in range(100)]
    old = {"round": 1, "units": units}
    new = {"round": 1, "units": [*units[:42], {"name": "u42", "hp": 3}, *units[43:]]}
    patch = diff(encode(old), encode(new, encode(old)))
    assert patch == {"l": {"units": [{"i": 42, "o": {"hp": 10}, "v": {"hp": 3}}]}}
    assert apply(new, patch, reverse=True)["units"][42] == {"name": "u42", "hp": 10}
    grown = {"round": 2, "units": [*units, {"name": "u100", "hp": 1}]}
    assert diff(encode(old), encode(grown)) == {
        "o": {"round": 1},
        "v": {"round": 2},
        "l": {"units": [[100, [], [{"name": "u100", "hp": 1}]]]},
    }


def test_a_change_python_calls_equal_is_still_a_change() -> None:
    """``0 == False`` and ``1 == 1.0`` in Python, but their JSON differs: the patch keeps the change."""
    old = {"units": [{"name": "u", "acted": 0, "hp": 1, "tags": [0]}]}
    new = {"units": [{"name": "u", "acted": False, "hp": 1.0, "tags": [False]}]}
    patch = diff(encode(old), encode(new))
    assert patch == {
        "l": {
            "units": [
                {
                    "i": 0,
                    "o": {"acted": 0, "hp": 1, "tags": [0]},
                    "v": {"acted": False, "hp": 1.0, "tags": [False]},
                }
            ]
        }
    }
    assert exact(apply(old, patch)) == exact(new)
    assert exact(apply(new, patch, reverse=True)) == exact(old)


def reference_diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch as ``diff`` gave it from the two documents themselves, before issue 22 (an item is
    unchanged when its text is; the text of every value and item is ``dumps``'s)."""

    def same(a: Any, b: Any) -> bool:  # a field kept: equal, of the same types, keys in any order
        if type(a) is not type(b):
            return False
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
        if isinstance(a, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
        return bool(a == b)

    def fields(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        gone = {k: v for k, v in before.items() if k not in after or not same(after[k], v)}
        came = {k: v for k, v in after.items() if k not in before or not same(before[k], v)}
        return {**({"o": gone} if gone else {}), **({"v": came} if came else {})}

    def runs(a: list[Any], b: list[Any]) -> list[Any]:
        if len(a) == len(b):
            out: list[Any] = []
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                if dumps(x) == dumps(y):
                    continue
                both = isinstance(x, dict) and isinstance(y, dict)
                out.append({"i": i, **fields(x, y)} if both else [i, [x], [y]])
            return out
        prefix, shortest = 0, min(len(a), len(b))
        while prefix < shortest and dumps(a[prefix]) == dumps(b[prefix]):
            prefix += 1
        suffix = 0
        while suffix < shortest - prefix and dumps(a[-1 - suffix]) == dumps(b[-1 - suffix]):
            suffix += 1
        return [[prefix, a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]]]

    before = {k: v for k, v in old.items() if k not in new}
    after: dict[str, Any] = {}
    lists: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            after[key] = value
        elif isinstance(old[key], list) and isinstance(value, list):
            changed = runs(old[key], value)
            if changed:
                lists[key] = changed
        elif isinstance(old[key], list) or isinstance(value, list) or dumps(old[key]) != dumps(value):
            before[key], after[key] = old[key], value
    return {
        **({"o": before} if before else {}),
        **({"v": after} if after else {}),
        **({"l": lists} if lists else {}),
    }


@st.composite
def edited(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A document and the next one, as a command makes it: some fields of some items changed, items
    inserted or removed, top-level values replaced, added or removed."""
    old = draw(documents)
    new = dict(old)
    for key, value in old.items():
        if isinstance(value, list):
            changed = list(value)
            for _ in range(draw(st.integers(0, 2))):
                where = draw(st.integers(0, len(changed)))
                step = draw(st.sampled_from(["field", "insert", "remove", "replace"]))
                if step == "field" and where < len(changed) and isinstance(changed[where], dict):
                    changed[where] = {**changed[where], draw(st.sampled_from("abcdef")): draw(scalars)}
                elif step == "insert":
                    changed.insert(where, draw(items))
                elif step == "remove" and where < len(changed):
                    del changed[where]
                elif where < len(changed):
                    changed[where] = draw(items)
            new[key] = changed
        elif draw(st.booleans()):
            new[key] = draw(values)
    for key in draw(st.lists(st.sampled_from(["units", "title", "extra", "名前"]), max_size=2)):
        if key in new and draw(st.booleans()):
            del new[key]
        else:
            new[key] = draw(values)
    return old, new


@settings(max_examples=500, deadline=None)
@given(pair=edited())
def test_the_patch_is_the_one_the_documents_gave(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """The patch read back from the encodings' text is the one the documents themselves gave: the
    same row text (key order, ``0``/``false``/``0.0`` kept apart)."""
    old, new = pair
    patch = diff(encode(old), encode(new))
    assert dumps(patch) == dumps(reference_diff(old, new))
    assert exact(apply(old, patch)) == exact(new)
    assert exact(apply(new, patch, reverse=True)) == exact(old)


@settings(max_examples=500, deadline=None)
@given(pair=documents.flatmap(lambda d: st.tuples(st.just(d), documents)))
def test_the_patch_of_unrelated_documents_is_the_one_they_gave(
    pair: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    old, new = pair
    assert dumps(diff(encode(old), encode(new))) == dumps(reference_diff(old, new))


class Element:
    """A state's element (immutable, compared by identity), whose item is its ``doc``."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc


@settings(max_examples=300, deadline=None)
@given(old_docs=st.lists(items, max_size=8), data=st.data())
def test_items_export_only_the_elements_that_are_not_the_previous_ones(
    old_docs: list[Any], data: st.DataObject
) -> None:
    """A list given as the state's elements: an element that is the very one of the previous encoding
    keeps its text without being exported again; the text and the patch are those of the documents."""
    made: list[Element] = []

    def make(element: Element) -> Any:
        made.append(element)
        return element.doc

    old = [Element(doc) for doc in old_docs]
    new = list(old)
    for _ in range(data.draw(st.integers(0, 3))):
        where = data.draw(st.integers(0, len(new)))
        step = data.draw(st.sampled_from(["insert", "remove", "replace", "move"]))
        if step == "insert":
            new.insert(where, Element(data.draw(items)))
        elif where < len(new):
            if step == "remove":
                del new[where]
            elif step == "replace":
                new[where] = Element(data.draw(items))
            else:
                new.append(new.pop(where))
    before = encode({"round": 1, "units": Items(tuple(old), make)})
    made.clear()
    after = encode({"round": 2, "units": Items(tuple(new), make)}, before)
    assert {id(e) for e in made} == {id(e) for e in new if not any(e is o for o in old)}
    old_doc = {"round": 1, "units": [e.doc for e in old]}
    new_doc = {"round": 2, "units": [e.doc for e in new]}
    assert after.text == dumps(new_doc) and after.size == len(dumps(new_doc))
    assert dumps(diff(before, after)) == dumps(reference_diff(old_doc, new_doc))
    assert exact(after.document()) == exact(new_doc)


def test_one_unit_changed_of_a_hundred_is_exported_once() -> None:
    units = tuple(Element({"name": f"u{i}", "hp": 10}) for i in range(100))
    calls: list[str] = []

    def make(element: Element) -> Any:
        calls.append(element.doc["name"])
        return element.doc

    before = encode({"units": Items(units, make)})
    calls.clear()
    changed = (*units[:42], Element({"name": "u42", "hp": 3}), *units[43:])
    after = encode({"units": Items(changed, make)}, before)
    assert calls == ["u42"]
    assert diff(before, after) == {"l": {"units": [{"i": 42, "o": {"hp": 10}, "v": {"hp": 3}}]}}
