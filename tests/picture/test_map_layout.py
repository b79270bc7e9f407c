"""The map's layout, without pixels: every unit, trap, PC, commander and cannon of a battle has a place
(a row of its own, or a count in its region's "+N more" row), nothing overlaps, nothing leaves its
region, for battles from empty to the limits of COMMANDS.md's Conventions."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import EDGES, LIMITS, battle, limits_battle

from bot.rulesets.fort.pictures import geometry as g
from bot.rulesets.fort.pictures.layout import (
    Arrival,
    Badge,
    Cannon,
    MapLayout,
    More,
    Token,
    TrapMore,
    layout,
    section_rows,
)

REGIONS = ("A2", "A1", "B1", "B2", "top", "inside", "outside")


def _sources(items: Any) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for item in items:
        if isinstance(item, More | TrapMore):
            out += item.sources
        else:
            out.append(item.source)
    return out


def _region_of(plan: MapLayout, box: g.Box) -> str:
    found = [r.name for r in (*plan.areas, *plan.sections) if r.name != "F0" and box.within(r.box)]
    assert len(found) == 1, (box, found)
    return found[0]


def check(plan: MapLayout, doc: dict[str, Any]) -> None:
    """The properties every map has."""
    units = doc.get("units", [])
    on_map = {("units", i) for i, u in enumerate(units) if not u.get("destroyed") and u.get("arrived", True)}
    waiting = {
        ("units", i) for i, u in enumerate(units) if not u.get("destroyed") and not u.get("arrived", True)
    }
    people = on_map | {("pcs", i) for i in range(len(doc.get("pcs", [])))}
    people |= {("commanders", i) for i in range(len(doc.get("commanders", [])))}
    # every one exactly once, and the destroyed nowhere (F-UNIT-6)
    placed = _sources(plan.rows)
    assert sorted(placed) == sorted(people)
    assert sorted(_sources(plan.arrivals)) == sorted(waiting)
    live_traps = {("traps", i) for i, tr in enumerate(doc.get("traps", [])) if tr["uses"] > 0}
    assert sorted(_sources(plan.traps)) == sorted(live_traps)
    assert sorted(_sources(plan.cannons)) == [("cannons", i) for i in range(len(doc.get("cannons", [])))]
    # within the picture and their region; "+N more" only when crowded, as the region's last row
    canvas = g.Box(0, 0, plan.width, plan.height)
    by_region: dict[str, list[Token | More]] = {}
    for row in plan.rows:
        assert row.box.within(canvas)
        by_region.setdefault(_region_of(plan, row.box), []).append(row)
    for region, rows in by_region.items():
        assert all(not isinstance(r, More) for r in rows[:-1]), region
        if isinstance(rows[-1], More):
            assert rows[-1].count >= 2 and rows[-1].count == len(rows[-1].sources), region
            assert rows[-1].marks and sum(n for _, n in rows[-1].marks) == rows[-1].count
    for trap in plan.traps:
        strip = next(s for s in plan.edges if s.edge == trap.edge)
        assert trap.box.within(strip.box), trap
    for item in (*plan.arrivals, *plan.cannons):
        region = plan.reinforcements if isinstance(item, Arrival) else plan.equipment
        if isinstance(item, More):
            region = plan.reinforcements if item.sources[0] in waiting else plan.equipment
        assert item.box.within(region.box) and not item.box.overlaps(region.label)
    # nothing overlaps: rows, traps, footer items, and the labels they sit under
    boxes = [x.box for x in (*plan.rows, *plan.traps, *plan.arrivals, *plan.cannons)]
    boxes += [plan.ballista, *(r.label for r in (*plan.areas, *plan.sections)), plan.reinforcements.label]
    boxes += [plan.equipment.label, plan.title_box, plan.fort_bar, plan.legend]
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)


SIZES = {
    "empty": {},
    "small": {"units": 12, "commanders": 1, "pcs": 4, "traps": 5},
    "hundred units": {"units": 100, "commanders": 3, "pcs": 6, "traps": 12, "cannons": 4},
    "the limits": LIMITS,
}


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_every_thing_has_a_place_and_nothing_overlaps(size: str) -> None:
    doc = battle(**SIZES[size])
    check(layout(doc), doc)


def test_an_empty_battle_is_the_frame_only() -> None:
    """F-MAP-1, F-CAN-1: five areas, six edges, F0's three positions, two empty cannons by default."""
    plan = layout(battle())
    assert [r.name for r in plan.areas] == ["A2", "A1", "F0", "B1", "B2"]
    assert [s.edge for s in plan.edges] == list(EDGES)
    assert [s.name for s in plan.sections] == ["top", "inside", "outside"]
    assert all(s.box.h == s.label.h for s in plan.sections)  # no rows while nobody is there
    assert plan.rows == () and plan.traps == () and plan.arrivals == ()
    assert [(c.number, c.shells) for c in plan.cannons if isinstance(c, Cannon)] == [(1, 0), (2, 0)]
    assert (plan.width, plan.height) == (1200, g.HEIGHT) and plan.header.title == "北の砦"


