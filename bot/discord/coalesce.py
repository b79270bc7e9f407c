"""At most one edit every ``interval`` seconds per key (a channel), the latest request winning.

``submit(key, job)`` asks for ``job`` to run; if the key ran a job less than ``interval`` ago, the
job waits for the rest of the interval, and any job submitted meanwhile replaces it. So a busy
table (ten commands in a second) costs two edits, never a rate limit. ``close()`` (shutdown) runs
every waiting job at once rather than dropping it, within a bound. The clock and the sleep are
injectable, so tests drive time by hand.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
#: how long ``close()`` lets the waiting jobs run (a status edit takes well under a second; Discord
#: slow or rate limiting is not worth holding a shutdown for)
CLOSE_WITHIN = 1.0


class Coalescer:
    def __init__(
        self,
        interval: float = 2.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.interval = interval
        self._clock = clock
        self._sleep = sleep
        self._pending: dict[Hashable, Job] = {}
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}
        self._last: dict[Hashable, float] = {}
        #: keys whose task sleeps out its interval (``close`` wakes them)
        self._sleeping: set[Hashable] = set()
        self._closing = False
        #: how many jobs ran (for tests and logs)
        self.runs = 0

    @property
    def clock(self) -> Callable[[], float]:
        """The clock it reads (a test's fake one): other timers of the status share it."""
        return self._clock

    @property
    def sleep(self) -> Callable[[float], Awaitable[None]]:
        return self._sleep

    def submit(self, key: Hashable, job: Job) -> None:
        self._pending[key] = job
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(
                self._run(key), name=f"toride-live-{key}"
            )

    def pending(self, key: Hashable) -> bool:
        return key in self._pending

    async def _run(self, key: Hashable) -> None:
        try:
            while key in self._pending:
                last = self._last.get(key)
                if last is not None:
                    wait = last + self.interval - self._clock()
                    if wait > 0 and not self._closing:
                        await self._wait(key, wait)
                job = self._pending.pop(key)
                self._last[key] = self._clock()
                self.runs += 1
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("live status update for %s failed", key)
        finally:
            self._tasks.pop(key, None)

    async def _wait(self, key: Hashable, seconds: float) -> None:
        """Sleep out the interval, unless ``close`` cuts it short (then the job runs at once)."""
        self._sleeping.add(key)
        try:
            await self._sleep(seconds)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self._closing or task is None:
                raise
            task.uncancel()  # woken by close(): not cancelled
        finally:
            self._sleeping.discard(key)

    async def drain(self) -> None:
        """Wait for every queued job (shutdown, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self, within: float = CLOSE_WITHIN) -> None:
        """Run every waiting job now (not at the end of its interval), for at most ``within``
        seconds; what is still running then is cancelled. Jobs submitted meanwhile run at once."""
        self._closing = True
        for key in list(self._sleeping):
            self._tasks[key].cancel()
        tasks = list(self._tasks.values())
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=within)
            for task in late:
                log.warning("live status update %s cut short by the shutdown", task.get_name())
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        self._tasks.clear()
        self._pending.clear()
