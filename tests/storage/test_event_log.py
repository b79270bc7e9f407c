"""The event log with snapshots (issue 10): each action keeps its patch, a snapshot now and then.

Replay from a snapshot and the patches after it gives back every state the battle had, exactly
(property test over random battles with undo and redo); undo and redo work across snapshots; what a
command stores grows with what it changed. On SQLite and, with TORIDE_TEST_DATABASE_URL, PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from db_under_test import Database
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import make_engine, plans
from bot.storage.backends import storage_for
from bot.storage.battles import read_latest, read_state_at
from bot.storage.models import ACTION, DISCARDED, LIVE, UNDONE
from bot.storage.records import BattleHead
from bot.storage.tables import dumps, events
from bot.views import ErrorView, View
from engine.common import dice_values
from engine.dice import SeededDice
from engine.fort import FORT
from engine.fort.commands import command_from_json
from engine.fort.engine import replay
from engine.ruleset import Event

PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
GM = Actor("gm")


async def run(service: BattleService, where: Where, line: str) -> View:
    parsed = parse_line(line)
    assert parsed is not None
    return await service.execute(where, GM, Invocation(parsed.path, parsed.options, parsed.text))


async def ok(service: BattleService, where: Where, line: str) -> View:
    view = await run(service, where, line)
    assert not isinstance(view, ErrorView), (line, view)
    return view


@dataclass
class Recorder:
    """Each version's state as the service stored it (read back right after the command)."""

    engine: AsyncEngine
    where: Where
    states: dict[int, dict[str, Any]] = field(default_factory=dict)

    async def note(self) -> BattleHead:
        head, loaded = await stored(self.engine, self.where)
        self.states[head.version] = loaded
        return head


async def stored(engine: AsyncEngine, where: Where) -> tuple[BattleHead, dict[str, Any]]:
    """The channel's latest battle as stored: its head and its current state."""
    async with engine.connect() as conn:
        head, loaded = await conn.run_sync(read_latest, where.guild, where.channel)
    assert head is not None and loaded is not None
    return head, loaded[0]


async def rows(engine: AsyncEngine, battle_id: int) -> list[Any]:
    async with engine.connect() as conn:
        result = await conn.execute(
            select(events.c.seq, events.c.kind, events.c.status, events.c.snapshot)
            .where(events.c.battle_id == battle_id)
            .order_by(events.c.seq)
        )
        return list(result)


async def check_replay(engine: AsyncEngine, where: Where, states: dict[int, dict[str, Any]]) -> None:
    """Every action of the channel's battle that still counts replays (snapshot + patches) to the
    state stored after it; the battle's current state is the one after its last live action, and
    what the rules give from the live actions' commands and recorded dice."""
    head, current = await stored(engine, where)
    battle_id = head.id
    logged_rows = await rows(engine, battle_id)
    chain = [r.seq for r in logged_rows if r.kind == ACTION and r.status != DISCARDED]
    async with engine.connect() as conn:
        for seq in chain:
            assert await conn.run_sync(read_state_at, battle_id, seq) == states[seq], seq
        last_live = max(r.seq for r in logged_rows if r.kind == ACTION and r.status == LIVE)
        logged = await conn.execute(
            select(events.c.command, events.c.events)
            .where(
                events.c.battle_id == battle_id,
                events.c.kind == ACTION,
                events.c.status == LIVE,
            )
            .order_by(events.c.seq)
        )
        steps = [
            (
                command_from_json(json.loads(command)),
                dice_values(Event.from_json(e) for e in json.loads(encoded)),
            )
            for command, encoded in logged
        ]
    # after an undo or redo (a note), the state is the one after the last live action
    assert current == states[logged_rows[-1].seq] == states[last_live]
    # and the rules give it again from the live actions' commands with the dice their events recorded
    assert FORT.export(replay(None, steps)) == current


# ---------------------------------------------------------------------------------------------
# a database per backend for the module (each example plays its own channel)


@dataclass
class Place:
    runner: asyncio.Runner
    url: str
    schema: str | None

    def engine(self) -> AsyncEngine:
        if self.schema is None:
            return make_engine(self.url)
        return make_engine(self.url, connect_args={"server_settings": {"search_path": self.schema}})

    def storage(self) -> Any:
        return storage_for(self.url, schema=self.schema)


