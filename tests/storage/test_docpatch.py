"""docpatch: a document's text built piece by piece is ``json.dumps``'s; a patch goes forward and back
exactly, for any two documents, and holds only what changed."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage.docpatch import apply, diff, dumps, encode


def exact(value: Any) -> str:
    """A JSON value's text with its keys sorted: equal only when the JSON is (``0`` is not ``false``)."""
    return json.dumps(value, sort_keys=True)


scalars = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=5))
items = st.one_of(scalars, st.dictionaries(st.sampled_from("abcde"), scalars, max_size=4))
values = st.one_of(scalars, st.lists(items, max_size=6), st.dictionaries(st.sampled_from("xy"), scalars))
documents = st.dictionaries(st.sampled_from(["units", "pcs", "title", "round", "fort", "名前"]), values)


@settings(max_examples=300, deadline=None)
@given(old=documents, new=documents)
def test_a_patch_goes_forward_and_back_exactly(old: dict[str, Any], new: dict[str, Any]) -> None:
    before, after = encode(old), encode(new)
    patch = diff(before, after)
    assert exact(apply(old, patch)) == exact(new)
    assert exact(apply(new, patch, reverse=True)) == exact(old)
    assert (patch == {}) == (exact(old) == exact(new))
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
