"""Four real OS processes on one database (a SQLite file; PostgreSQL when TORIDE_TEST_DATABASE_URL is
set), each a BattleService of its own (tests/storage/hammer.py): one channel hammered from every
process, separate channels, undo and redo racing new actions, ``/gm add`` and ``/gm remove`` racing.

Every acknowledged action is stored exactly once and nothing refused or unacknowledged is stored; no
reply is an error and none says the battle changed; the battle's state is the sum of its live
actions. And four processes upgrading a new database at once all succeed.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from db_under_test import Database
from sqlalchemy import select

from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.battles import read_latest
from bot.storage.log import read_log
from bot.storage.rights import read_co_gms
from bot.storage.schema import alembic_config
from bot.storage.tables import battles
from bot.views import EventsView
from engine.dice import SeededDice

HAMMER = Path(__file__).with_name("hammer.py")
PROCESSES = 4
#: commands per task (tests/storage/hammer.py: eight tasks per process)
OPS = 8
TASKS = 8
START_HP = 10_000
CHANNELS = ("shared", *(f"own{p}" for p in range(PROCESSES)), *(f"ch{c}" for c in range(4)))
#: with the other tests that start several processes: one at a time, on one worker
pytestmark = pytest.mark.xdist_group("processes")
#: the refusals a racing command may rightly get (nothing to undo yet, already a co-GM ...)
FAIR = {"service.nothing_to_undo", "service.nothing_to_redo", "gm.already", "gm.not_cogm"}


def _spawn(db: Database, mode: str) -> list[dict[str, Any]]:
    """Run ``PROCESSES`` hammer workers at once; their JSON reports."""
    workers = [
        subprocess.Popen(
            [sys.executable, str(HAMMER), db.url, db.schema or "-", mode, str(p), str(OPS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(PROCESSES)
    ]
    try:
        for worker in workers:  # every process has imported the bot and opened its engine
            assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write("go\n")
            worker.stdin.flush()
        reports = []
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
            reports.append(json.loads(out.strip().splitlines()[-1]))
        return reports
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()


def _document() -> dict[str, Any]:
    unit = {"name": "Target", "type": "normal", "area": "A2", "hp": START_HP, "fort_damage": 1}
    return {"format": "toride.fort/1", "title": "hammer", "rounds": 5, "units": [unit]}


def _tag(command_text: str) -> str | None:
    last = command_text.rsplit(" ", 1)[-1]
    return last if last.startswith("#p") else None


async def test_four_processes_one_channel_and_separate_channels_no_lost_or_refused_write(
    database: Database,
) -> None:
    engine = database.engine()
    storage = database.storage()
    await storage.migrate()
    setup = BattleService(storage, SeededDice(0))
    for channel in CHANNELS:
        view = await setup.execute(
            Where("g", channel), Actor("gm"), Invocation("fort import", {"file": json.dumps(_document())})
        )
        assert isinstance(view, EventsView), view

    started = time.perf_counter()
    reports = await asyncio.to_thread(_spawn, database, "hammer")
    elapsed = time.perf_counter() - started
    results = [r for report in reports for r in report["results"]]
    acked = {r["tag"]: r for r in results if r["result"] == "ok"}
    outcomes = Counter(r["result"] for r in results)

    errors = [r for r in results if r["result"].startswith("error")]
    assert errors == []
    assert set(outcomes) - {"ok"} <= {f"refused:{key}" for key in FAIR}, outcomes

    stored: Counter[str] = Counter()
    async with engine.connect() as conn:
        for channel in CHANNELS:
            head, loaded = await conn.run_sync(read_latest, "g", channel)
            assert head is not None and loaded is not None
            rows = await conn.run_sync(read_log, head.id, 100_000)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1)) == list(range(1, head.version + 1))
            stored.update(tag for r in rows if (tag := _tag(r.command_text)) is not None)
            # the state is the sum of the live actions: every stored hit, less the undone ones
            live_hits = sum(1 for r in rows if r.status == "live" and "/unit hp" in r.command_text)
            state = loaded[0]
            assert state["units"][0]["hp"] == START_HP - live_hits, channel
            if channel != "shared":
                assert live_hits == sum(1 for r in acked.values() if r["channel"] == channel)
            if channel == "shared":
                co_gms = set(await conn.run_sync(read_co_gms, head.id))
    # every acknowledged action (and undo, redo) is stored in the log exactly once, nothing else is;
    # co-GMs are no battle state (their rows are checked below)
    logged = {tag for tag, r in acked.items() if not r["line"].startswith(("/gm add", "/gm remove"))}
    assert stored == Counter(logged)
    # each process's own co-GMs end added; z, added and removed by every process, was added only when
    # absent and removed only when there: the acknowledged adds and removes alternate, from absent
    assert {f"p{p}u{u}" for p in range(PROCESSES) for u in range(3)} <= co_gms
    z = Counter(r["line"].split()[1] for r in acked.values() if r["line"].endswith("user:z"))
    assert z["add"] - z["remove"] == ("z" in co_gms)

    refused = {k.removeprefix("refused:"): n for k, n in outcomes.items() if k != "ok"}
    print(
        f"\n[{engine.dialect.name}] {PROCESSES} processes x {TASKS} tasks: {len(results)} commands in"
        f" {elapsed:.1f} s; acknowledged {len(acked)} ({len(logged)} logged actions, undos and redos,"
        f" {len(acked) - len(logged)} co-GM changes), stored {sum(stored.values())} (each once);"
        f" refused {sum(refused.values())} {refused}; battle changed 0; errors {len(errors)};"
        f" run again on a stale cache {sum(r['conflicts'] for r in reports)};"
        f" batches run again {sum(r['retries'] for r in reports)};"
        f" plans stored by the storage writer {sum(r['stored'] for r in reports)}, not held there"
        f" {sum(r['returned'] for r in reports)}"
    )
    # every action acknowledged was a plan the storage writer stored
    actions = sum(1 for r in acked.values() if r["line"].startswith("/unit hp"))
    assert sum(r["stored"] for r in reports) == actions


async def test_four_processes_upgrading_a_new_database_at_once(database: Database) -> None:
    """The issue's case: some failed with "database is locked" or a duplicate key."""
    reports = await asyncio.to_thread(_spawn, database, "upgrade")
    assert reports == [{"ok": True}] * PROCESSES
    engine = database.engine()
    async with engine.connect() as conn:
        current = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
        assert (await conn.execute(select(battles.c.id))).all() == []
    assert current == ScriptDirectory.from_config(alembic_config()).get_current_head()
