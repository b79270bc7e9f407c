"""Issue 34, item 3: a hostile draft never raises. Any JSON value as the draft, as its base, its forms or
its elements (strings, lists, numbers, objects, null, huge numbers, booleans) is checked into refusals in
words, or a document; so is a monster sheet's form and draft."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import SheetSource
from bot.rulesets.fort.prep import binding
from bot.rulesets.fort.prep.build import Checked, check, forms_of
from bot.rulesets.fort.prep.forms import FORMS, LISTS, SETTINGS

ROOT = Path(__file__).resolve().parents[2]
MONSTER = (ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "monster.json").read_text(encoding="utf-8")

#: what a user's value echoed in a sentence may hold: nothing that spells a Python repr by itself
_ALPHABET = "abcdefxyz0123456789 -+:@/.<>=\n\t\u200b炎ゴブリン"
#: what may never be in a refusal: Python's own words for a value or an error
REPRS = ("None", "True", "False", "Traceback", "{'", "['", "('", "KeyError", "TypeError", "AttributeError",
         "ValueError", "object at 0x", "dict_", "<bot.", "<engine.")  # fmt: skip
#: the keys a draft or a document has, so that arbitrary objects reach the code that reads them
_KEYS = sorted(
    {"base", "form", "settings", "format", "round", "turn", "outcome", "fort", "ballista", "hp", "max_hp",
     "shells", "side", "arrived", "destroyed", "moved_m", "halted", "acted", "held_edge", "held_to", "sheet",
     "palette", *LISTS, *SETTINGS.names, *(n for form in FORMS.values() for n in form.names)}
)  # fmt: skip

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-1000, max_value=1000)
    | st.integers()
    | st.sampled_from([1, -1]).map(lambda sign: sign * 10**40)
    | st.sampled_from([1, -1]).map(lambda sign: sign * 10**5000)  # beyond what ``str(int)`` writes
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=_ALPHABET, max_size=12)
    | st.sampled_from(["3", "0", "-1", "A1", "F0", "A1-F0", "ram", "soldier", "mine", "top", "true", "2d+6"])
)
_KEY = st.sampled_from(_KEYS) | st.text(alphabet=_ALPHABET, max_size=5)
JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEY, inner, max_size=5),
    max_leaves=16,
)

_FULL = {
    "format": "toride.fort/1", "title": "北の砦", "rounds": 5, "round": 2, "turn": "enemy", "first": "pc",
    "fort": {"hp": 250, "max_hp": 300, "repaired_round": 1},
    "pcs": [
        {"name": "アリス", "area": "F0", "position": "top", "hp": 30, "max_hp": 40, "move": 20, "owner": "1"},
    ],
    "units": [
        {"name": "ゴブリン", "type": "normal", "area": "A1", "hp": 12, "max_hp": 30, "fort_damage": 10,
         "strike": "2d+6", "defense": 2, "move": 10, "moved_m": 10, "weakness": "炎属性ダメージ+3"},
        {"name": "兵", "type": "soldier", "area": "F0", "position": "inside", "hp": 20, "max_hp": 20,
         "fort_damage": 0},
        {"name": "増援", "type": "ram", "area": "A2", "hp": 50, "max_hp": 50, "fort_damage": 0,
         "strike": "2d+10", "arrive_round": 4, "arrived": False},
    ],
    "commanders": [{"name": "隊長", "area": "A2", "hp": 60, "max_hp": 60, "horn": "命中力+1"}],
    "traps": [{"kind": "mine", "edge": "A1-F0", "uses": 1}],
    "cannons": [{"shells": 3}, {"shells": 0}],
    "ballista": {"loaded": True, "magic_bolt_used": False, "bolt": "太矢"},
}  # fmt: skip
VALID = forms_of(_FULL)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += _paths(inner, (*path, i))
    return found


PATHS = _paths(VALID)[1:]


def _child(node: Any, step: Any) -> Any:
    if isinstance(node, dict):
        return node.get(step)
    if isinstance(node, list) and isinstance(step, int) and step < len(node):
        return node[step]
    return None


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """The valid draft with one to three of its values (any, at any depth) replaced by any JSON value."""
    draft = copy.deepcopy(VALID)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(PATHS))
        node: Any = draft
        for step in path[:-1]:
            node = _child(node, step)
        last = path[-1]
        if isinstance(node, dict) or (isinstance(node, list) and isinstance(last, int) and last < len(node)):
            node[last] = draw(JSON)  # (an earlier replacement may have taken the path away)
    return draft


def _words(text: Any) -> None:
    assert isinstance(text, str) and text.strip(), text
    assert not [r for r in REPRS if r in text], text


def _checked(draft: Any, lang: str) -> None:
    checked = check(draft, lang)
    assert isinstance(checked, Checked)
    for refusal in [*checked.refusals, *checked.notes]:
        assert isinstance(refusal.place, str) and refusal.place.startswith("$")
        _words(refusal.text)
    assert checked.document is not None or checked.refusals
    assert checked.drawable is None or isinstance(checked.drawable, dict)
    json.dumps(checked.to_json(), ensure_ascii=False)


_HOSTILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LANG = st.sampled_from(["ja", "en"])


def test_the_valid_draft_is_a_document():
    """The draft every mutation starts from: a battle in its second round, opened as it is."""
    checked = check(VALID, "ja")
    assert checked.refusals == [] and checked.document is not None
    assert {k: checked.document[k] for k in _FULL if k not in ("pcs", "units")} == {
        k: v for k, v in _FULL.items() if k not in ("pcs", "units")
    }
    assert [(u["hp"], u["max_hp"]) for u in checked.document["units"]] == [(12, 30), (20, 20), (50, 50)]


@_HOSTILE
@given(JSON | st.dictionaries(_KEY, JSON, max_size=6), LANG)
def test_any_json_value_as_a_draft_is_refused_in_words(draft: Any, lang: str) -> None:
    _checked(draft, lang)


@_HOSTILE
@given(mutated(), LANG)
def test_any_value_anywhere_in_a_valid_draft_is_refused_in_words(draft: dict[str, Any], lang: str) -> None:
    _checked(draft, lang)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON | mutated(), st.sampled_from([MONSTER, "{", "[]", '{"a": 1}', ""]), LANG)
def test_any_sheet_form_and_draft_is_refused_in_words(form: Any, draft: Any, text: str, lang: str) -> None:
    answer = binding.sheet(SheetSource(text, ""), form, draft, lang)
    for refusal in answer["refusals"]:
        _words(refusal["text"])
    assert answer["document"] is not None or answer["refusals"]
    json.dumps(answer, ensure_ascii=False)
