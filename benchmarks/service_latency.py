"""Service benchmark: what a command costs through the service, on SQLite and on PostgreSQL.

    python benchmarks/service_latency.py [--quick] [--runs 5] [--backends sqlite,postgresql]

PostgreSQL is measured when a server answers at ``TORIDE_TEST_DATABASE_URL`` (else
``postgresql+asyncpg://postgres@127.0.0.1:5432/postgres``), in a schema of its own, dropped after.

Sections (each figure is the median of ``--runs`` runs; the raw commit rate of the same database is
measured in the same run and printed beside every throughput):

- **growth**: bytes the database grows by per ``/unit hp`` command on a 10-, 100-, 1,000-unit battle
  (SQLite: the file after a WAL checkpoint; PostgreSQL: both tables with their TOAST and indexes,
  after a VACUUM, so dead row versions a VACUUM would reuse are not counted twice), and the CPU per
  write: of the rules, export and serialisation alone (what issue 10 made incremental), and of the
  whole process (process time of a write through the service, one at a time, cached battle: the
  database driver's thread and SQLAlchemy included).
- **latency**: round end (the ``/fort next`` that closes a round: write plus round summary), ``/gm
  undo``, ``/gm redo`` and ``/fort log last:50`` with 0 / 1k / 10k / 100k earlier actions (the history
  is bulk-inserted as rows of the stored schema, a no-op ``/unit hp delta:0`` each, as the service
  would have stored them).
- **throughput**: 1, 10, 100 channels each playing a battle at once; persisted commands/s, the
  p50 / p99 latency of a command and the process time per command (group commit shares a
  transaction's cost among its commands), beside the raw commit rate (one-row transactions, one writer and as
  many concurrent writers as channels), and how late the event loop woke up meanwhile (``loop stall
  worst W ms p99 P ms``: a task that sleeps 1 ms at a time measures how much later it runs again),
  with the loop thread's CPU time in the worst of those stalls and the p99 of it (a stall whose CPU
  is much less than its length was the loop's thread waiting: for the GIL, or for a core on a busy
  machine). Each channel sends its next command once the last is answered; the pass in which the
  plays start (every channel's first line parsed at once, ``--channels`` of them) is not measured.
- **load**: the CPU of a ``/fort export`` on a 100-unit battle the service does not hold (read, the
  stored state made a battle again) beside one it holds, and the memory a held battle takes (after
  one action on it: what the service keeps between commands), by ``tracemalloc``.
- **processes**: 4 processes x 8 tasks hitting one channel (as tests/storage/test_processes.py runs
  them) beside 1 process x 8 tasks on one channel: persisted commands/s.

Goals (issue 22): loop stall worst ≤ 10 ms at 100 channels on SQLite (with no more than 20% of the
commands/s lost for it); an uncached load ≤ 2 ms of CPU at 100 units; several processes on one
channel at least a quarter of one process's rate.

The process is settled first as a bot process is once started (``bot.service.pacing.settle_process``:
``gc.freeze()``); ``--unsettled`` leaves it as Python starts it.

What the loop stall was made of (issue 22, SQLite, 100 channels x 100 units, measured with the
loop's passes and callbacks timed one by one): every command's continuation landing in one pass of
the loop (the writer's whole batch answered, each answered channel deciding its next command) and
a due timer run only after all of them; garbage collections of the youngest generation of 10,000 to
15,000 objects (3 to 6 ms each: the fort export's memo made a new pair per unit per command, and
every freed old object kept the collector's count down) and of the next (6 to 8 ms); full
collections (60 to 80 ms; 30 ms once the objects made at start are frozen). Pacing
(``bot.service.pacing``) lets one pass begin about 2 ms of commands; a held battle keeps its state and
the stored text only (no document, no export memo: fewer objects for the collector); the process is
settled. The loop's thread waiting while the writer's thread held the GIL was not seen: in the long
stalls whose CPU was a fraction of their length, no batch was being written.

Measured (2 CPUs, idle but for the benchmark, load average about 1, ``--quick --runs 3 --channels 100
--throughput-commands 2000``, run in turn: the session's start cfc656b / now, then the fast lane of
fce1750 beside): commands/s 1806 1754 1799 / 1850 1846 1815 (3 ms pacing), fast lane 1959 1645 1534;
loop stall worst 14.9 16.8 17.3 / 7.6 7.5 8.9 ms, p99 13.5 15.2 14.0 / 7.2 6.3 7.9 ms, fast lane
worst 118 ms. Pacing's budget, 2 ms against 3 ms, three pairs: worst 6.9 8.8 7.2 / 9.0 9.2 8.5 ms,
p99 5.6 6.4 5.6 / 7.4 8.2 8.3 ms, commands/s 1651 1359 1597 / 1696 1575 1542 (fast lane in the same
run: 1422 1519 1506). Six single runs (``--runs 1``): worst stall 9.2 to 10.8 ms at 3 ms, 5.7 to 7.6
ms at 2 ms. What is left in the worst stall is one window of commands and a young collection.
Uncached load (``--quick --runs 5 --sections load``, three pairs run in turn, a26ac97 / the storage
reader): SQLite 4.78 4.88 4.32 / 1.83 1.30 1.64 ms of CPU, PostgreSQL 2.47 2.77 2.10 / 1.82 1.74
1.78 ms. Of a SQLite load now (medians of 300, settled): the read on the reader's thread, its
hop there and back included, 0.5-0.6 ms (0.2 of it the JSON of the state), the restore 0.3 ms; it
was 2.4-2.5 ms for the read through the async engine (aiosqlite's thread hops and SQLAlchemy's
greenlets, five statements).
Goals (issue 10): growth ≤ 2,000 bytes per command at 100 units; round end, undo, redo and log within
10 ms at 100 units at any history length; CPU per write ≤ 0.3 ms at 100 units; 100 channels of
100-unit battles ≥ 2,000 commands/s with p99 ≤ 100 ms.
Goals (issue 33, the storage behind one interface, the rare commands' jobs on the storage writer's
thread): the throughput section's 100 channels x 100 units within 20% of the commands/s before it,
loop stall worst ≤ 10 ms, and the load section's uncached load ≤ 2 ms of CPU, on SQLite and PostgreSQL.
Measured (2 CPUs, load average about 1, ``--quick --runs 3 --sections throughput,load --channels 100
--throughput-commands 2000``, five pairs run in turn, 8379e73 / after, medians of the five): SQLite
3030 / 3066 commands/s, loop stall worst 5.8 / 6.3 ms, uncached load 1.21 / 1.40 ms of CPU;
PostgreSQL 2309 / 2228 commands/s, worst stall 9.8 / 9.4 ms, uncached load 1.24 / 1.29 ms (single
runs of either reached 12 ms of stall on PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Table, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import make_engine
from bot.storage.models import Battle, BattleEvent
from bot.views import ErrorView, ExportView
from engine.dice import DiceSource, SeededDice

# the benchmark also runs on the code before these, for the baseline
try:  # since issue 22's pacing
    from bot.service import pacing
except ImportError:
    pacing = None  # type: ignore[assignment]
try:  # since issue 33: the service is given a storage (one interface), not an engine
    from bot.storage.backends import storage_for

    upgrade = None
except ImportError:
    from bot.storage import upgrade

    storage_for = None  # type: ignore[assignment]
try:  # since issue 33: the rule sets in a registry, installed by the entry point
    from bot.registry import lookup
    from bot.registry import rulesets as installed_rulesets
    from bot.rulesets.builtin import ensure_builtin

    def fort_ruleset() -> Any:
        return installed_rulesets().get("fort")

except ImportError:
    from bot import rulesets as old_rulesets  # type: ignore[attr-defined,no-redef]
    from bot.commands import lookup  # type: ignore[attr-defined,no-redef]

    def ensure_builtin() -> Any:  # type: ignore[misc]
        old_rulesets.load_builtin()

    def fort_ruleset() -> Any:
        return old_rulesets.get("fort")

try:  # since issue 33, where the snapshot rules live
    from bot.storage import plans as snapshot_rules
except ImportError:
    from bot.storage import repository as snapshot_rules  # type: ignore[no-redef]

GM = Actor("gm")
PG_DEFAULT = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
battles_table = cast(Table, Battle.__table__)
events_table = cast(Table, BattleEvent.__table__)


def dumps(value: Any) -> str:
    """JSON text as the storage writes it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# databases