@pytest.fixture(scope="module", params=BACKENDS)
def place(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Place]:
    runner = asyncio.Runner()
    if request.param == "sqlite":
        spot = Place(runner, f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('log') / 'log.db'}", None)
        schema = None
    else:
        assert PG_URL is not None
        schema = "toride_test_" + uuid.uuid4().hex[:12]

        async def make() -> None:
            admin = create_async_engine(PG_URL)
            async with admin.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            await admin.dispose()

        runner.run(make())
        spot = Place(runner, PG_URL, schema)

    async def migrate() -> None:
        await spot.storage().migrate()

    runner.run(migrate())
    yield spot
    if schema is not None:

        async def drop() -> None:
            admin = create_async_engine(PG_URL or "")
            async with admin.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            await admin.dispose()

        runner.run(drop())
    runner.close()


@pytest.fixture
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot every 3 actions (the patches never outweigh one)."""
    monkeypatch.setattr(plans, "SNAPSHOT_EVERY", 3)
    monkeypatch.setattr(plans, "SNAPSHOT_WEIGHT", 10**9)


@pytest.fixture(params=["count", "weight"])
def frequent_snapshots(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot every 3 actions, or whenever the patches since the last one outweigh half a state."""
    if request.param == "count":
        monkeypatch.setattr(plans, "SNAPSHOT_EVERY", 3)
    else:
        monkeypatch.setattr(plans, "SNAPSHOT_WEIGHT", 0.5)


UNITS = ("u0", "u1", "u2", "u3")
steps = st.one_of(
    st.tuples(
        st.just("add"), st.sampled_from(UNITS), st.sampled_from(("A1", "A2", "B1", "F0")), st.integers(1, 20)
    ),
    st.tuples(st.just("hp"), st.sampled_from(UNITS), st.integers(-8, 3)),
    st.tuples(st.just("remove"), st.sampled_from(UNITS)),
    st.tuples(st.just("attack"), st.sampled_from(UNITS)),
    st.tuples(st.just("move"), st.sampled_from(UNITS), st.sampled_from(("A1", "A2", "B1", "B2", "F0"))),
    st.tuples(st.just("next")),
    st.tuples(st.just("undo"), st.integers(1, 4)),
    st.tuples(st.just("redo"), st.integers(1, 4)),
    st.tuples(st.just("fort"), st.integers(1, 300)),
)


def line_of(step: tuple[Any, ...]) -> str:
    match step:
        case ("add", name, area, hp):
            return f"/unit add name:{name} type:normal area:{area} hp:{hp} fort_damage:2 strike:1d"
        case ("hp", name, delta):
            return f"/unit hp unit:{name} delta:{delta}"
        case ("remove", name):
            return f"/unit remove unit:{name}"
        case ("attack", name):
            return f"/attack area unit:{name} damage:2d+1 radius:3"
        case ("move", name, area):
            return f"/unit move unit:{name} to:{area}"
        case ("next",):
            return "/fort next"
        case ("undo", n):
            return f"/gm undo steps:{n}"
        case ("redo", n):
            return f"/gm redo steps:{n}"
        case ("fort", hp):
            return f"/gm set target:fort.hp value:{hp}"
    raise AssertionError(step)


# the snapshot fixture is the same for every example (it sets two constants), so it is fine to share
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), plan=st.lists(steps, min_size=1, max_size=30))
def test_replay_from_snapshot_and_patches_gives_every_stored_state(
    place: Place, frequent_snapshots: None, seed: int, plan: list[tuple[Any, ...]]
) -> None:
    async def play() -> None:
        engine = place.engine()
        storage = place.storage()
        try:
            service = BattleService(storage, SeededDice(seed))
            where = Where("g", uuid.uuid4().hex[:12])
            recorder = Recorder(engine, where)
            await ok(service, where, "/fort start rounds:4 fort_hp:300")
            await recorder.note()
            await ok(service, where, "/pc add name:Alice position:outside")  # who attacks
            head = await recorder.note()
            for step in plan:
                await run(service, where, line_of(step))  # refused ones change nothing
                head = await recorder.note()
                # the service's own battle (cached) and a fresh process's agree with the stored one
                status = await service.status(where)
                assert status is not None and status.document == recorder.states[head.version]
            cold = await BattleService(storage, SeededDice(0)).status(where)
            assert cold is not None and cold.document == recorder.states[head.version]
            await check_replay(engine, where, recorder.states)
        finally:
            await storage.close()
            await engine.dispose()

    place.runner.run(play())


