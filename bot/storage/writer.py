"""The storage writer: every write stored in one place, off the event loop, on one connection.

An action is decided in memory by the service (``bot.service.actions``); what it changes is a
``WritePlan``, guarded by the battle's version, by "still the channel's current battle" and by the
rights it was decided on. ``StorageWriter.store`` queues the plan; plans that arrive while a batch is
being written go together into the next one (group commit: one fsync per batch, not per command).
Each batch runs on the writer's one thread (``bot.storage.thread``), on one synchronous SQLAlchemy
Core connection, with the plans' one executor (``plans.store_plans``), after the batch's channel locks
(the family's ``lock_channels``). The event loop only hands the batch over and is answered. The rare
commands' jobs (``bot.storage.jobs``) run on the same thread and connection, one at a time with the
batches (``turn``): this process writes through one connection, on every database.

Per plan the answer is True (stored, after the COMMIT: an acknowledged action is on disk) or False
(it did not hold: nothing of it was written, the service reloads and decides again). A storage
failure reaches the caller as the driver's own exception (SQLAlchemy's ``DBAPIError``):

- a passing one before the COMMIT (a deadlock, the kept connection found dead) runs the batch again
  on a fresh connection, a few times; a database file held by another program, until it is let go
  (bounded, and told at once: ``bot.storage.held``); any other fails alone: the batch's other plans
  are stored one by one;
- a failure *during* the COMMIT may have stored the batch or not: it is reported to every caller and
  never run again (running it again could store an action twice).

After a failure the connection is dropped; the next batch opens a new one, so the process recovers
when the database does.

For ``/metrics``: the plans waiting for the next batch (``toride_storage_queue_plans``) and how long
each batch took on the writer's thread, BEGIN to COMMIT with its retries
(``toride_storage_commit_seconds``).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prometheus_client import Gauge, Histogram
from prometheus_client.registry import Collector
from sqlalchemy.engine import Connection, RootTransaction

from bot.metrics import SHORT_BUCKETS
from bot.storage.held import Held
from bot.storage.interface import Counts
from bot.storage.plans import store_plans
from bot.storage.records import WritePlan
from bot.storage.thread import StorageThread, found_dead

#: a family's channel locks: held until the open transaction ends, taken in one fixed order
LockChannels = Callable[[Connection, Sequence[tuple[str, str]]], None]
#: a family's reading of an error: would the same transaction succeed if run again?
Transient = Callable[[BaseException], bool]

#: how many times a batch is tried in all when it fails for a passing reason
ATTEMPTS = 6
#: how many of a batch's callers are answered in one pass of the event loop: each goes on at once
#: (its reply, its next command), and a hundred of them together would keep the loop from anything
#: else (a heartbeat, another interaction) for as long; the next few are answered after the timers
#: that came due meanwhile (``after_due_timers``)
ANSWERS_PER_PASS = 8
#: a batch is taken once this many pauses of the event loop in a row (``after_due_timers``, each
#: two passes) added no plan to it: the pacer lets waiting commands go on every fourth pass
QUIET_PASSES = 3
#: the most plans a batch waits for: past that it is taken at once, however many more are coming
GATHERED_MAX = 200


@dataclass(slots=True)
class _Pending:
    plan: WritePlan
    channel: tuple[str, str]
    future: asyncio.Future[bool] = field(repr=False)


class DuringCommit(Exception):
    """A failure during the COMMIT (``error``): the transaction may have been stored or not."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