@dataclass
class Backend:
    name: str
    url: str
    schema: str | None = None
    path: Path | None = None

    def engine(self) -> AsyncEngine:
        if self.schema is None:
            return make_engine(self.url)
        return make_engine(self.url, connect_args={"server_settings": {"search_path": self.schema}})

    def service(self, engine: AsyncEngine, dice: DiceSource) -> BattleService:
        """A service (a process) on this database: on a storage of its own, or (before issue 33) on
        ``engine``."""
        if storage_for is None:
            return BattleService(engine, dice)
        return BattleService(storage_for(self.url, schema=self.schema), dice)  # type: ignore[arg-type]


async def pg_available(url: str) -> bool:
    probe = create_async_engine(url)
    try:
        async with probe.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False
    finally:
        await probe.dispose()


class Databases:
    """Fresh databases of one backend: SQLite files in a temporary directory, PostgreSQL schemas."""

    def __init__(self, backend: str, tmp: Path, pg_url: str) -> None:
        self.backend, self.tmp, self.pg_url = backend, tmp, pg_url
        self.schemas: list[str] = []

    async def fresh(self) -> tuple[Backend, AsyncEngine]:
        if self.backend == "sqlite":
            path = self.tmp / f"{uuid.uuid4().hex[:8]}.db"
            db = Backend("sqlite", f"sqlite+aiosqlite:///{path}", path=path)
        else:
            schema = "toride_bench_" + uuid.uuid4().hex[:10]
            admin = create_async_engine(self.pg_url)
            async with admin.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            await admin.dispose()
            self.schemas.append(schema)
            db = Backend("postgresql", self.pg_url, schema=schema)
        engine = db.engine()
        if storage_for is None:
            await upgrade(engine)
        else:  # as a process's start does
            await storage_for(db.url, schema=db.schema).migrate()
        return db, engine

    async def drop_all(self) -> None:
        if not self.schemas:
            return
        admin = create_async_engine(self.pg_url)
        async with admin.begin() as conn:
            for schema in self.schemas:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


