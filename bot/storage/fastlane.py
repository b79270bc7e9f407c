"""The writer's fast lane: a batch of actions decided beforehand, stored on the driver's own connection.

Most writes are one action on a battle this process already holds: the rules decide it on the
cached battle, and what is left is a ``WritePlan`` per action (the battle row's update with its
version check, the undone rows to discard, the log row). Through SQLAlchemy's async layer most of
such a transaction's cost was that layer and the hand-overs between threads, not the database; here:

- **SQLite**: the whole transaction (``BEGIN IMMEDIATE``, every update, the log rows, ``COMMIT``) at
  once on a connection of the lane's own. When no other process holds the write lock, it runs right
  in the event loop (a few statements in memory and the commit's write to the log); when one does, it
  waits for the lock in the lane's thread, as the engine's connections would, and the event loop goes
  on. The thread also checkpoints the write-ahead log.
- **PostgreSQL**: three round trips per batch, on a connection of the engine's pool: ``BEGIN`` and
  the batch's channel locks (in key order, as every writer takes them); one statement that updates
  every battle row, discards the undone rows and inserts the log rows of the battles it updated;
  ``COMMIT``.

Each plan holds only while its battle is still at the version it was decided on, still its channel's
current battle, and, when the rights it was decided on were read earlier (``WritePlan.grants``),
while they are still so. If any plan does not hold, nothing of the batch is written (``commit``
returns False) and the writer runs its commands again the ordinary way, on the stored battle. What
the lane stores is exactly what the ordinary path stores: its statements are SQLAlchemy's own,
compiled for the dialect (SQLite), or the same columns and values (PostgreSQL); a test compares them.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from sqlalchemy import and_, bindparam, exists, select
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import repository as repo
from bot.storage.db import BUSY_TIMEOUT_MS, sqlite_pragmas
from bot.storage.models import DISCARDED, UNDONE
from bot.storage.repository import Grants, WritePlan


class CommitUnknown(Exception):
    """The connection failed during ``COMMIT``: the batch may or may not be stored."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


class FastLane(Protocol):
    async def commit(self, plans: Sequence[WritePlan], lock_keys: Sequence[int]) -> bool:
        """Store every plan in one transaction: True. False: one did not hold, nothing was written.
        Raises what the database raised (nothing written), or ``CommitUnknown``."""

    async def close(self) -> None: ...


def lane_for(engine: AsyncEngine) -> FastLane | None:
    """The engine's fast lane (None: its database has none, as an in-memory SQLite database, which
    a second connection would not see)."""
    name = engine.dialect.name
    if name == "postgresql" and engine.dialect.driver == "asyncpg":
        return _PostgresLane(engine)
    if name == "sqlite":
        database = engine.url.database or ""
        if database in ("", ":memory:") or "mode=memory" in database:
            return None
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        connect: Any = sqlite3.connect  # the arguments SQLAlchemy gives the driver for this URL
        return _SqliteLane(engine.dialect, lambda: connect(*args, **{**kwargs, "check_same_thread": False}))
    return None


# ---------------------------------------------------------------------------------------------
# SQLite


def _update_statement(*, state: bool, grants: Grants | None) -> Any:
    """``repository``'s battle-row update, with the check of the rights it was decided on."""
    statement = repo._WRITE_STATE if state else repo._WRITE
    if grants is None:
        return statement
    role = (
        select(repo.settings.c.gm_role_id)
        .where(repo.settings.c.guild_id == bindparam("g_guild"))
        .scalar_subquery()
    )
    co_gm = exists().where(
        repo.gms.c.battle_id == repo.battles.c.id, repo.gms.c.user_id == bindparam("g_user")
    )
    role_same = role.is_(None) if grants.role is None else role == bindparam("g_role")
    return statement.where(and_(role_same, co_gm if grants.co_gm else ~co_gm))


