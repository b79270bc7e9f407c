"""Pacing: how much command work one pass of the event loop begins, so that timers and I/O wait for
no more than that.

An asyncio loop runs, in each pass, every callback that was ready when the pass began; a timer that
has come due (a gateway heartbeat, a sleep ending) and the I/O the selector found are added behind
them, at the start of the pass. A hundred commands woken at once (the storage writer's batch
answered, a burst of interactions) would each decide their next action in the same pass, and
everything else would wait behind all of them.

``Pacer.turn`` is awaited before a command's work begins. The first command of a pass opens a
*window*; commands go on at once while less than ``budget`` seconds have passed since it opened.
Past that, a command waits, first come first served. The window ends with a callback on the loop's
timer heap (``loop.call_at(loop.time(), …)``), which the loop runs after the timers that came due
before it, not before them as ``call_soon`` (``asyncio.sleep(0)``) would. The next waiting commands
are released from the timer heap again, so that they go on behind the tasks woken by the timers due
by then: as many as the last window that ran out let through (twice as many after a window that did
not), each checking the budget again when it runs.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque
from collections.abc import Callable

#: how long (seconds) one pass of the loop may spend beginning commands before the rest wait for the
#: next; a command's work on the loop is about 0.3 ms (issue 22: the loop's worst stall ≤ 10 ms; at 100
#: channels 2 ms gave a worst stall of 6.9 to 8.8 ms, 3 ms 8.5 to 9.2 ms, for about the same commands/s)
BUDGET = 0.002


class Pacer:
    def __init__(self, budget: float = BUDGET, clock: Callable[[], float] = time.perf_counter) -> None:
        self.budget = budget
        self._clock = clock
        #: when the current window opened (None: no window open)
        self._opened: float | None = None
        self._passed = 0
        #: whether a command found the open window spent
        self._spent = False
        #: whether the callback that ends the window is on the timer heap
        self._closing = False
        #: how many commands the last window that ran out let through: released together next time
        self._per_window = 1
        self._waiting: deque[asyncio.Future[None]] = deque()
        #: where a released command that found the budget spent waits again (ahead of later ones)
        self._front = 0
        #: counts for tests and benchmarks: windows ended, commands that waited
        self.windows = 0
        self.waited = 0

    async def turn(self) -> None:
        """Return when this pass of the loop may begin one more command."""
        if not self._waiting and self._go():
            return
        self.waited += 1
        at_front = False
        while True:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            if at_front:  # released, but the window it ran in was spent already
                self._waiting.insert(self._front, future)
                self._front += 1
            else:
                self._waiting.append(future)
            self._close_later()
            try:
                await future
            except asyncio.CancelledError:
                if future in self._waiting:
                    self._waiting.remove(future)
                raise
            if self._go():
                return
            at_front = True

    def _go(self) -> bool:
        """Open a window, or count one more command in the open one; False when it is spent."""
        now = self._clock()
        if self._opened is None:
            self._opened, self._passed = now, 1
            self._close_later()
            return True
        if now - self._opened < self.budget:
            self._passed += 1
            return True
        self._per_window, self._spent = self._passed, True
        return False

    def _close_later(self) -> None:
        """End the window (or, with none open, release the waiting) after the timers now due."""
        if not self._closing:
            self._closing = True
            loop = asyncio.get_running_loop()
            loop.call_at(loop.time(), self._close)

    def _close(self) -> None:
        self.windows += 1
        if not self._spent and self._waiting:  # it let through every command that came: more next time
            self._per_window = min(2 * self._per_window, len(self._waiting))
        self._closing = False
        self._opened, self._spent = None, False
        self._front = 0
        # released behind the timers due by the next pass and the tasks they wake (``_after_timers``)
        loop = asyncio.get_running_loop()
        loop.call_at(loop.time(), self._after_timers, self._per_window)

    def _after_timers(self, count: int) -> None:
        """Run among the timers due at the start of a pass: the tasks those wake go on in the next
        pass, and so does ``_release``, after them; the released commands in the pass after."""
        asyncio.get_running_loop().call_soon(self._release, count)

    def _release(self, count: int) -> None:
        released = 0
        while self._waiting and released < count:
            future = self._waiting.popleft()
            if not future.done():  # (a cancelled one is on its way out)
                future.set_result(None)
                released += 1


def settle_process() -> None:
    """For a long-running bot process, once started (modules imported, catalogues read): the objects
    made so far (about 100,000: modules, discord.py, SQLAlchemy, the catalogues) are left out of every
    garbage collection from then on (``gc.freeze()``). A full collection walked them each time,
    freeing nothing: 60 to 80 ms with 100 battles of 100 units held, 30 ms without them, the event
    loop waiting. They are still freed when nothing refers to them any more.

    (Python's switch interval is left as it is: in the loop's long pauses the storage writer's thread
    was not running, so the GIL was not what the loop waited for.)
    """
    gc.collect()
    gc.freeze()