async def db_bytes(db: Backend, engine: AsyncEngine) -> int:
    """What the database holds on disk now (see the module's docstring)."""
    if db.path is not None:
        async with engine.connect() as conn:
            await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        return db.path.stat().st_size
    async with engine.connect() as conn:
        await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.exec_driver_sql("VACUUM battles")
        await conn.exec_driver_sql("VACUUM battle_events")
        size = (
            await conn.execute(
                text("SELECT pg_total_relation_size('battles') + pg_total_relation_size('battle_events')")
            )
        ).scalar_one()
    return int(size)


async def raw_commits(engine: AsyncEngine, writers: int, seconds: float = 1.0) -> float:
    """One-row write transactions per second on the same database (the engine's own settings)."""
    serial = "INTEGER PRIMARY KEY" if engine.dialect.name == "sqlite" else "BIGSERIAL PRIMARY KEY"
    async with engine.begin() as conn:
        await conn.exec_driver_sql(f"CREATE TABLE IF NOT EXISTS bench_commit (id {serial}, v TEXT)")
    counter = [0]
    lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
    stop = time.perf_counter() + seconds

    async def writer(w: int) -> None:
        i = 0
        while time.perf_counter() < stop:
            i += 1
            if lock is not None:
                async with lock, engine.connect() as conn:
                    await conn.execution_options(toride_write=True)
                    async with conn.begin():
                        await conn.execute(
                            text("INSERT INTO bench_commit (v) VALUES (:v)"), {"v": f"{w}:{i}"}
                        )
            else:
                async with engine.begin() as conn:
                    await conn.execute(text("INSERT INTO bench_commit (v) VALUES (:v)"), {"v": f"{w}:{i}"})
            counter[0] += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(writer(w) for w in range(writers)))
    return counter[0] / (time.perf_counter() - t0)


# ---------------------------------------------------------------------------------------------
# battles


