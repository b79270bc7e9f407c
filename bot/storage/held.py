"""A database file held by another program: said at once, and waited for.

SQLite lets one connection write at a time, and another program may hold the file (a second bot or
console on it, a backup, ``sqlite3`` with a transaction open). Each attempt waits SQLite's busy timeout
(``sqlite.BUSY_TIMEOUT_MS``, a second); when one has waited in vain, the storage says so once
(``Held.waiting``: the front-end's ``notice`` runs on the event loop, the console printing "waiting for
the database file, held by another program" in its reader's language, the bot logging it) and keeps
trying, up to ``HELD_WAIT_S`` in all, after which the command is refused as busy (nothing changed).
Which errors mean "held" is the family's (``SqlStorage.held``: SQLite's SQLITE_BUSY; never on
PostgreSQL, whose locks wait for each other).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

#: how long a command keeps trying a database file another program holds, before it is refused
HELD_WAIT_S = 60.0


def _never(error: BaseException) -> bool:
    return False


class Held:
    def __init__(
        self, held: Callable[[BaseException], bool] = _never, notice: Callable[[], None] | None = None
    ) -> None:
        #: the family's reading of an error: the database file is held by another connection
        self.held = held
        #: run on the event loop once per wait (the front-end's line)
        self.notice = notice
        self._loop: asyncio.AbstractEventLoop | None = None
        self._told = False
        if notice is not None:
            self._loop = asyncio.get_running_loop()

    def deadline(self) -> float:
        """When a wait that starts now gives up (``time.monotonic``)."""
        return time.monotonic() + HELD_WAIT_S

    def waits(self, deadline: float) -> bool:
        """After an attempt found the file held (``held``): is there time left to try again? Then the
        wait is told (once, until an attempt goes through: ``over``). Any thread."""
        if time.monotonic() >= deadline:
            return False
        if not self._told:
            self._told = True
            if self.notice is not None and self._loop is not None and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self.notice)
        return True

    def over(self) -> None:
        """An attempt went through: the next wait is told again."""
        self._told = False