class _Compiled:
    """A statement compiled for the dialect, with its parameters in order, bound as SQLAlchemy binds
    them (the values it holds itself, as ``status = 'undone'``, included)."""

    def __init__(self, dialect: Dialect, statement: Any, keys: Sequence[str] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys) if keys is not None else None)
        self.sql: str = compiled.string
        #: per parameter in order: its name, whether it must be given, the value it holds itself,
        #: its bind processor
        self._order: list[tuple[str, bool, Any, Callable[[Any], Any] | None]] = []
        for name in compiled.positiontup or ():
            bind = compiled.binds[name]
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            self._order.append((name, bind.required, None if bind.required else bind.value, processor))

    def params(self, values: dict[str, Any]) -> list[Any]:
        out = []
        for name, required, own, processor in self._order:
            if required and name not in values:
                raise KeyError(f"no value for the parameter {name!r}")
            value = values.get(name, own)
            out.append(processor(value) if processor is not None and value is not None else value)
        return out


#: a checkpoint of the write-ahead log after this many of the lane's commits. SQLite's own is off on
#: the connection that commits in the event loop, so that no commit there stalls on one: the thread
#: runs it, holding the write lock meanwhile (RESTART: the next commit writes the log from its start
#: again, so that it does not grow), and the commits that come meanwhile wait for it in the thread.
#: A commit appends a few pages; SQLite's own checkpoint comes every 1,000.
CHECKPOINT_EVERY = 100
#: how long a checkpoint waits for readers to leave the log (the writers wait meanwhile)
CHECKPOINT_WAIT_MS = 1000

_Work = tuple[str, list[Any], list[Any] | None, str, list[Any]]