def battle_document(units: int) -> dict[str, Any]:
    """A fort battle with ``units`` enemy units (none at F0) and one PC, 99 rounds."""
    return {
        "format": "toride.fort/1",
        "title": "bench",
        "rounds": 99,
        "pcs": [{"name": "Alice", "position": "outside"}],
        "units": [
            {
                "name": f"u{i}",
                "type": "normal",
                "area": ("A1", "A2", "B1", "B2")[i % 4],
                "hp": 100000,
                "fort_damage": 1,
                "strike": "2d+3",
            }
            for i in range(units)
        ],
    }


async def run(service: BattleService, where: Where, line: str) -> None:
    parsed = parse_line(line)
    assert parsed is not None
    view = await service.execute(where, GM, Invocation(parsed.path, parsed.options, parsed.text))
    if isinstance(view, ErrorView):
        raise RuntimeError(f"{line}: {view.key} {view.values}")


#: the most units a battle may be given (COMMANDS.md); a bigger one is stored directly, as a battle
#: stored before the limits, which loads and plays on
MAX_IMPORTED_UNITS = 200


async def latest(conn: Any, where: Where) -> tuple[int, int]:
    """(id, version) of the channel's latest battle."""
    row = (
        await conn.execute(
            select(battles_table.c.id, battles_table.c.version)
            .where(battles_table.c.guild_id == where.guild, battles_table.c.channel_id == where.channel)
            .order_by(battles_table.c.id.desc())
            .limit(1)
        )
    ).one()
    return int(row[0]), int(row[1])


async def start(engine: AsyncEngine, service: BattleService, where: Where, units: int) -> None:
    document = battle_document(min(units, MAX_IMPORTED_UNITS))
    view = await service.execute(where, GM, Invocation("fort import", {"file": document}))
    if isinstance(view, ErrorView):
        raise RuntimeError(f"import: {view.key} {view.values}")
    if units <= MAX_IMPORTED_UNITS:
        return
    binding = fort_ruleset()
    assert binding is not None
    # as the service stores a state: the rules' own export of it
    text_state = dumps(binding.ruleset.export(binding.ruleset.import_(battle_document(units))))
    events, battles = events_table, battles_table
    async with engine.connect() as conn:
        await conn.execution_options(toride_write=True)  # SQLite: BEGIN IMMEDIATE, as the service writes
        await conn.begin()
        battle_id, version = await latest(conn, where)
        values: dict[str, Any] = {"state": text_state}
        if has_column(battles, "state_seq"):
            values["state_seq"] = version
        await conn.execute(update(battles).where(battles.c.id == battle_id).values(**values))
        row = {"snapshot" if has_column(events, "snapshot") else "state_after": text_state}
        await conn.execute(
            update(events).where(events.c.battle_id == battle_id, events.c.seq == 1).values(**row)
        )
        await conn.commit()
    service._live.pop((where.guild, where.channel), None)


def has_column(table: Table, name: str) -> bool:
    return name in table.c


async def bulk_history(engine: AsyncEngine, service: BattleService, where: Where, count: int) -> None:
    """``count`` more actions in the log, as the service stores them (a no-op ``/unit hp delta:0``
    each), inserted in bulk; the battle's version follows."""
    if count <= 0:
        return
    await run(service, where, "/unit hp unit:u0 delta:0")
    events = events_table
    async with engine.connect() as conn:
        battle_id, version = await latest(conn, where)
        model = (
            (
                await conn.execute(
                    select(events).where(events.c.battle_id == battle_id, events.c.seq == version)
                )
            )
            .mappings()
            .one()
        )
    base = {k: v for k, v in model.items() if k != "id"}
    assert len(base.get("delta") or "") < 100, "the copied no-op must change nothing"
    first = version + 1
    last = version + count - 1
    keep_states = has_column(events, "state_after") and not has_column(events, "delta")
    snapshot_every = getattr(snapshot_rules, "SNAPSHOT_EVERY", None)
    # the current state: the GM's export is the whole document the service stores
    exported = await service.execute(where, GM, Invocation("fort export", {}))
    assert isinstance(exported, ExportView) and exported.document is not None
    state_text = dumps(exported.document)
    rows = []
    for seq in range(first, last + 1):
        row = dict(base, seq=seq)
        if keep_states:
            # the schema before issue 10 kept the state on every row; only the last 1,000 are filled
            # here (the reads measured touch no older one), to keep the file small
            row["state_after"] = base["state_after"] if seq > last - 1000 else None
        elif snapshot_every:
            # as the service stores a no-op: a patch of nothing, a snapshot every SNAPSHOT_EVERY
            row["snapshot"] = state_text if (seq - version) % snapshot_every == 0 else None
        rows.append(row)
    async with engine.begin() as conn:
        for i in range(0, len(rows), 5000):
            await conn.execute(insert(events), rows[i : i + 5000])
        values: dict[str, Any] = {"version": last}
        if not keep_states:  # the battle row's state is the (unchanged) current one
            values.update(state=state_text, state_seq=last, pending_bytes=0)
        await conn.execute(update(battles_table).where(battles_table.c.id == battle_id).values(**values))
    # the service's cached battle is at the old version: it reads the stored one again
    service._live.clear()


