"""Jobs: the rare commands' writes (start, import, undo and redo, co-GM changes, ``/gm role``, settings,
status message ids), each in a write transaction of its own on the storage writer's thread and
connection, one at a time with the writer's batches (``StorageWriter.turn``).

A job is a function of its open transaction (``bot.storage.interface.Transaction``): it reads what it
needs there (the channel's current battle and its version, GM rights), decides on the event loop, and
writes; each of its statements is one hop to the writer's thread (``JobTransaction``). Across
processes it first takes its channel's lock (the family's ``lock_channels``: an advisory lock on
PostgreSQL; on SQLite the write transaction already holds the database's one write lock), so writers
of one channel wait for each other instead of conflicting. A job that fails for a passing reason (a
deadlock or a serialisation failure reported by PostgreSQL, SQLite busy past its timeout, the kept
connection found dead) is run again, after its effects outside the database (scripted dice) are
reset; one that fails during its COMMIT is reported and never run again. The caller is answered
after the COMMIT. A job neither stores plans nor runs another job (they would wait for its turn).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.engine import Connection, RootTransaction
from sqlalchemy.exc import DBAPIError, ResourceClosedError

from bot.storage import battles, log, rights, secrets, settings, status, user_sheets
from bot.storage.docpatch import Encoded
from bot.storage.interface import Counts, Job
from bot.storage.plans import write_plan
from bot.storage.reads import StatementReads
from bot.storage.records import EventRow, Kept, NewRow, RegisteredSheet, WritePlan, Written
from bot.storage.rights import Insert
from bot.storage.thread import found_dead
from bot.storage.writer import DuringCommit, StorageWriter, commit

P = ParamSpec("P")
T = TypeVar("T")


class JobTransaction(StatementReads):
    """A job's open transaction on the writer's connection (``Transaction``)."""

    def __init__(self, writer: StorageWriter, insert: Insert) -> None:
        self._writer = writer
        self._thread = writer.thread
        self._insert = insert
        #: the open transaction (None: not begun yet, or over)
        self._root: RootTransaction | None = None

    async def _call(
        self, statement: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        return await self._thread.call(lambda: self._do(statement, *args, **kwargs))

    async def create_battle(
        self, *, guild: str, channel: str, ruleset: str, started_by: str,
        state: dict[str, Any] | Encoded, status: str, row: NewRow,
    ) -> int:  # fmt: skip
        return await self._call(
            battles.create_battle, guild=guild, channel=channel, ruleset=ruleset, started_by=started_by,
            state=state, status=status, row=row,
        )  # fmt: skip

    async def write(self, plan: WritePlan) -> Written:
        return await self._call(write_plan, plan)

    async def live_actions(self, battle_id: int, limit: int) -> list[EventRow]:
        return await self._call(log.read_live_actions, battle_id, limit)

    async def undone_actions(self, battle_id: int, limit: int) -> list[EventRow]:
        return await self._call(log.read_undone_actions, battle_id, limit)

    async def has_undone(self, battle_id: int) -> bool:
        return await self._call(log.read_has_undone, battle_id)

    async def state_at(self, battle_id: int, seq: int) -> dict[str, Any]:
        return await self._call(battles.read_state_at, battle_id, seq)

    async def set_event_status(self, battle_id: int, seqs: Sequence[int], status: str) -> None:
        await self._call(log.set_event_status, battle_id, seqs, status)

    async def add_co_gm(self, battle_id: int, user: str, added_by: str) -> bool:
        return await self._call(rights.add_co_gm, self._insert, battle_id, user, added_by)

    async def remove_co_gm(self, battle_id: int, user: str) -> bool:
        return await self._call(rights.remove_co_gm, battle_id, user)

    async def set_language(self, guild: str, language: str) -> None:
        await self._call(settings.set_settings, self._insert, guild, language=language)

    async def set_gm_role(self, guild: str, role: str | None) -> None:
        await self._call(settings.set_settings, self._insert, guild, gm_role_id=role)

    async def keep_secret(self, guild: str, channel: str, roller: str, text: str, now: datetime) -> Kept:
        return await self._call(secrets.keep_secret, guild, channel, roller, text, now)

    async def set_chat_dice(self, guild: str, channel: str, on: bool) -> None:
        await self._call(settings.set_chat_dice, self._insert, guild, channel, on)

    async def keep_user_sheet(self, guild: str, user: str, key: str, sheet: RegisteredSheet) -> bool | None:
        return await self._call(user_sheets.keep_user_sheet, self._insert, guild, user, key, sheet)

    async def forget_user_sheet(self, guild: str, user: str, key: str) -> bool:
        return await self._call(user_sheets.forget_user_sheet, guild, user, key)

    async def set_status_message(self, battle_id: int, message_id: int | None, version: int | None) -> None:
        await self._call(status.set_status_message, battle_id, message_id, version)

    # ---------------------------------------------------------------------------------------------
    # on the writer's thread

    def begin(self, channel: tuple[str, str] | None) -> None:
        conn = self._thread.connection()
        try:
            self._root = conn.begin()
            if channel is not None:
                self._writer.lock_channels(conn, [channel])
        except BaseException:
            self._root = None
            self._thread.drop()
            raise

    def _do(self, statement: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        conn = self._thread.opened()
        if self._root is None or conn is None:
            raise ResourceClosedError("the job's transaction is over")
        try:
            return statement(conn, *args, **kwargs)
        except DBAPIError:  # the database failed: the connection is not trusted again
            self._root = None
            self._thread.drop()
            raise

    def end(self, *, stored: bool) -> None:
        """COMMIT (``stored``; a failure is ``DuringCommit``) or roll back the transaction."""
        root, self._root = self._root, None
        if root is None:
            return
        if stored:
            commit(self._thread, root)
            return
        try:
            root.rollback()
        except Exception:
            self._thread.drop()


async def run_job(
    writer: StorageWriter, insert: Insert, job: Job[T], *, channel: tuple[str, str] | None,
    reset: Callable[[], None] | None, counts: Counts,
) -> T:  # fmt: skip
    """``job`` in a write transaction (``Storage.run``), run again after a passing failure."""
    attempt = 1
    deadline = writer.held.deadline()
    while True:
        try:
            result = await _once(writer, insert, job, channel)
            writer.held.over()
            return result
        except DuringCommit as unknown:
            during_commit = unknown.error
        except Exception as error:
            if writer.held.held(error):  # another program holds the file: said, and waited for
                if not writer.held.waits(deadline):
                    raise
                counts.job_retries += 1
                if reset is not None:
                    reset()
                continue
            # the kept connection found dead (a server restarted while it was idle): once more at once
            stale = attempt == 1 and found_dead(error)
            if not (stale or writer.transient(error)) or attempt >= writer.attempts:
                raise
            counts.job_retries += 1
            attempt += 1
            if reset is not None:
                reset()
            if not stale:  # a little random wait, so that the processes that collided do not collide again
                await asyncio.sleep(random.uniform(0, 0.005 * 2**attempt))
            continue
        raise during_commit  # the driver's error as it was: it may have been stored, so never run again


async def _once(writer: StorageWriter, insert: Insert, job: Job[T], channel: tuple[str, str] | None) -> T:
    async with writer.turn:
        transaction = JobTransaction(writer, insert)
        try:
            await writer.thread.call(transaction.begin, channel)
            result = await job(transaction)
        except BaseException:
            # handed to the thread at once, so that it runs before whatever uses the connection next;
            # shielded: a job cancelled meanwhile still leaves no transaction open
            await asyncio.shield(writer.thread.call(lambda: transaction.end(stored=False)))
            raise
        await asyncio.shield(writer.thread.call(lambda: transaction.end(stored=True)))
        return result