def test_the_field_lies_as_the_source_draws_it() -> None:
    """F-MAP-1 (実際の戦場の配置): A2 A1 above, B2 B1 below, F0 to the side; each edge is the gap between
    its two areas, and its line runs from one to the other."""
    box = g.AREA_BOXES
    assert box["A2"].right <= box["A1"].x and box["B2"].right <= box["B1"].x
    assert box["A2"].x == box["B2"].x and box["A1"].x == box["B1"].x
    assert box["A1"].bottom <= box["B1"].y and box["A2"].bottom <= box["B2"].y
    assert (
        box["A1"].right <= box["F0"].x and box["F0"].y <= box["A1"].y and box["F0"].bottom >= box["B1"].bottom
    )
    for strip in g.EDGE_STRIPS:
        a, b = (box[n] for n in strip.edge.split("-"))
        x0, y0, x1, y1 = strip.line
        ends = [(x0, y0), (x1, y1)]
        for area in (a, b):
            assert any(
                area.x - 1 <= x <= area.right + 1 and area.y - 1 <= y <= area.bottom + 1 for x, y in ends
            ), strip.edge
        assert not strip.box.overlaps(a) and not strip.box.overlaps(b)


def test_a_crowded_area_says_how_many_more_and_of_which_kinds() -> None:
    doc = battle()
    types = ["normal", "ram", "flying"]
    doc["units"] = [
        {"name": f"U{i}", "type": types[i % 3], "area": "A2", "hp": 5, "max_hp": 5, "destroyed": False}
        for i in range(30)
    ]
    doc["commanders"] = [{"name": "Boss", "area": "A2", "hp": 9, "max_hp": 9}]
    plan = layout(doc)
    rows = [r for r in plan.rows if r.box.within(g.AREA_BOXES["A2"])]
    assert len(rows) == g.AREA_ROWS
    assert [r.name for r in rows[:-1] if isinstance(r, Token)] == ["Boss", "U0", "U1", "U2", "U3", "U4"]
    more = rows[-1]
    assert isinstance(more, More) and more.count == 25
    assert more.marks == (("normal", 8), ("ram", 8), ("flying", 9))  # U5..U29
    check(plan, doc)