# ---------------------------------------------------------------------------------------------
# sections


async def timed(action: Callable[[], Awaitable[None]]) -> float:
    t0 = time.perf_counter()
    await action()
    return (time.perf_counter() - t0) * 1000


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
    return ordered[index]


async def growth(dbs: Databases, units: int, commands: int, runs: int) -> tuple[float, float]:
    """(bytes per command, CPU ms per write), medians over ``runs``."""
    sizes, cpus = [], []
    for r in range(runs):
        db, engine = await dbs.fresh()
        service = db.service(engine, SeededDice(r))
        where = Where("bench", "growth")
        await start(engine, service, where, units)
        for i in range(50):  # warm: caches, the battle loaded, the first pages allocated
            await run(service, where, f"/unit hp unit:u{i % units} delta:-1")
        before = await db_bytes(db, engine)
        cpu0 = time.process_time()
        for i in range(commands):
            await run(service, where, f"/unit hp unit:u{i % units} delta:-1")
        cpus.append((time.process_time() - cpu0) / commands * 1000)
        sizes.append((await db_bytes(db, engine) - before) / commands)
        await close(service)
        await engine.dispose()
    return statistics.median(sizes), statistics.median(cpus)


def serialise_cpu(units: int, commands: int, runs: int) -> float:
    """CPU (ms) of what a write does besides the database, for ``/unit hp`` on a battle of ``units``:
    the rules, the state's export and serialisation, the log row's JSON (and, since issue 10, the
    patch; before it the whole state). Median of ``runs``."""
    from bot.commands import BuildContext, convert

    try:
        from bot.storage import docpatch
    except ImportError:  # before issue 10
        docpatch = None  # type: ignore[assignment]
    binding = fort_ruleset()
    assert binding is not None
    spec = lookup("unit hp")
    build = spec.build if spec.build is not None else binding.builders[spec.path]
    medians = []
    for r in range(runs):
        state = binding.ruleset.import_(battle_document(units))
        dice = SeededDice(r)
        commands_built = []
        for i in range(commands):
            parsed = parse_line(f"/unit hp unit:u{i % units} delta:-1")
            assert parsed is not None
            commands_built.append(
                build(convert(spec, parsed.options), BuildContext(invoker="gm", is_gm=True))
            )
        if docpatch is not None:
            encode = encoder(binding, docpatch)
            encoded = encode(state, None)
        t0 = time.process_time()
        for command in commands_built:
            outcome = binding.ruleset.apply(state, command, dice)
            if docpatch is not None:
                new = encode(outcome.state, encoded)
                dumps(docpatch.diff(encoded, new))
                _ = new.size
                encoded = new
            else:
                dumps(binding.ruleset.export(outcome.state))
            dumps(binding.command_to_json(command))
            dumps([e.to_json() for e in outcome.events])
            state = outcome.state
        medians.append((time.process_time() - t0) / commands * 1000)
    return statistics.median(medians)


async def latency(dbs: Databases, units: int, history: int, runs: int) -> dict[str, float]:
    db, engine = await dbs.fresh()
    service = db.service(engine, SeededDice(7))
    where = Where("bench", "latency")
    await start(engine, service, where, units)
    await bulk_history(engine, service, where, history)
    await run(service, where, "/unit hp unit:u1 delta:-1")  # loads the battle into the cache
    out: dict[str, list[float]] = {"round end": [], "undo": [], "redo": [], "log last:50": []}
    for _ in range(runs):
        await run(service, where, "/fort next")  # the PC side's turn ends
        out["round end"].append(await timed(lambda: run(service, where, "/fort next")))
        out["undo"].append(await timed(lambda: run(service, where, "/gm undo")))
        out["redo"].append(await timed(lambda: run(service, where, "/gm redo")))
        out["log last:50"].append(await timed(lambda: run(service, where, "/fort log last:50")))
    await close(service)
    await engine.dispose()
    return {k: statistics.median(v) for k, v in out.items()}


