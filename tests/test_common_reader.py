"""The shared typed JSON reader (``engine.common.JsonDoc``): exact paths and reasons in both styles."""

from __future__ import annotations

from typing import Any

import pytest

from engine.common import REQUIRED, ImportInvalid, JsonDoc
from engine.fort.export import STYLE as FORT
from engine.sengensho.export import STYLE as SG


def refusal(read: Any) -> tuple[str, str]:
    with pytest.raises(ImportInvalid) as caught:
        read()
    return caught.value.path, caught.value.reason


def test_missing_key() -> None:
    assert refusal(lambda: JsonDoc({}, "$", FORT).int_("rounds")) == ("$.rounds", "missing")
    assert refusal(lambda: JsonDoc({}, "", SG).int_("dp_max")) == ("dp_max", "missing")
    assert JsonDoc({}, "$", FORT).int_("round", 1) == 1
    assert JsonDoc({"x": None}, "$", FORT).get("x", str, "d") == "d"  # null with a default: the default


def test_required_null_is_a_wrong_type_or_missing_by_style() -> None:
    assert refusal(lambda: JsonDoc({"hp": None}, "$", FORT).int_("hp")) == ("$.hp", "not_an_integer")
    assert refusal(lambda: JsonDoc({"hp": None}, "", SG).int_("hp")) == ("hp", "missing")


def test_wrong_type() -> None:
    doc = {"n": "3", "b": 1, "s": 2, "t": True, "l": {}}
    fort, sg = JsonDoc(doc, "$", FORT), JsonDoc(doc, "", SG)
    assert refusal(lambda: fort.int_("n")) == ("$.n", "not_an_integer")
    assert refusal(lambda: fort.int_("t")) == ("$.t", "not_an_integer")  # a bool is no integer
    assert refusal(lambda: fort.get("b", bool)) == ("$.b", "not_a_boolean")
    assert refusal(lambda: fort.get("s", str)) == ("$.s", "not_a_string")
    assert refusal(lambda: fort.items("l")) == ("$.l", "not_a_list")
    assert refusal(lambda: sg.int_("n")) == ("n", "not_int")
    assert refusal(lambda: sg.get("b", bool)) == ("b", "not_bool")
    assert refusal(lambda: sg.get("s", str)) == ("s", "not_str")
    assert refusal(lambda: sg.items("l")) == ("l", "not_list")
    assert refusal(lambda: JsonDoc([], "$", FORT)) == ("$", "not_an_object")
    assert refusal(lambda: JsonDoc(3, "", SG)) == ("", "not_an_object")


def test_out_of_range_default_included() -> None:
    doc = JsonDoc({"n": 7, "hp": 0}, "$", FORT)
    assert refusal(lambda: doc.int_("n", REQUIRED, 1, 6)) == ("$.n", "out_of_range")
    assert refusal(lambda: doc.int_("m", -1, 0)) == ("$.m", "out_of_range")  # the default is checked too
    assert doc.int_("n", REQUIRED, 7, 7) == 7
    assert doc.int_("m", None, 1) is None
    assert refusal(lambda: JsonDoc({"dp": -1}, "", SG).int_("dp", 0, 0)) == ("dp", "out_of_range")


def test_nested_list_and_object_paths() -> None:
    raw = {"units": [{"hp": 1}, {"hp": "x"}], "fort": {"hp": "x"}, "chars": [{}, 3]}
    fort = JsonDoc(raw, "$", FORT)
    units = fort.items("units")
    assert [u.path for u in units] == ["$.units[0]", "$.units[1]"]
    assert refusal(lambda: units[1].int_("hp")) == ("$.units[1].hp", "not_an_integer")
    assert refusal(lambda: fort.obj_or_empty("fort").int_("hp")) == ("$.fort.hp", "not_an_integer")
    assert fort.obj_or_empty("ballista").path == "$.ballista"
    assert refusal(lambda: fort.items("chars")) == ("$.chars[1]", "not_an_object")
    sg = JsonDoc(raw, "", SG)
    assert refusal(lambda: sg.items("units")[1].int_("hp")) == ("units.1.hp", "not_int")
    fort_obj = sg.obj("fort")
    assert fort_obj is not None and fort_obj.path == "fort."
    assert refusal(lambda: fort_obj.int_("hp")) == ("fort.hp", "not_int")
    assert sg.obj("absent") is None
    assert refusal(lambda: sg.items("chars")) == ("chars.1.", "not_an_object")


def test_enum_reads_with_the_given_reason() -> None:
    fort = JsonDoc({"turn": "GM", "side": 3}, "$", FORT)

    def side(text: str) -> str:
        if text not in ("pc", "enemy"):
            raise ValueError(text)
        return text

    assert refusal(lambda: fort.enum("turn", side, reason="not_one_of_pc|enemy")) == (
        "$.turn",
        "not_one_of_pc|enemy",
    )
    assert refusal(lambda: fort.enum("side", side)) == ("$.side", "not_a_string")
    assert refusal(lambda: JsonDoc({"k": "z"}, "", SG).enum("k", side)) == ("k", "unknown_value")
    assert fort.enum("absent", side, "pc") == "pc"
