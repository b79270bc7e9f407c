"""Issue 38, item 3: every ``/gm set`` target of every rule set has its Japanese form in the catalogues
(``gm_targets.toml``), each word names one target, and the engine takes every target the tables list
(``bot.gm_targets``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot import gm_targets
from bot.i18n import LANGUAGES, catalogue, placeholders
from bot.registry import rulesets
from bot.rulesets.builtin import ensure_builtin
from engine.errors import EngineError

ensure_builtin()
TABLES = {r.name: r.gm_targets for r in rulesets() if r.gm_targets is not None}


def test_every_rule_set_has_its_targets() -> None:
    assert sorted(TABLES) == ["battle", "fort", "sengensho"]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_target_has_japanese_words_and_each_word_one_target(name: str) -> None:
    table = TABLES[name]
    ja = catalogue("ja")
    for path in table.whole:
        form = ja.get(table.whole_key(path))
        assert form is not None, path
        assert placeholders(form) == placeholders(path), path  # 大砲{cannon}.砲弾 for cannon.{cannon}.shells
    attrs = {a for owner in table.owners for a in owner.attrs}
    assert sorted(a for a in attrs if table.attr_key(a) not in ja) == []
    words = [ja[table.attr_key(a)].casefold() for a in sorted(attrs)]
    assert len(set(words)) == len(words)  # one word, one attribute
    for lang in LANGUAGES:
        assert all(f"{table.key}owner.{o.kind}" in catalogue(lang) for o in table.owners), lang
        # a character's target reads as it is typed: <name>.<attribute>, with or without its head
        for o in table.owners:
            owned = catalogue(lang)[f"{table.key}owned.{o.kind}"]
            assert owned in ("{name}.{attr}", o.head + "{name}.{attr}")


@pytest.mark.parametrize("name", sorted(TABLES))
def test_an_english_reader_types_the_paths(name: str) -> None:
    """The English words are the paths the engine takes, so they cannot drift from them."""
    table = TABLES[name]
    en = catalogue("en")
    assert [en[table.whole_key(p)] for p in table.whole] == list(table.whole)
    assert all(en[table.attr_key(a)] == a for o in table.owners for a in o.attrs)
    assert [en[f"{table.key}owned.{o.kind}"] for o in table.owners] == [
        o.head + "{name}.{attr}" for o in table.owners
    ]


def test_sengensho_lists_every_field_the_engine_has() -> None:
    from engine.sengensho import overrides

    owner = TABLES["sengensho"].owners[0]
    assert sorted(owner.attrs) == sorted({*overrides._FIELDS, "name"})
    assert set(TABLES["sengensho"].whole) == {*overrides._BATTLE, "allowance.pc", "allowance.enemy"}


def _fort() -> tuple[Any, Any]:
    from engine.fort import FORT, GMSet
    from engine.fort.export import import_state

    state = import_state(
        {
            "format": "toride.fort/1",
            "rounds": 3,
            "units": [{"name": "u", "type": "soldier", "area": "F0", "hp": 5, "fort_damage": 1}],
            "pcs": [{"name": "p", "area": "F0", "position": "top"}],
            "commanders": [{"name": "c", "area": "A2", "hp": 5}],
            "traps": [
                {"kind": "mine", "edge": "A1-F0", "uses": 1},
                {"kind": "barricade", "edge": "F0-B1", "uses": 1},
            ],
        }
    )
    return state, lambda target: FORT.apply(state, GMSet(target=target, value="1"), None)


def test_the_fort_engine_takes_every_target_listed() -> None:
    """Each path the fort's table lists is one the engine knows (a value may still not fit it)."""
    table = TABLES["fort"]
    _, apply = _fort()
    paths = [p.format(cannon="1", mine="A1-F0", barricade="F0-B1") for p in table.whole]
    paths += [f"{o.head}{o.kind[0]}.{a}" for o in table.owners for a in o.attrs if o.kind != "pc"]
    paths += [f"pc.p.{a}" for a in table.owners[1].attrs if a not in ("mp", "max_mp", "evasion", "defense",
              "vit_resist", "mnd_resist", "initiative", "monster_lore", "level")]  # fmt: skip
    unknown = []
    for path in paths:
        try:
            apply(path)
        except EngineError as error:
            if error.key.endswith("target_unknown"):
                unknown.append(path)
    assert unknown == []


def test_a_typed_target_reads_as_its_path() -> None:
    """Japanese forms, the English paths, full width and case: the path the engine takes."""
    state, _ = _fort()
    from engine.fort import FORT

    doc = FORT.export(state)
    table = TABLES["fort"]
    read = {
        "砦HP": "fort.hp",
        "ｆｏｒｔ.ＨＰ": "fort.hp",
        "大砲１.砲弾": "cannon.1.shells",
        "cannon.2.shells": "cannon.2.shells",
        "地雷.A1-F0.残り回数": "trap.mine.A1-F0.uses",
        "u.HP": "unit.u.hp",
        "u.行動済み": "unit.u.acted",
        "unit.u.acted": "unit.u.acted",
        "p.MP": "pc.p.mp",
        "p.器用度": "pc.p.器用度",  # a value of its sheet, as the sheet names it
        "c.鼓咆": "commander.c.horn",
        "誰か.HP": "unit.誰か.hp",  # the engine names the unit it is near
    }
    assert {typed: gm_targets.path_of(table, typed, doc) for typed in read} == read
    with pytest.raises(EngineError) as refused:
        gm_targets.path_of(table, "u.翼", doc)
    assert refused.value.key == "gm.target_unknown"
    assert gm_targets.words(table, "unit.u.acted", "ja") == "u.行動済み"
    assert gm_targets.words(table, "unit.u.acted", "en") == "unit.u.acted"
