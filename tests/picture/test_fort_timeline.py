"""The fort's HP by round and its main causes, from a battle's events (the final summary's chart)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.console.session import ConsoleSession
from bot.rulesets.fort.pictures.chart import cause_text, marked, points
from bot.rulesets.fort.pictures.timeline import Cause, FortTimeline, RoundHP, fort_timeline
from bot.service import BattleService
from bot.storage import open_storage
from bot.views import EventsView
from engine.dice import ScriptedDice
from engine.ruleset import Event

DOC = {"fort": {"hp": 300, "max_hp": 300}}


def started(hp: int = 300) -> Event:
    return Event("battle.started", {"title": "", "rounds": 3, "fort_hp": hp, "cannons": 2, "first": "pc"})


def turn(round_: int, side: str = "enemy") -> Event:
    return Event("battle.turn_started", {"round": round_, "side": side})


def damaged(unit: str, before: int, after: int, source: str = "enter") -> Event:
    return Event(
        "fort.damaged",
        {"source": source, "unit": unit, "amount": before - after, "before": before, "after": after},
    )


def summary(round_: int, hp: int) -> Event:
    return Event("battle.round_summary", {"round": round_, "fort_hp": hp, "fort_max_hp": 300})


def test_fort_hp_by_round_with_its_causes_biggest_first() -> None:
    """F-FORT-4 (units entering and standing in F0), F-FORT-3 (repair), F-FORT-2 (heal), F-FORT-5 (siege)."""
    events = [
        started(),
        turn(1, "pc"),
        turn(1),
        damaged("破城槌", 300, 280),
        damaged("ゴブリン隊", 280, 270),
        damaged("破城槌", 270, 262, "turn_start"),  # the same unit again: added up
        summary(1, 262),
        turn(2, "pc"),
        Event("fort.repaired", {"by": "Alice", "amount": 10, "before": 262, "after": 272}),
        Event("fort.healed", {"amount": 12, "healed": 5, "before": 272, "after": 277}),
        turn(2),
        Event(
            "fort.damaged", {"source": "siege", "effect": "meteor", "amount": 85, "before": 277, "after": 192}
        ),
        summary(2, 192),
        turn(3, "pc"),
        summary(3, 192),  # a quiet round
    ]
    timeline = fort_timeline(events, DOC)
    assert timeline == FortTimeline(
        start=300,
        max_hp=300,
        rounds=(
            RoundHP(1, 300, 262, (Cause("unit", "破城槌", -28), Cause("unit", "ゴブリン隊", -10))),
            RoundHP(
                2,
                262,
                192,
                (Cause("siege", "meteor", -85), Cause("repair", "Alice", 10), Cause("heal", None, 5)),
            ),
            RoundHP(3, 192, 192, ()),
        ),
    )
    assert timeline.end == 192
    assert timeline.rounds[1].main() == (Cause("siege", "meteor", -85), Cause("repair", "Alice", 10))
    assert [cause_text(c, "ja") for c in timeline.rounds[1].causes] == [
        "構造物破壊(メテオ・ストライク) −85",
        "緊急修繕(Alice) +10",
        "回復 +5",
    ]
    assert cause_text(Cause("unit", "破城槌", -28), "en") == "破城槌 −28"
    assert [r.round for r in marked(timeline)] == [1, 2]


def test_a_round_the_events_skip_keeps_its_hp_and_gm_changes_count() -> None:
    events = [
        started(100),
        turn(1),
        summary(1, 100),
        turn(3),
        Event("battle.gm_set", {"target": "fort.max_hp", "before": 100, "after": 150}),
        Event("battle.gm_set", {"target": "fort.hp", "before": 100, "after": 140}),
        Event("battle.gm_set", {"target": "round", "before": 3, "after": 3}),
        Event(
            "battle.ended",
            {"outcome": "success", "reason": "gm", "round": 3, "fort_hp": 140, "fort_max_hp": 150},
        ),
    ]
    timeline = fort_timeline(events, {"fort": {"hp": 140, "max_hp": 150}})
    assert timeline.max_hp == 150
    assert [(r.round, r.start, r.end, r.causes) for r in timeline.rounds] == [
        (1, 100, 100, ()),
        (2, 100, 100, ()),
        (3, 100, 140, (Cause("gm", None, 40),)),
    ]
    assert cause_text(Cause("gm", None, 40), "ja") == "GMの修正 +40"


def test_an_imported_battle_starts_where_its_first_change_started() -> None:
    events = [
        Event("service.imported", {"format": "toride.fort/1"}),
        damaged("Ram", 210, 190),  # before any round is named: it belongs to the first one named
        turn(4, "enemy"),
        damaged("Ram", 190, 175, "turn_start"),
        summary(4, 175),
    ]
    timeline = fort_timeline(events, DOC)
    assert (timeline.start, timeline.max_hp) == (210, 300)
    assert timeline.rounds == (RoundHP(4, 210, 175, (Cause("unit", "Ram", -35),)),)


def test_a_battle_without_events_is_its_document() -> None:
    timeline = fort_timeline([], {"fort": {"hp": 250, "max_hp": 300}})
    assert timeline == FortTimeline(250, 300, ())
    assert points(timeline) == [(120, 420 - round(324 * 250 / 300))]


async def test_the_final_summary_carries_the_battle_and_the_console_writes_its_chart(tmp_path: Path) -> None:
    """A whole battle through the service: F-FORT-4 (Ram 2d+10 = 3+4+10 = 17 entering, 1+2+10 = 13 at
    its turn's start, 2+2+10 = 14 at the last round's end; Gob 10 each time), F-FORT-3 (+10),
    F-FORT-5 (fixed 25); the siege taken back by /gm undo is not in the history."""
    storage = await open_storage(str(tmp_path / "battles.db"))
    try:
        session = ConsoleSession(
            BattleService(storage, ScriptedDice([3, 4, 1, 2, 2, 2])), channel="north", base_dir=tmp_path
        )
        script = [
            "/fort start rounds:2 fort_hp:100 title:T",
            "/pc add name:Alice position:top hp:30",
            "/unit add name:Ram type:ram area:A1 hp:60 fort_damage:0 strike:2d+10",
            "/unit add name:Gob type:normal area:A1 hp:30 fort_damage:10",
            "/fort next",
            "/unit move unit:Ram to:F0",
            "/unit move unit:Gob to:F0",
            "/fort next",
            "/fort siege effect:fixed amount:50",
            "/gm undo",
            "/fort repair by:Alice",
            "/fort next",
            "/fort siege effect:fixed amount:25",
        ]
        for line in script:
            reply = await session.handle(line)
            assert reply is not None and reply.ok, (line, reply)
        last = await session.handle("/fort next")
    finally:
        await storage.close()
    assert last is not None and isinstance(last.view, EventsView)
    (final,) = [s for s in last.view.summaries if s.kind == "final"]
    assert [e.data["amount"] for e in final.history if e.kind == "fort.damaged"] == [
        17,
        10,
        13,
        10,
        25,
        14,
        10,
    ]
    timeline = fort_timeline(final.history, final.document)
    assert timeline == FortTimeline(
        100,
        100,
        (
            RoundHP(1, 100, 73, (Cause("unit", "Ram", -17), Cause("unit", "Gob", -10))),
            RoundHP(
                2,
                73,
                11,
                (
                    Cause("unit", "Ram", -27),
                    Cause("siege", "fixed", -25),
                    Cause("unit", "Gob", -20),
                    Cause("repair", "Alice", 10),
                ),
            ),
        ),
    )
    chart = tmp_path / f"fort-hp-north-{last.view.seq}.png"
    assert last.text.splitlines()[-1] == f"砦HPの推移のグラフを書き出しました: {chart}"
    assert Image.open(chart).size == (1200, 640)