async def _play(
    service: BattleService, where: Where, units: int, commands: int, samples: list[float]
) -> None:
    for i in range(commands):
        line = f"/unit hp unit:u{i % units} delta:-1"
        samples.append(await timed(lambda line=line: run(service, where, line)))


class LoopStalls:
    """How late the event loop runs a task that sleeps ``TICK`` s at a time (ms per wake-up), and how
    much of that the loop's thread spent running (its CPU time: what the code on the loop costs; the
    rest is waiting for a core on a busy machine, or for the GIL)."""

    TICK = 0.001

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.cpu: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            t0, c0 = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.TICK)
            self.samples.append(max(0.0, (time.perf_counter() - t0 - self.TICK) * 1000))
            self.cpu.append((time.thread_time() - c0) * 1000)

    def __enter__(self) -> LoopStalls:
        self._task = asyncio.get_running_loop().create_task(self._watch())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def throughput(
    dbs: Databases, channels: int, units: int, per_channel: int, runs: int
) -> tuple[float, ...]:
    """(commands/s, p50 ms, p99 ms, CPU ms per command, raw commits/s one writer, raw commits/s
    ``channels`` writers, loop stall worst ms, p99 ms, the loop thread's CPU in the worst stall, the
    p99 of the loop thread's CPU in a stall)."""
    rates, p50s, p99s, cpus, raw1, rawn, worst, stall99, cpu_worst, cpu99 = ([] for _ in range(10))
    for r in range(runs):
        db, engine = await dbs.fresh()
        service = db.service(engine, SeededDice(r))
        wheres = [Where("bench", f"ch{c}") for c in range(channels)]
        for where in wheres:
            await start(engine, service, where, units)
        samples: list[float] = []
        parse_line("/unit hp unit:u0 delta:-1")  # the console's tables, built once per process
        t0, cpu0 = time.perf_counter(), time.process_time()
        plays = [asyncio.create_task(_play(service, w, units, per_channel, samples)) for w in wheres]
        # the plays' first steps, all in one pass (the console parsing every channel's first line, the
        # service's pacer letting a few of them go on): a start the benchmark makes, not measured
        await asyncio.sleep(0)
        with LoopStalls() as stalls:
            await asyncio.gather(*plays)
        worst.append(max(stalls.samples))
        stall99.append(percentile(stalls.samples, 99))
        cpu_worst.append(stalls.cpu[stalls.samples.index(worst[-1])])
        cpu99.append(percentile(stalls.cpu, 99))
        rates.append(channels * per_channel / (time.perf_counter() - t0))
        cpus.append((time.process_time() - cpu0) / (channels * per_channel) * 1000)
        p50s.append(statistics.median(samples))
        p99s.append(percentile(samples, 99))
        raw1.append(await raw_commits(engine, 1))
        rawn.append(await raw_commits(engine, channels))
        await close(service)
        await engine.dispose()
    figures = (rates, p50s, p99s, cpus, raw1, rawn, worst, stall99, cpu_worst, cpu99)
    return tuple(statistics.median(x) for x in figures)


def encoder(binding: Any, docpatch: Any) -> Any:
    """(state, the previous encoding or None) → the state's encoding, as the service makes it (before
    issue 22: with the export memo that kept each element's document)."""
    try:
        from bot.service.types import encode
    except ImportError:
        memo = binding.export_memo() if binding.export_memo is not None else None
        return lambda state, previous: docpatch.encode(binding.export(state, memo), previous)
    return lambda state, previous: encode(binding, state, previous)


async def close(service: BattleService) -> None:
    """Close what the service opened, and the storage it was given (before issue 22 a service had
    nothing to close; before issue 33 it closed its storage threads itself)."""
    closing = getattr(service, "close", None)
    if closing is not None:
        await closing()
    if storage_for is not None:
        await service.storage.close()