class StorageWriter:
    def __init__(
        self, thread: StorageThread, *, lock_channels: LockChannels, transient: Transient, counts: Counts,
        attempts: int = ATTEMPTS, held: Held | None = None,
    ) -> None:  # fmt: skip
        #: the writer's thread and connection (a job's transaction runs on them too)
        self.thread = thread
        self.lock_channels = lock_channels
        self.transient = transient
        #: the database file held by another program: told, and waited for (``bot.storage.held``)
        self.held = held or Held()
        self.attempts = attempts
        #: one user of the writer's connection at a time: a batch, or a job's transaction
        self.turn = asyncio.Lock()
        self._counts = counts
        self._pending: list[_Pending] = []
        self._drainer: asyncio.Task[None] | None = None
        self.queue = Gauge(
            "toride_storage_queue_plans",
            "Write plans waiting for the storage writer's next batch",
            registry=None,
        )
        self.queue.set_function(lambda: self.queued)
        self.commit_time = Histogram(
            "toride_storage_commit_seconds",
            "How long a batch of write plans took on the storage writer's thread, BEGIN to COMMIT with "
            "its retries",
            buckets=SHORT_BUCKETS,
            registry=None,
        )

    @property
    def queued(self) -> int:
        """How many plans wait for the next batch."""
        return len(self._pending)

    def collectors(self) -> tuple[Collector, ...]:
        return self.queue, self.commit_time

    async def store(self, plan: WritePlan, channel: tuple[str, str]) -> bool:
        """Store ``plan`` in the next batch: True once committed, False if it did not hold (nothing
        written). Raises what the database raised."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(plan, channel, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await future

    async def close(self) -> None:
        """Close the thread's connection and end the thread."""
        if self._drainer is not None and not self._drainer.done():
            await asyncio.gather(self._drainer, return_exceptions=True)
        await self.thread.close()

    async def _drain(self) -> None:
        while self._pending:
            await self._gathered()
            async with self.turn:  # (plans that come while a job runs join this batch)
                batch, self._pending = self._pending, []
                try:
                    outcomes = await self.thread.call(self._run, batch)
                except BaseException as error:  # cancelled: nobody is left to answer
                    for pending in batch:
                        if not pending.future.done():
                            pending.future.set_exception(error)
                    raise
            # answered a few at a time; what they submit meanwhile goes into the next batch together
            await _answer(batch, outcomes)

    async def _gathered(self) -> None:
        """Wait while the event loop adds plans to the next batch (commands that went on together,
        decided a few in each pass, ``bot.service.pacing``): one batch for them all. Taken when
        ``QUIET_PASSES`` pauses in a row added none, or once it holds ``GATHERED_MAX`` plans."""
        quiet = 0
        while quiet < QUIET_PASSES and len(self._pending) < GATHERED_MAX:
            count = len(self._pending)
            await after_due_timers()
            quiet = quiet + 1 if len(self._pending) == count else 0

    # ---------------------------------------------------------------------------------------------
    # in the writer's thread

    def _run(self, batch: list[_Pending]) -> list[bool | BaseException]:
        """The batch's answers: stored, not held, or the failure."""
        with self.commit_time.time():
            return self._outcomes(batch)

    def _outcomes(self, batch: list[_Pending]) -> list[bool | BaseException]:
        self._counts.batches += 1
        try:
            outcomes: list[bool | BaseException] = list(self._attempts(batch))
        except DuringCommit as unknown:
            return [unknown.error] * len(batch)
        except Exception as error:
            if len(batch) == 1:
                return [error]
            outcomes = []
            for pending in batch:  # one plan's failure fails that plan alone
                try:
                    outcomes.extend(self._attempts([pending]))
                except DuringCommit as unknown:
                    outcomes.append(unknown.error)
                except Exception as alone:
                    outcomes.append(alone)
        for outcome in outcomes:
            if outcome is True:
                self._counts.stored += 1
            elif outcome is False:
                self._counts.returned += 1
        return outcomes

    def _attempts(self, batch: list[_Pending]) -> list[bool]:
        attempt = 1
        deadline = self.held.deadline()
        while True:
            try:
                stored = self._transaction(batch)
                self.held.over()
                return stored
            except DuringCommit:
                raise
            except Exception as error:
                if self.held.held(error):  # another program holds the file: said, and waited for
                    if not self.held.waits(deadline):
                        raise
                    self._counts.retries += 1
                    continue
                # the kept connection found dead before anything was written (a server restarted
                # while it was idle): once more at once, on a new one
                stale = attempt == 1 and found_dead(error)
                if not (stale or self.transient(error)) or attempt >= self.attempts:
                    raise
                self._counts.retries += 1
                attempt += 1
                if not stale:  # a little random wait, so that colliding processes do not collide again
                    time.sleep(random.uniform(0, 0.005 * 2**attempt))

    def _transaction(self, batch: list[_Pending]) -> list[bool]:
        plans, channels = [p.plan for p in batch], [p.channel for p in batch]
        conn = self.thread.connection()
        try:
            transaction = conn.begin()
            self.lock_channels(conn, channels)
            held = store_plans(conn, plans)
            if held is None:  # some plan did not hold: again, each update alone, to learn which
                transaction.rollback()
                transaction = conn.begin()
                self.lock_channels(conn, channels)
                held = store_plans(conn, plans, one_by_one=True)
                assert held is not None
        except BaseException:
            self.thread.drop()
            raise
        commit(self.thread, transaction)
        return held


def commit(thread: StorageThread, transaction: RootTransaction) -> None:
    """COMMIT ``transaction`` of ``thread``'s connection; a failure is ``DuringCommit`` (the
    connection dropped): what it wrote may be stored or not, and it is never run again."""
    try:
        transaction.commit()
    except BaseException as error:
        thread.drop()
        raise DuringCommit(error) from error


async def _answer(batch: list[_Pending], outcomes: list[bool | BaseException]) -> None:
    """Answer the batch's callers, ``ANSWERS_PER_PASS`` in each pass of the event loop."""
    for start in range(0, len(batch), ANSWERS_PER_PASS):
        if start:
            await after_due_timers()
        for pending, outcome in zip(
            batch[start : start + ANSWERS_PER_PASS], outcomes[start : start + ANSWERS_PER_PASS], strict=True
        ):
            if pending.future.done():
                continue
            if isinstance(outcome, BaseException):
                pending.future.set_exception(outcome)
            else:
                pending.future.set_result(outcome)


async def after_due_timers() -> None:
    """Let the event loop run what is ready and the timers due by now, then go on.

    ``asyncio.sleep(0)`` goes on in the loop's next pass *ahead of* the timers that came due (the loop
    adds them behind what was already ready); a callback on the timer heap, due now, runs after them.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()
    loop.call_at(loop.time(), _set_result, future)
    await future


def _set_result(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