# ---------------------------------------------------------------------------------------------


async def test_undo_and_redo_across_snapshots(database: Database, small_snapshots: None) -> None:
    engine = database.engine()
    await database.migrate()
    storage = database.storage()
    service = BattleService(storage, SeededDice(5))
    where = Where("g", "c")
    recorder = Recorder(engine, where)
    await ok(service, where, "/fort start rounds:5")
    await recorder.note()
    await ok(service, where, "/unit add name:Orc type:normal area:A1 hp:40 fort_damage:3 strike:2d")
    await recorder.note()
    for i in range(7):  # seq 3..9
        await ok(service, where, f"/unit hp unit:Orc delta:-{i + 1}")
        head = await recorder.note()
    snapshots = [r.seq for r in await rows(engine, head.id) if r.snapshot is not None]
    assert snapshots == [1, 4, 7]  # the start, then every 3 actions
    # back 5 actions (9 .. 5), across the snapshot at 7: the state after 4
    await ok(service, where, "/gm undo steps:5")
    head = await recorder.note()
    assert recorder.states[head.version] == recorder.states[4]
    assert [u["hp"] for u in recorder.states[4]["units"]] == [40 - 1 - 2]
    # a fresh process reads the same (battle row rewritten by the undo)
    cold = await BattleService(storage, SeededDice(0)).status(where)
    assert cold is not None and cold.document == recorder.states[4]
    # forward 3 (5, 6, 7), across the snapshot at 7 again
    await ok(service, where, "/gm redo steps:3")
    head = await recorder.note()
    assert recorder.states[head.version] == recorder.states[7]
    assert [u["hp"] for u in recorder.states[7]["units"]] == [40 - 1 - 2 - 3 - 4 - 5]
    # a new action discards 8 and 9; replay still gives every state that counts
    await ok(service, where, "/unit hp unit:Orc delta:-10")
    head = await recorder.note()
    stored = await rows(engine, head.id)
    assert [(r.seq, r.status) for r in stored if r.seq in (8, 9)] == [(8, DISCARDED), (9, DISCARDED)]
    assert [u["hp"] for u in recorder.states[head.version]["units"]] == [40 - 1 - 2 - 3 - 4 - 5 - 10]
    await check_replay(engine, where, recorder.states)
    # undo everything back to the start, then redo it all
    await ok(service, where, "/gm undo steps:100")
    head = await recorder.note()
    assert recorder.states[head.version] == recorder.states[1]
    assert [r.status for r in await rows(engine, head.id) if r.kind == ACTION][-1] == UNDONE
    await ok(service, where, "/gm redo steps:100")
    head = await recorder.note()
    assert recorder.states[head.version] == recorder.states[head.version - 2]  # the last action's
    await check_replay(engine, where, recorder.states)


async def test_a_small_command_on_a_big_battle_stores_a_small_row(database: Database) -> None:
    """The log row of ``/unit hp`` holds one unit's old and new values, not the battle's 100 units."""
    engine = database.engine()
    await database.migrate()
    service = BattleService(database.storage(), SeededDice(1))
    where = Where("g", "big")
    units = [
        {"name": f"u{i}", "type": "normal", "area": "A1", "hp": 50, "fort_damage": 1, "strike": "2d"}
        for i in range(100)
    ]
    document = {"format": "toride.fort/1", "rounds": 3, "units": units}
    view = await service.execute(where, GM, Invocation("fort import", {"file": document}))
    assert not isinstance(view, ErrorView), view
    await ok(service, where, "/unit hp unit:u42 delta:-7")
    head, state = await stored(engine, where)
    async with engine.connect() as conn:
        delta, snapshot = (
            await conn.execute(
                select(events.c.delta, events.c.snapshot).where(
                    events.c.battle_id == head.id, events.c.seq == 2
                )
            )
        ).one()
    state_bytes = len(dumps(state))
    assert snapshot is None
    patch = json.loads(delta)
    assert list(patch) == ["l"] and list(patch["l"]) == ["units"]
    assert patch["l"]["units"] == [{"i": 42, "o": {"hp": 50}, "v": {"hp": 43}}]
    assert len(delta) < state_bytes / 100