async def load(dbs: Databases, units: int, loads: int, runs: int) -> tuple[float, float, float]:
    """(CPU ms of an uncached ``/fort export``, of a cached one, KB per held battle), medians."""
    uncached, cached, sizes = [], [], []
    for r in range(runs):
        db, engine = await dbs.fresh()
        service = db.service(engine, SeededDice(r))
        where = Where("bench", "load")
        await start(engine, service, where, units)
        await run(service, where, "/unit hp unit:u0 delta:-1")
        for samples, clear in ((uncached, True), (cached, False)):
            times = []
            for _ in range(loads):
                if clear:
                    service._live.clear()
                cpu0 = time.process_time()
                await run(service, where, "/fort export")
                times.append((time.process_time() - cpu0) * 1000)
            samples.append(statistics.median(times))
        # memory: battles held after one action each (what stays between commands)
        held = 20
        wheres = [Where("bench", f"m{i}") for i in range(held)]
        for w in wheres:
            await start(engine, service, w, units)
        service._live.clear()
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for w in wheres:
            await run(service, w, "/unit hp unit:u1 delta:-1")
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        sizes.append((after - before) / held / 1024)
        await close(service)
        await engine.dispose()
    return statistics.median(uncached), statistics.median(cached), statistics.median(sizes)


WORKER_TASKS = 8
#: the throughput section's numbers of channels playing at once
CHANNELS = (1, 10, 100)


async def worker(url: str, schema: str, ops: int) -> None:
    """One process of the ``processes`` section: ``WORKER_TASKS`` tasks of ``ops`` commands each on
    channel ``shared`` (started by the parent), after a line on stdin; prints what was stored."""
    db = Backend("x", url, None if schema == "-" else schema)
    engine = db.engine()
    service = db.service(engine, SeededDice(os.getpid()))
    where = Where("bench", "shared")
    print("ready", flush=True)
    sys.stdin.readline()
    done = [0]

    async def task(t: int) -> None:
        for i in range(ops):
            parsed = parse_line(f"/unit hp unit:u{(t + i) % 100} delta:-1")
            assert parsed is not None
            view = await service.execute(where, GM, Invocation(parsed.path, parsed.options, parsed.text))
            done[0] += not isinstance(view, ErrorView)

    await asyncio.gather(*(task(t) for t in range(WORKER_TASKS)))
    print(json.dumps({"ok": done[0]}), flush=True)
    await close(service)
    await engine.dispose()


async def processes(dbs: Databases, count: int, ops: int, runs: int) -> float:
    """Persisted commands/s of ``count`` processes x ``WORKER_TASKS`` tasks on one channel."""
    rates = []
    for _ in range(runs):
        db, engine = await dbs.fresh()
        service = db.service(engine, SeededDice(0))
        await start(engine, service, Where("bench", "shared"), 100)
        await close(service)
        await engine.dispose()
        env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
        argv = [sys.executable, __file__, "--worker", db.url, db.schema or "-", str(ops)]
        workers = [
            subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
            for _ in range(count)
        ]
        for w in workers:
            assert w.stdout is not None and w.stdout.readline().strip() == "ready"
        t0 = time.perf_counter()
        for w in workers:
            assert w.stdin is not None
            w.stdin.write("go\n")
            w.stdin.flush()
        stored = 0
        for w in workers:
            out, _ = w.communicate(timeout=600)
            stored += json.loads(out.strip().splitlines()[-1])["ok"]
        rates.append(stored / (time.perf_counter() - t0))
    return statistics.median(rates)


# ---------------------------------------------------------------------------------------------


