"""The service over the Ruleset protocol, with the test-only counter rule set, on a real database file."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.storage.models import BattleEvent
from bot.views import (
    ErrorView,
    EventsView,
    ExportView,
    LogView,
    NoticeView,
    StatusView,
    UndoView,
    View,
)
from engine.dice import ScriptedDice, SeededDice

HERE = Where("g1", "c1")
GM = Actor("gm")
ALICE = Actor("alice")


async def run(service: BattleService, actor: Actor, path: str, where: Where = HERE, **options: Any) -> View:
    return await service.execute(where, actor, Invocation(path, options, f"/{path}"))


async def hp(service: BattleService, where: Where = HERE) -> int:
    view = await run(service, GM, "ctr status", where)
    assert isinstance(view, StatusView)
    return int(view.document["hp"])


async def versions(engine: AsyncEngine) -> tuple[int, int]:
    async with engine.connect() as conn:
        version = (await conn.execute(text("select max(version) from battles"))).scalar_one()
        rows = (await conn.execute(select(func.count()).select_from(BattleEvent))).scalar_one()
    return int(version or 0), int(rows)


async def test_start_hit_status_and_dice_in_the_log(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([3, 4]))
    view = await run(service, GM, "ctr start", hp="50", title="砦")
    assert isinstance(view, EventsView) and view.seq == 1
    assert [e.kind for e in view.events] == ["ctr.started"]
    view = await run(service, ALICE, "ctr hit", amount="2d6")
    assert isinstance(view, EventsView)
    assert view.events[0].data == {"damage": 7, "hp": 43, "by": "alice"}
    assert view.events[0].dice == ((6, 3), (6, 4))
    assert await hp(service) == 43
    log = await run(service, GM, "ctr log")
    assert isinstance(log, LogView)
    assert [(e.seq, e.actor, e.text) for e in log.entries] == [
        (1, "gm", "/ctr start"),
        (2, "alice", "/ctr hit"),
    ]
    assert log.entries[1].events[0].dice == ((6, 3), (6, 4))


async def test_state_survives_a_new_service(storage: Storage) -> None:
    first = BattleService(storage, SeededDice(1))
    await run(first, GM, "ctr start", hp="30")
    await run(first, GM, "ctr hit", amount="5")
    second = BattleService(storage, SeededDice(1))
    assert await hp(second) == 25
    view = await run(second, GM, "ctr hit", amount="5")
    assert isinstance(view, EventsView) and view.seq == 3


async def test_refusals_change_nothing(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, ScriptedDice([6, 6]))
    refused = await run(service, GM, "ctr hit", amount="1")
    assert isinstance(refused, ErrorView) and refused.key == "service.no_battle"
    await run(service, GM, "ctr start", hp="10")
    before = await versions(engine)
    cases = [
        (ALICE, "ctr next", {}, "service.gm_only"),
        (ALICE, "ctr end", {}, "service.gm_only"),
        (ALICE, "gm undo", {}, "service.gm_only"),
        (ALICE, "gm set", {"target": "hp", "value": "99"}, "service.gm_only"),
        (GM, "ctr start", {"hp": "10"}, "service.battle_running"),
        (GM, "ctr hit", {"amount": "11"}, "ctr.too_much"),
        (GM, "ctr hit", {"amount": "2d6"}, "ctr.too_much"),  # rolls 12 > 10: dice given back
        (GM, "ctr hit", {}, "command.missing_option"),
        (GM, "ctr hit", {"amount": "1", "colour": "red"}, "command.unknown_option"),
        (GM, "ctr start", {"hp": "zero"}, "command.not_int"),
        (GM, "ctr log", {"last": "0"}, "command.out_of_range"),
        (GM, "ctr fly", {}, "command.unknown_sub"),
        (GM, "gm set", {"target": "mood", "value": "1"}, "ctr.bad_target"),
        (GM, "gm redo", {}, "service.nothing_to_redo"),
        (GM, "gm undo", {}, "service.nothing_to_undo"),
    ]
    for actor, path, options, key in cases:
        view = await run(service, actor, path, **options)
        assert isinstance(view, ErrorView), (path, view)
        assert view.key == key, (path, view)
        assert await versions(engine) == before, path
    # the refused roll gave its dice back: the next roll uses them
    ok = await run(service, GM, "ctr hit", amount="1")
    assert isinstance(ok, EventsView)
    assert service.dice_source().remaining == 2  # type: ignore[attr-defined]


async def test_co_gm(storage: Storage) -> None:
    service = BattleService(storage, SeededDice(0))
    await run(service, GM, "ctr start", hp="10")
    assert isinstance(await run(service, ALICE, "ctr next"), ErrorView)
    added = await run(service, GM, "gm add", user="@alice")
    assert isinstance(added, NoticeView) and added.values == {"user": "alice"}
    again = await run(service, GM, "gm add", user="alice")
    assert isinstance(again, ErrorView) and again.key == "gm.already"
    assert isinstance(await run(service, ALICE, "ctr next"), EventsView)
    assert isinstance(await run(service, ALICE, "gm remove", user="alice"), NoticeView)
    assert isinstance(await run(service, ALICE, "ctr next"), ErrorView)
    # Manage Channels alone does not make a GM (COMMANDS.md): /gm takeover does, and says so
    mod = Actor("mod", manage_channels=True)
    assert isinstance(await run(service, mod, "ctr next"), ErrorView)
    took = await run(service, mod, "gm takeover")
    assert isinstance(took, NoticeView) and took.key == "gm.took_over" and took.values == {"user": "mod"}
    assert isinstance(await run(service, mod, "ctr next"), EventsView)


async def test_undo_redo_several_steps_dice_included(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([1, 2, 3, 4, 5, 6]))
    await run(service, GM, "ctr start", hp="100")
    states = []
    for _ in range(3):
        await run(service, GM, "ctr hit", amount="2d")
        states.append(dict((await run(service, GM, "ctr export")).document))  # type: ignore[attr-defined]
    assert [s["hp"] for s in states] == [97, 90, 79]
    undo = await run(service, GM, "gm undo", steps="2")
    assert isinstance(undo, UndoView) and [e.seq for e in undo.entries] == [4, 3]
    assert await hp(service) == 97
    redo = await run(service, GM, "gm redo")
    assert isinstance(redo, UndoView) and [e.seq for e in redo.entries] == [3]
    export = await run(service, GM, "ctr export")
    assert isinstance(export, ExportView) and export.document == states[1]
    redo = await run(service, GM, "gm redo")
    export = await run(service, GM, "ctr export")
    assert isinstance(export, ExportView) and export.document == states[2]  # rolls [5, 6] included
    assert export.document["rolls"] == [1, 2, 3, 4, 5, 6]
    # undo everything but the start; the start itself stays
    undo = await run(service, GM, "gm undo", steps="10")
    assert isinstance(undo, UndoView) and len(undo.entries) == 3
    assert await hp(service) == 100
    # a new action drops the redo chain
    await run(service, GM, "ctr hit", amount="1")
    refused = await run(service, GM, "gm redo")
    assert isinstance(refused, ErrorView) and refused.key == "service.nothing_to_redo"
    log = await run(service, GM, "ctr log", last="50")
    assert isinstance(log, LogView)
    # the log keeps everything: the three hits taken back (now beyond redo) and who undid them
    assert [(e.seq, e.status) for e in log.entries if e.kind == "action"] == [
        (1, "live"),
        (2, "discarded"),
        (3, "discarded"),
        (4, "discarded"),
        (9, "live"),
    ]
    assert [e.text for e in log.entries][-1] == "/ctr hit"


async def test_undo_reopens_an_ended_battle(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, SeededDice(0))
    await run(service, GM, "ctr start", hp="10")
    end = await run(service, GM, "ctr end")
    assert isinstance(end, EventsView) and end.ended
    assert [s.kind for s in end.summaries] == ["final"]
    # the last battle stays readable (status, log, export); the rules refuse the rest
    after = await run(service, GM, "ctr status")
    assert isinstance(after, StatusView) and after.document["ended"] is True
    refused = await run(service, GM, "ctr hit", amount="1")
    assert isinstance(refused, ErrorView) and refused.key == "ctr.over"
    await run(service, GM, "gm undo")
    assert await hp(service) == 10
    assert isinstance(await run(service, GM, "ctr end"), EventsView)
    # an ended battle is kept; a new one may start
    assert isinstance(await run(service, GM, "ctr start", hp="5"), EventsView)
    async with engine.connect() as conn:
        rows = (await conn.execute(text("select status from battles order by id"))).scalars().all()
    assert rows == ["ended", "running"]


async def test_round_summary_lists_the_round_with_dice(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([2, 3, 4, 4]))
    await run(service, GM, "ctr start", hp="50")
    await run(service, GM, "ctr hit", amount="2d")
    first = await run(service, GM, "ctr next")
    assert isinstance(first, EventsView)
    assert [e.kind for e in first.summaries[0].events] == ["ctr.started", "ctr.hit", "ctr.round_ended"]
    await run(service, GM, "ctr hit", amount="2d")
    await run(service, GM, "ctr hit", amount="3")
    second = await run(service, GM, "ctr next")
    assert isinstance(second, EventsView)
    summary = second.summaries[0]
    assert summary.round == 2
    assert [(e.kind, e.data.get("damage")) for e in summary.events] == [
        ("ctr.hit", 8),
        ("ctr.hit", 3),
        ("ctr.round_ended", None),
    ]
    assert summary.events[0].dice == ((6, 4), (6, 4))


async def test_import_of_an_export(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([6, 5]))
    await run(service, GM, "ctr start", hp="40", title="北")
    await run(service, GM, "ctr hit", amount="2d")
    export = await run(service, GM, "ctr export")
    assert isinstance(export, ExportView)
    other = Where("g1", "c2")
    view = await run(service, ALICE, "ctr import", other, file=dict(export.document))
    assert isinstance(view, EventsView) and view.events[0].kind == "service.imported"
    again = await run(service, GM, "ctr export", other)
    assert isinstance(again, ExportView) and again.document == export.document
    # alice imported it, so alice is its GM there
    assert isinstance(await run(service, ALICE, "ctr next", other), EventsView)
    bad = await run(service, GM, "ctr import", Where("g1", "c3"), file='{"format": "toride.other/9"}')
    assert isinstance(bad, ErrorView) and bad.key == "service.import_format"
    broken = await run(service, GM, "ctr import", Where("g1", "c3"), file="{not json")
    assert isinstance(broken, ErrorView) and broken.key == "command.bad_json"
    running = await run(service, GM, "ctr import", file=dict(export.document))
    assert isinstance(running, ErrorView) and running.key == "service.battle_running"


async def test_many_tasks_on_one_channel_lose_nothing(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, SeededDice(0))
    await run(service, GM, "ctr start", hp="1000")
    views = await asyncio.gather(*(run(service, Actor(f"p{i}"), "ctr hit", amount="3") for i in range(60)))
    assert all(isinstance(v, EventsView) for v in views)
    assert sorted(v.seq for v in views) == list(range(2, 62))  # type: ignore[attr-defined]
    assert await hp(service) == 1000 - 180
    assert await versions(engine) == (61, 61)


async def test_two_services_on_one_database_lose_no_update(
    storage: Storage, engine: AsyncEngine, db_path: Any
) -> None:
    from bot.storage import open_storage

    other_storage = await open_storage(str(db_path))
    try:
        one = BattleService(storage, SeededDice(1))
        two = BattleService(other_storage, SeededDice(2))
        await run(one, GM, "ctr start", hp="1000")
        await run(two, GM, "ctr status")  # both have the battle cached now
        tasks = [run(one if i % 2 else two, GM, "ctr hit", amount="2") for i in range(80)]
        views = await asyncio.gather(*tasks)
        ok = [v for v in views if isinstance(v, EventsView)]
        # the second writer of the channel waits for the first (under its lock), it is never refused:
        # a command that finds its cached battle stale runs again on the stored one, under the lock
        assert [v for v in views if isinstance(v, ErrorView)] == []
        assert one.actions.conflicts + two.actions.conflicts > 0
        # every acknowledged hit is there, exactly once
        assert len(ok) == 80
        assert await hp(one) == 1000 - 2 * len(ok)
        assert await hp(two) == 1000 - 2 * len(ok)
        assert await versions(engine) == (1 + len(ok), 1 + len(ok))
    finally:
        await other_storage.close()


async def test_a_small_cache_loads_battles_again(storage: Storage) -> None:
    service = BattleService(storage, SeededDice(0), cache_size=2)
    wheres = [Where("g1", f"c{i}") for i in range(5)]
    for i, where in enumerate(wheres):
        await run(service, GM, "ctr start", where, hp=str(10 + i))
    assert len(service._live) == 2
    for i, where in enumerate(wheres):
        await run(service, GM, "ctr hit", where, amount="1")
        assert await hp(service, where) == 9 + i
    assert len(service._live) == 2