def test_soldier_units_stand_at_f0_by_position_top_unless_given() -> None:
    """F-MAP-4 (ruling): soldier units at F0 have a position, ``top`` unless given; PCs by theirs."""
    doc = battle()
    doc["pcs"] = [
        {"name": "Alice", "area": "F0", "position": "inside", "hp": 30, "max_hp": 30},
        {"name": "Bob", "area": "F0", "position": "outside", "hp": None},
    ]
    soldier = {"type": "soldier", "area": "F0", "hp": 10, "max_hp": 10, "destroyed": False}
    doc["units"] = [
        {**soldier, "name": "Guards"},  # an export from before issue 11: no position
        {**soldier, "name": "Archers", "position": "inside"},
        {**soldier, "name": "Pikes", "position": "outside"},
        {**soldier, "name": "Scouts", "area": "A1"},  # away from F0: in its area
    ]
    plan = layout(doc)
    where = {r.name: _region_of(plan, r.box) for r in plan.rows if isinstance(r, Token)}
    assert where == {
        "Guards": "top",
        "Alice": "inside",
        "Archers": "inside",
        "Bob": "outside",
        "Pikes": "outside",
        "Scouts": "A1",
    }
    marks = {r.name: (r.mark, r.side) for r in plan.rows if isinstance(r, Token)}
    assert marks["Alice"] == ("pc", "pc") and marks["Pikes"] == ("soldier", "pc")


def test_enemies_and_commanders_at_f0_are_outside() -> None:
    """F-MAP-5: enemy units and commanders at F0 are always outside."""
    doc = battle()
    doc["units"] = [{"name": "Ram", "type": "ram", "area": "F0", "hp": 9, "max_hp": 9}]
    doc["commanders"] = [{"name": "Boss", "area": "F0", "hp": 9, "max_hp": 9}]
    doc["pcs"] = [{"name": "Away", "area": "B2", "position": None, "hp": 3, "max_hp": 8}]
    plan = layout(doc)
    where = {r.name: _region_of(plan, r.box) for r in plan.rows if isinstance(r, Token)}
    assert where == {"Ram": "outside", "Boss": "outside", "Away": "B2"}


def test_names_hp_weakness_and_horn_are_carried() -> None:
    """F-UNIT-15 (weakness) and the commander's horn, when the export has them; destroyed units are off
    the map (F-UNIT-6)."""
    doc = battle()
    doc["units"] = [
        {
            "name": "火に弱い隊",
            "type": "normal",
            "area": "B1",
            "hp": 12,
            "max_hp": 40,
            "weakness": "炎属性ダメージ+3",
        },
        {"name": "Gone", "type": "normal", "area": "B1", "hp": 0, "max_hp": 40, "destroyed": True},
    ]
    doc["commanders"] = [{"name": "隊長", "area": "B1", "hp": 50, "max_hp": 60, "horn": "混乱の角笛"}]
    plan = layout(doc)
    rows = {r.name: r for r in plan.rows if isinstance(r, Token)}
    assert set(rows) == {"火に弱い隊", "隊長"}
    unit, boss = rows["火に弱い隊"], rows["隊長"]
    assert (unit.hp, unit.max_hp, unit.weakness, unit.horn) == (12, 40, "炎属性ダメージ+3", None)
    assert (boss.mark, boss.hp, boss.max_hp, boss.horn) == ("commander", 50, 60, "混乱の角笛")


def test_f0_rows_go_to_the_smallest_positions_first() -> None:
    """A few PCs on top are all shown while a crowd outside is summarised."""
    assert section_rows([2, 2, 57], 13) == [2, 2, 9]
    assert section_rows([20, 20, 20], 13) == [4, 4, 5]
    assert section_rows([1, 30, 0], 13) == [1, 12, 0]
    assert section_rows([0, 0, 0], 13) == [0, 0, 0]
    assert section_rows([13, 0, 0], 13) == [13, 0, 0]


def test_traps_sit_on_their_edges_with_their_uses() -> None:
    """F-TRAP-1: a trap lies on an edge and has uses; a spent one (0 uses) is no longer drawn; a crowded
    edge says how many more."""
    doc = battle()
    doc["traps"] = [
        {"kind": "mine", "edge": "A1-F0", "uses": 1},
        {"kind": "barricade", "edge": "A1-F0", "uses": 3},
        {"kind": "barricade", "edge": "A2-B2", "uses": 0},
        *({"kind": "mine", "edge": "A1-B1", "uses": 2} for _ in range(9)),
    ]
    plan = layout(doc)
    on = {s.edge: [t for t in plan.traps if t.edge == s.edge] for s in plan.edges}
    assert [(t.kind, t.uses) for t in on["A1-F0"] if isinstance(t, Badge)] == [("barricade", 3), ("mine", 1)]
    assert on["A2-B2"] == []
    crossing = on["A1-B1"]  # a horizontal gap: five badges fit, the fifth says +5
    assert len(crossing) == 5 and isinstance(crossing[-1], TrapMore) and crossing[-1].count == 5
    check(plan, doc)