async def bench(backend: str, pg_url: str, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(backend, Path(tmp), pg_url)
        try:
            print(f"\n== {backend} ==")
            unit_sizes = (100,) if args.quick else (10, 100, 1000)
            for units in unit_sizes if "growth" in args.sections else ():
                per_command, cpu = await growth(dbs, units, args.growth_commands, args.runs)
                work = serialise_cpu(units, 1000, args.runs)
                print(
                    f"growth  {units:5} units: {per_command:9.0f} bytes/command   cpu per write: "
                    f"{work:6.3f} ms rules + export + serialisation, {cpu:6.3f} ms whole process"
                )
            histories = (0, 1000, 100_000) if args.quick else (0, 1000, 10_000, 100_000)
            lat_units = (100,) if args.quick else (10, 100, 1000)
            for units in lat_units if "latency" in args.sections else ():
                for history in histories:
                    figures = await latency(dbs, units, history, args.runs)
                    shown = "   ".join(f"{k} {v:7.2f} ms" for k, v in figures.items())
                    print(f"latency {units:5} units, {history:6} earlier actions: {shown}")
            combos = [(c, 100) for c in args.channels]
            if not args.quick and args.channels == CHANNELS:
                combos += [(100, 10), (10, 1000)]
            for channels, units in combos if "throughput" in args.sections else ():
                per = max(5, args.throughput_commands // channels)
                figures = await throughput(dbs, channels, units, per, args.runs)
                rate, p50, p99, cpu, one, many, worst, stall99, cpu_worst, cpu99 = figures
                print(
                    f"throughput {channels:3} channels x {units:4} units: {rate:7.0f} commands/s"
                    f"   p50 {p50:6.2f} ms   p99 {p99:7.2f} ms   cpu {cpu:5.3f} ms/command"
                    f"   loop stall worst {worst:6.2f} ms p99 {stall99:5.2f} ms"
                    f" (loop CPU in it {cpu_worst:6.2f} ms, p99 {cpu99:5.2f} ms)"
                    f"   | raw commits: {one:6.0f}/s (1 writer), {many:6.0f}/s ({channels} writers)"
                )
            if "load" in args.sections:
                uncached, cached, kb = await load(dbs, 100, 20, args.runs)
                print(
                    f"load      100 units: uncached {uncached:6.2f} ms CPU   cached {cached:6.2f} ms CPU"
                    f"   memory per held battle {kb:7.1f} KB"
                )
            if "processes" in args.sections:
                ops = args.process_commands
                one = await processes(dbs, 1, ops * 4, args.runs)
                four = await processes(dbs, 4, ops, args.runs)
                print(
                    f"processes one channel: 4 processes x {WORKER_TASKS} tasks {four:6.1f} commands/s"
                    f"   1 process x {WORKER_TASKS} tasks {one:6.1f} commands/s   ratio {four / one:4.2f}"
                )
        finally:
            await dbs.drop_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 units only, fewer runs: a few minutes")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (median); 3 quick, 5 full")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--sections", default="growth,latency,throughput,load,processes")
    parser.add_argument("--process-commands", type=int, default=16, help="per task, in each of 4 processes")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument(
        "--unsettled", action="store_true",
        help="leave the interpreter as started (no gc.freeze() of what the start made)",
    )  # fmt: skip
    parser.add_argument("--growth-commands", type=int, default=None)
    parser.add_argument("--throughput-commands", type=int, default=None, help="commands per run in all")
    parser.add_argument(
        "--channels", type=lambda v: tuple(int(c) for c in v.split(",")), default=CHANNELS,
        help="throughput: how many channels at once, e.g. 100 (default 1,10,100)",
    )  # fmt: skip
    args = parser.parse_args()
    ensure_builtin()  # as every entry point of the bot
    if args.worker:
        url, schema, ops = args.worker
        asyncio.run(worker(url, schema, int(ops)))
        return
    args.runs = args.runs or (3 if args.quick else 5)
    args.growth_commands = args.growth_commands or (200 if args.quick else 500)
    args.throughput_commands = args.throughput_commands or (1000 if args.quick else 3000)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    settle = getattr(pacing, "settle_process", None) if pacing is not None else None
    if settle is not None and not args.unsettled:
        settle()  # as the bot process does once started (``toride run``)
        print("process settled as the bot's once started: gc.freeze()")
    pg_url = os.environ.get("TORIDE_TEST_DATABASE_URL") or PG_DEFAULT
    for backend in args.backends.split(","):
        if backend == "postgresql" and not asyncio.run(pg_available(pg_url)):
            print(f"\n== postgresql: no server answers at {pg_url.split('@')[-1]}; skipped ==")
            continue
        asyncio.run(bench(backend, pg_url, args))


if __name__ == "__main__":
    main()
