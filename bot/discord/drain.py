"""Stopping under load: new interactions are turned away first, those in flight are finished.

On SIGTERM the bot (``TorideBot.close``) calls ``Drain.close``: from then on every new command or
button press is answered at once, ephemerally and in the user's language, "restarting, try again in a
moment" (``Frontend`` asks ``closing`` before it touches the service), and ``close`` waits, at most
``within`` seconds, for the ones already running to send their answers. After that the status edits
they asked for run once each (``Coalescer.close``), and the gateway closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

log = logging.getLogger(__name__)
#: how long the interactions in flight at a SIGTERM may take to finish (a command takes milliseconds;
#: one waiting for a slow Discord or database is not worth holding the stop for)
IN_FLIGHT_WITHIN = 1.0


class Drain:
    def __init__(self) -> None:
        #: no new interaction is taken any more
        self.closing = False
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()
        #: how many interactions were turned away while closing (logs, tests)
        self.turned_away = 0

    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """Around the handling of one interaction: ``close`` waits for it."""
        self._running += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    async def close(self, within: float = IN_FLIGHT_WITHIN) -> None:
        """Take no new interaction; wait (at most ``within`` s) for those in flight."""
        self.closing = True
        if self._running:
            log.info("stopping: waiting for %d interactions in flight", self._running)
        try:
            await asyncio.wait_for(self._idle.wait(), within)
        except TimeoutError:
            log.warning("stopping: %d interactions still running after %.1f s", self._running, within)