def test_reinforcements_are_listed_by_the_round_they_arrive_in() -> None:
    """F-MAP-7: reinforcements arrive at the end of the enemy turn of their round, at A2 or B2."""
    doc = battle()
    doc["units"] = [
        {
            "name": f"R{r}",
            "type": "flying",
            "area": "B2",
            "hp": 9,
            "max_hp": 9,
            "arrive_round": r,
            "arrived": False,
        }
        for r in (4, 2, 3)
    ]
    plan = layout(doc)
    assert [(a.name, a.round, a.area, a.mark) for a in plan.arrivals if isinstance(a, Arrival)] == [
        ("R2", 2, "B2", "flying"),
        ("R3", 3, "B2", "flying"),
        ("R4", 4, "B2", "flying"),
    ]
    assert plan.rows == ()


def test_at_the_limits_every_region_is_full_or_says_more() -> None:
    doc = limits_battle()
    plan = layout(doc)
    counts = Counter(_region_of(plan, r.box) for r in plan.rows)
    assert all(counts[a] == g.AREA_ROWS for a in ("A2", "A1", "B1", "B2"))
    assert (
        sum(counts[p] for p in ("top", "inside", "outside"))
        <= (g.FIELD_H - g.LABEL_H - g.PAD - 3 * g.SECTION_H) // g.ROW_H
    )
    assert isinstance(plan.arrivals[-1], More) and isinstance(plan.cannons[-1], Cannon)
    assert len(plan.cannons) == 10
    check(plan, doc)


_unit = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=32),
        "type": st.sampled_from(["normal", "ram", "flying", "soldier"]),
        "area": st.sampled_from(["A2", "A1", "F0", "B1", "B2"]),
        "hp": st.integers(0, 100_000),
        "max_hp": st.integers(1, 100_000),
        "destroyed": st.booleans(),
        "arrived": st.booleans(),
        "position": st.sampled_from(["top", "inside", "outside", None]),
        "weakness": st.one_of(st.none(), st.text(max_size=100)),
    }
)
_person = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=32),
        "area": st.sampled_from(["A2", "A1", "F0", "B1", "B2"]),
        "position": st.sampled_from(["top", "inside", "outside", None]),
        "hp": st.one_of(st.none(), st.integers(0, 1000)),
        "max_hp": st.one_of(st.none(), st.integers(1, 1000)),
    }
)
_trap = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["barricade", "mine"]),
        "edge": st.sampled_from(EDGES),
        "uses": st.integers(0, 99),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    units=st.lists(_unit, max_size=LIMITS["units"]),
    pcs=st.lists(_person, max_size=LIMITS["pcs"]),
    commanders=st.lists(_person, max_size=LIMITS["commanders"]),
    traps=st.lists(_trap, max_size=LIMITS["traps"]),
    cannons=st.lists(st.fixed_dictionaries({"shells": st.integers(0, 5)}), max_size=LIMITS["cannons"]),
)
def test_any_battle_within_the_limits_has_a_place_for_everything(
    units: list[dict[str, Any]],
    pcs: list[dict[str, Any]],
    commanders: list[dict[str, Any]],
    traps: list[dict[str, Any]],
    cannons: list[dict[str, Any]],
) -> None:
    for unit in units:
        unit["arrive_round"] = None if unit["arrived"] else 2
    doc = {
        **battle(),
        "units": units,
        "pcs": pcs,
        "commanders": commanders,
        "traps": traps,
        "cannons": cannons,
    }
    check(layout(doc), doc)