class _SqliteLane:
    """SQLite: the transaction in the event loop when the write lock is free (no thread to wake),
    else in the lane's thread, waiting for the lock as the engine's connections wait (busy timeout)."""

    def __init__(self, dialect: Dialect, connect: Callable[[], sqlite3.Connection]) -> None:
        self._dialect = dialect
        self._connect = connect
        #: the event loop's connection (never waits for a lock); the thread's (waits, checkpoints)
        self._now: sqlite3.Connection | None = None
        self._waiting: sqlite3.Connection | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toride-sqlite-writer")
        self._statements: dict[Any, _Compiled] = {}
        self._discard = _Compiled(dialect, repo._DISCARD)
        self._commits = 0
        #: how many batches waited for another process's write lock in the thread (for tests)
        self.waited = 0

    def _statement(self, key: Any, make: Callable[[], _Compiled]) -> _Compiled:
        compiled = self._statements.get(key)
        if compiled is None:
            compiled = self._statements[key] = make()
        return compiled

    async def commit(self, plans: Sequence[WritePlan], lock_keys: Sequence[int]) -> bool:
        # SQLite's write transaction is the database's one write lock: no channel locks to take
        work = [self._prepare(plan) for plan in plans]
        conn = self._now
        if conn is None:
            conn = self._now = self._connect()
            _sqlite_pragmas(conn)
            conn.execute("PRAGMA busy_timeout=0")
            conn.execute("PRAGMA wal_autocheckpoint=0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            self.waited += 1
            stored = await asyncio.get_running_loop().run_in_executor(
                self._executor, self._wait_and_run, work
            )
        else:
            stored = _run(conn, work, self._discard.sql)
        if stored:
            self._commits += 1
            if self._commits % CHECKPOINT_EVERY == 0:
                self._executor.submit(self._checkpoint)
        return stored

    def _prepare(self, plan: WritePlan) -> _Work:
        """The plan's statements and parameters."""
        state = "p_state" in plan.update
        grants = plan.grants
        guard = None if grants is None else (grants.role is None, grants.co_gm)
        update = self._statement(
            ("update", state, guard),
            lambda: _Compiled(self._dialect, _update_statement(state=state, grants=grants)),
        )
        values = dict(plan.update)
        if grants is not None:
            values.update(g_guild=grants.guild, g_user=grants.user)
            if grants.role is not None:
                values["g_role"] = grants.role
        keys = tuple(plan.row)
        insert = self._statement(("insert", keys), lambda: _Compiled(self._dialect, repo._INSERT, keys))
        discard = self._discard.params({"b_id": plan.head.id}) if plan.discard_redo else None
        return update.sql, update.params(values), discard, insert.sql, insert.params(plan.row)

    def _thread_connection(self) -> sqlite3.Connection:
        conn = self._waiting
        if conn is None:
            conn = self._waiting = self._connect()
            _sqlite_pragmas(conn)
        return conn

    def _wait_and_run(self, work: list[_Work]) -> bool:
        conn = self._thread_connection()
        conn.execute("BEGIN IMMEDIATE")  # waits for the other process (busy timeout)
        return _run(conn, work, self._discard.sql)

    def _checkpoint(self) -> None:
        """Copy the log's pages back to the database, and have the next commit write the log from its
        start again (RESTART: it waits for the writer, as the lane's commits then wait for it)."""
        conn = self._thread_connection()
        # writers wait while it runs: it waits for a reader at most CHECKPOINT_WAIT_MS (then gives up
        # until the next one); failing now (the disk), the next one, or SQLite's own, does it
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
            try:
                conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
            finally:
                conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    async def close(self) -> None:
        def close() -> None:
            for conn in (self._now, self._waiting):
                if conn is not None:
                    conn.close()
            self._now = self._waiting = None

        await asyncio.get_running_loop().run_in_executor(self._executor, close)
        self._executor.shutdown(wait=True)


def _run(conn: sqlite3.Connection, work: list[_Work], discard_sql: str) -> bool:
    """The batch in the write transaction ``conn`` has begun; False (rolled back) if a plan does not hold."""
    try:
        for update_sql, update_params, discard, _, _ in work:
            if conn.execute(update_sql, update_params).rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            if discard is not None:
                conn.execute(discard_sql, discard)
        inserts: dict[str, list[list[Any]]] = {}
        for _, _, _, insert_sql, insert_params in work:
            inserts.setdefault(insert_sql, []).append(insert_params)
        for insert_sql, rows in inserts.items():
            conn.executemany(insert_sql, rows)
        conn.execute("COMMIT")
    except BaseException:
        # a failed statement or COMMIT leaves nothing stored: SQLite's commit is atomic, and a
        # transaction it did not end itself is rolled back here
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True


def _sqlite_pragmas(conn: sqlite3.Connection) -> None:
    conn.isolation_level = None
    sqlite_pragmas(conn)


# ---------------------------------------------------------------------------------------------
# PostgreSQL

#: every plan's battle-row update, the discards and the log rows of the battles updated, in one
#: statement; its answer is how many battle rows were updated. The columns and values are those of
#: ``repository._WRITE``/``_WRITE_STATE``, ``_DISCARD`` and ``_INSERT``.
_PG_WRITE = f"""
WITH p AS (
    SELECT * FROM unnest(
        $1::integer[], $2::integer[], $3::integer[], $4::varchar[], $5::timestamptz[], $6::timestamptz[],
        $7::integer[], $8::text[], $9::boolean[], $10::boolean[], $11::varchar[], $12::varchar[],
        $13::varchar[], $14::boolean[]
    ) AS t(b_id, b_version, p_version, p_status, p_now, p_ended, p_pending, p_state, has_state, discard,
           g_guild, g_user, g_role, g_co)
),
u AS (
    UPDATE battles AS b
    SET version = p.p_version, status = p.p_status, updated_at = p.p_now, ended_at = p.p_ended,
        pending_bytes = p.p_pending,
        state = CASE WHEN p.has_state THEN p.p_state ELSE b.state END,
        state_seq = CASE WHEN p.has_state THEN p.p_version ELSE b.state_seq END
    FROM p
    WHERE b.id = p.b_id AND b.version = p.b_version
      AND NOT EXISTS (
          SELECT 1 FROM battles AS n
          WHERE n.guild_id = b.guild_id AND n.channel_id = b.channel_id AND n.id > b.id
      )
      AND (p.g_user IS NULL OR (
          (SELECT s.gm_role_id FROM guild_settings AS s WHERE s.guild_id = p.g_guild)
              IS NOT DISTINCT FROM p.g_role
          AND EXISTS (SELECT 1 FROM battle_gms AS g WHERE g.battle_id = b.id AND g.user_id = p.g_user)
              = p.g_co
      ))
    RETURNING b.id
),
d AS (
    UPDATE battle_events AS e SET status = '{DISCARDED}'
    FROM p
    WHERE p.discard AND e.battle_id = p.b_id AND e.status = '{UNDONE}' AND p.b_id IN (SELECT id FROM u)
),
i AS (
    INSERT INTO battle_events
        (battle_id, seq, kind, status, actor, command_text, command, events, delta, snapshot, created_at)
    SELECT * FROM unnest(
        $15::integer[], $16::integer[], $17::varchar[], $18::varchar[], $19::varchar[], $20::text[],
        $21::text[], $22::text[], $23::text[], $24::text[], $25::timestamptz[]
    ) AS r(battle_id, seq, kind, status, actor, command_text, command, events, delta, snapshot, created_at)
    WHERE r.battle_id IN (SELECT id FROM u)
)
SELECT count(*) FROM u
"""
_ROW_COLUMNS = (
    "battle_id", "seq", "kind", "status", "actor", "command_text", "command", "events", "delta", "snapshot",
    "created_at",
)  # fmt: skip


def _pg_lock_sql(keys: Sequence[int]) -> str:
    """``BEGIN`` and the channel locks in key order (integers only: written into the text, so that
    both go in one round trip)."""
    keys = sorted({int(k) for k in keys})
    if not keys:
        return "BEGIN"
    if len(keys) == 1:
        return f"BEGIN; SELECT pg_advisory_xact_lock({keys[0]})"
    listed = ",".join(str(k) for k in keys)
    return f"BEGIN; SELECT count(pg_advisory_xact_lock(k)) FROM unnest(ARRAY[{listed}]::bigint[]) AS t(k)"


def _pg_args(plans: Sequence[WritePlan]) -> list[list[Any]]:
    update = [p.update for p in plans]
    grants = [p.grants for p in plans]
    columns: list[list[Any]] = [
        [u["b_id"] for u in update],
        [u["b_version"] for u in update],
        [u["p_version"] for u in update],
        [u["p_status"] for u in update],
        [u["p_now"] for u in update],
        [u["p_ended"] for u in update],
        [u["p_pending"] for u in update],
        [u.get("p_state") for u in update],
        ["p_state" in u for u in update],
        [p.discard_redo for p in plans],
        [None if g is None else g.guild for g in grants],
        [None if g is None else g.user for g in grants],
        [None if g is None else g.role for g in grants],
        [None if g is None else g.co_gm for g in grants],
    ]
    columns += [[p.row[name] for p in plans] for name in _ROW_COLUMNS]
    return columns


class _PostgresLane:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def commit(self, plans: Sequence[WritePlan], lock_keys: Sequence[int]) -> bool:
        args = _pg_args(plans)
        async with self._engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver: Any = raw.driver_connection
            try:
                await driver.execute(_pg_lock_sql(lock_keys))
                updated = await driver.fetchval(_PG_WRITE, *args)
            except BaseException:
                await _pg_rollback(driver, conn)
                raise
            if updated != len(plans):
                await _pg_rollback(driver, conn)
                return False
            try:
                await driver.execute("COMMIT")
            except Exception as error:
                import asyncpg

                if isinstance(error, asyncpg.PostgresError):  # the server refused it: rolled back
                    await _pg_rollback(driver, conn)
                    raise
                await conn.invalidate()
                raise CommitUnknown(error) from error
        return True

    async def close(self) -> None:
        return None


async def _pg_rollback(driver: Any, conn: Any) -> None:
    """End the transaction this lane began (the pool must get the connection back idle)."""
    try:
        if driver.is_in_transaction():
            await driver.execute("ROLLBACK")
    except Exception:
        await conn.invalidate()
