"""The map picture's hit regions (``regions``): what the prep page clicks and drags, from the layout the
picture is drawn from."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from picture_helpers import EDGES, OUTER, POSITIONS, battle

from bot.rulesets.fort.pictures import geometry as g
from bot.rulesets.fort.pictures import regions as regions_module
from bot.rulesets.fort.pictures.draw import map_png
from bot.rulesets.fort.pictures.layout import Token, layout
from bot.rulesets.fort.pictures.regions import map_with_regions, regions
from engine.dice import ScriptedDice
from engine.fort import FORT, AddCommander, AddPC, AddUnit, FortCommand, SetTrap, StartBattle

#: the crowded area: ten enemies where seven rows are, so six rows and "+4 more"
CROWDED = "B2"


def unit(name: str, kind: str, area: str, position: str | None = None, arrive: int | None = None) -> AddUnit:
    return AddUnit(
        name=name,
        type=kind,
        area=area,
        hp=20,
        fort_damage=5,
        strike="2d+3",
        position=position,
        arrive_round=arrive,
    )


def full_battle() -> dict[str, Any]:
    """Units in every area, a soldier and a PC at each F0 position, a commander, traps on two edges (six
    on one: "+2 more"), two cannons, a reinforcement and a crowded area."""
    commands: list[FortCommand] = [StartBattle(rounds=5, cannons=2, title="北の砦")]
    commands += [AddPC(name=f"PC-{p}", position=p, hp=30, invoker=f"u{p}") for p in POSITIONS]
    commands += [unit(f"兵-{p}", "soldier", "F0", p) for p in POSITIONS]
    commands += [unit(f"敵-{a}", "normal", a) for a in OUTER]
    commands += [unit(f"群れ{i}", ("ram", "flying")[i % 2], CROWDED) for i in range(9)]
    commands += [unit("援軍", "normal", "A2", arrive=3)]
    commands += [AddCommander(name="隊長", hp=60, area="A1")]
    commands += [SetTrap(kind="mine", edge="A2-A1", uses=2), SetTrap(kind="barricade", edge="A2-A1", uses=1)]
    commands += [SetTrap(kind=("mine", "barricade")[i % 2], edge="A1-B1", uses=1) for i in range(6)]
    state = None
    for command in commands:
        state = FORT.apply(state, command, ScriptedDice([])).state
    assert state is not None
    return FORT.export(state)


def box(value: list[int]) -> g.Box:
    return g.Box(*value)


def listed(b: g.Box) -> list[int]:
    return [b.x, b.y, b.w, b.h]


def places(doc: dict[str, Any]) -> set[str]:
    """Every element the map draws: the live units (on the map or to come), PCs, commanders, the traps
    with uses left, the cannons."""
    out = {f"$.units[{i}]" for i, u in enumerate(doc["units"]) if not u["destroyed"]}
    out |= {f"$.{kind}[{i}]" for kind in ("pcs", "commanders", "cannons") for i in range(len(doc[kind]))}
    out |= {f"$.traps[{i}]" for i, tr in enumerate(doc["traps"]) if tr["uses"] > 0}
    return out


def where(doc: dict[str, Any], place: str) -> dict[str, str] | None:
    """What a drop sets for where the element at ``place`` (``$.units[3]``) stands (None: a
    reinforcement, not yet on the field)."""
    kind, index = place[2:-1].split("[")
    item = doc[kind][int(index)]
    if kind == "units" and not item["arrived"]:
        return None
    if kind == "traps":
        return {"edge": item["edge"]}
    if item["area"] != "F0":
        return {"area": item["area"]}
    if kind == "pcs" or item.get("type") == "soldier":
        return {"area": "F0", "position": item["position"]}
    return {"position": "outside"}  # an enemy at F0 is drawn outside (F-MAP-5)


def drop_box(answer: dict[str, Any], wanted: dict[str, str]) -> g.Box:
    found = {tuple(d["box"]) for d in answer["drops"] if d["set"] == wanted}
    assert len(found) == 1, wanted
    return g.Box(*found.pop())


def test_the_full_battle_is_what_the_test_says() -> None:
    doc = full_battle()
    plan = layout(doc)
    assert len(doc["cannons"]) == 2 and any(not u["arrived"] for u in doc["units"])
    assert {p["position"] for p in doc["pcs"]} == set(POSITIONS)
    assert {u["position"] for u in doc["units"] if u["type"] == "soldier"} == set(POSITIONS)
    assert {u["area"] for u in doc["units"] if u["arrived"]} >= set(OUTER)
    assert {tr["edge"] for tr in doc["traps"]} == {"A2-A1", "A1-B1"}
    answer = regions(doc)
    assert [len(m["places"]) for m in answer["more"]] == [4, 2]  # the crowded area's row, the edge's
    assert any(isinstance(row, Token) and row.box.within(g.AREA_BOXES[CROWDED]) for row in plan.rows)


@pytest.mark.parametrize("lang", [None, "ja", "en"])
def test_every_thing_lies_where_it_is_drawn_and_nothing_overlaps(lang: str | None) -> None:
    doc = full_battle()
    answer = regions(doc, lang)
    picture = g.Box(0, 0, g.WIDTH, g.HEIGHT)
    assert (answer["width"], answer["height"]) == (g.WIDTH, g.HEIGHT)
    for thing in answer["things"]:
        inside = box(thing["box"])
        assert inside.within(picture), thing
        if thing["place"] == "$.ballista" or thing["place"].startswith("$.cannons"):
            assert inside.within(g.EQUIPMENT.box) and not inside.overlaps(g.EQUIPMENT.label), thing
        elif (stands := where(doc, thing["place"])) is None:
            assert inside.within(g.REINFORCEMENTS.box) and not inside.overlaps(g.REINFORCEMENTS.label), thing
        else:
            assert inside.within(drop_box(answer, stands)), thing
    for more in answer["more"]:
        row = {json.dumps(where(doc, p)) for p in more["places"]}
        assert len(row) == 1, more  # one "+N more" row stands for one region's elements
        assert box(more["box"]).within(drop_box(answer, json.loads(row.pop())))
    boxes = [box(x["box"]) for x in (*answer["things"], *answer["more"])]
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)


def test_every_element_is_in_things_or_more_exactly_once() -> None:
    doc = full_battle()
    doc["units"][-1]["destroyed"] = True  # the reinforcement, destroyed: off the map (F-UNIT-6)
    doc["traps"][0]["uses"] = 0  # a trap used up: off its edge
    answer = regions(doc)
    shown = [t["place"] for t in answer["things"]] + [p for m in answer["more"] for p in m["places"]]
    assert len(shown) == len(set(shown))
    assert set(shown) == places(doc) | {"$.ballista"}
    assert "$.units[16]" not in shown and "$.traps[0]" not in shown


def test_labels_are_the_names_drawn() -> None:
    doc = full_battle()
    labels = {t["place"]: t["label"] for t in regions(doc, "en")["things"]}
    assert labels["$.pcs[1]"] == "PC-inside" and labels["$.commanders[0]"] == "隊長"
    assert labels["$.units[16]"] == "援軍"  # the reinforcement, in the footer
    assert labels["$.traps[0]"] == "mine 2" and labels["$.cannons[1]"] == "#2"
    assert labels["$.ballista"] == "Ballista: not loaded"
    cannon = layout(doc).cannons[1].box
    assert regions(doc)["things"][-1] == {"place": "$.cannons[1]", "box": listed(cannon), "label": "#2"}


def test_the_drops_are_the_areas_the_f0_positions_and_the_edges() -> None:
    """F-MAP-1, F-MAP-4, F-MAP-7: units and commanders in the outer areas, PCs and soldier units at each
    F0 position, traps on each edge; one drop's set fits every kind it takes."""
    doc = full_battle()
    plan = layout(doc)
    drops = regions(doc)["drops"]
    assert len(drops) == 4 + 2 * 3 + 6
    a1 = g.AREA_BOXES["A1"]
    assert drops[1] == {
        "box": listed(a1),
        "set": {"area": "A1"},
        "kinds": ["units", "commanders"],
        "label": "A1",
    }
    assert [(d["set"], d["kinds"]) for d in drops[:4]] == [
        ({"area": a}, ["units", "commanders"]) for a in ("A2", "A1", "B1", "B2")
    ]
    assert [d["box"] for d in drops[:4]] == [listed(g.AREA_BOXES[a]) for a in ("A2", "A1", "B1", "B2")]
    f0 = drops[4:10]
    assert [(d["set"], d["kinds"], d.get("add")) for d in f0] == [
        x
        for p in POSITIONS
        for x in (
            ({"area": "F0", "position": p}, ["pcs"], None),
            ({"area": "F0", "position": p}, ["units"], {"type": "soldier"}),
        )
    ]
    assert [d["box"] for d in f0] == [listed(s.box) for s in plan.sections for _ in range(2)]
    assert [d["label"] for d in f0] == [f"F0 {p}" for p in POSITIONS for _ in range(2)]
    edges = drops[10:]
    assert [(d["set"], d["kinds"], d["label"]) for d in edges] == [({"edge": e}, ["traps"], e) for e in EDGES]
    assert [d["box"] for d in edges] == [listed(s.box) for s in g.EDGE_STRIPS]
    picture = g.Box(0, 0, g.WIDTH, g.HEIGHT)
    assert all(box(d["box"]).within(picture) for d in drops)
    distinct = {tuple(d["box"]) for d in drops}
    assert len(distinct) == 4 + 3 + 6
    for a, b in itertools.combinations(distinct, 2):
        assert not g.Box(*a).overlaps(g.Box(*b))


def test_drop_labels_in_the_pages_language() -> None:
    drops = regions(full_battle(), "ja")["drops"]
    assert drops[1]["label"] == "A1 左前方"
    assert drops[4]["label"] == "F0 砦上部" and drops[-1]["label"] == "A2-B2"


def test_the_regions_are_json() -> None:
    answer = regions(battle(units=100, commanders=3, pcs=6, traps=12, cannons=4), "ja")
    assert json.loads(json.dumps(answer, ensure_ascii=False)) == answer


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_picture_and_its_regions_come_from_one_layout(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = full_battle()
    calls: list[object] = []

    def counted(document: Any) -> Any:
        calls.append(document)
        return layout(document)

    monkeypatch.setattr(regions_module, "layout", counted)
    png, answer = map_with_regions(doc, lang)
    assert len(calls) == 1
    assert png == map_png(doc, lang)
    assert answer == regions(doc, lang) and len(calls) == 2
