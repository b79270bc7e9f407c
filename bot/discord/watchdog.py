"""The gateway watchdog: a shard whose HEARTBEAT_ACK does not come is reconnected at once.

Discord: "If a client does not receive a heartbeat ACK between its attempts at sending heartbeats,
this may be due to a failed or 'zombied' connection. The client should immediately terminate the
connection with any close code besides 1000 or 1001, then reconnect and attempt to Resume."
discord.py closes a connection only when *nothing* was received for ``heartbeat_timeout`` (60 s), so
a zombie connection (open, dispatching nothing, no ACK) kept a shard's guilds unanswered for a minute.

Every ``period`` seconds the watchdog reads each shard's heartbeat (``bot.discord.dpy.heartbeat``):
an ACK not come ``MISSED_AFTER`` intervals after the last one means the one after it was missed
(heartbeats go once an interval); seen so at two looks in a row (a busy event loop may not have
read an ACK that came), the shard is *down* (``/health`` says so) and its connection is closed
with code 4000, which discord.py answers with a RESUME (a new IDENTIFY if the session
cannot be resumed); it is up again at its RESUMED (or READY). From the missed ACK to the RESUME it
is well within two heartbeat intervals.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import discord

from bot.discord import dpy

log = logging.getLogger(__name__)
#: the ACK of a heartbeat is missed once this many intervals passed since the last ACK (the next
#: heartbeat went one interval after the last, and its ACK takes a round trip, far less than half)
MISSED_AFTER = 1.5
#: how often the heartbeats are looked at, at most (and at least 8 times an interval)
PERIOD = 1.0
#: Discord's close code that keeps the session resumable
RESUMABLE = 4000


class GatewayWatchdog:
    def __init__(
        self, client: discord.AutoShardedClient, *, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.client = client
        self._clock = clock
        #: shards whose ACK was missed, until they are back (RESUMED or READY)
        self.down: set[int] = set()
        #: how many times a silent connection was closed (logs, tests)
        self.reconnects = 0
        #: shards seen missing an ACK once: closed if they still miss it at the next look (an event
        #: loop that was busy may not have read an ACK that did come)
        self._suspects: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch(), name="toride-watchdog")

    async def stop(self) -> None:
        for task in list(self._closing):
            task.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def missed(self, shard_id: int) -> bool:
        """Has the shard missed a HEARTBEAT_ACK (now, or since it was last back)?"""
        if shard_id in self.down:
            return True
        beat = dpy.heartbeat(self.client, shard_id)
        return beat is not None and self._clock() - beat.last_ack > beat.interval * MISSED_AFTER

    def back(self, shard_id: int) -> None:
        """The shard is connected again (its RESUMED or READY came)."""
        if shard_id in self.down:
            log.info("shard %s is back", shard_id)
        self.down.discard(shard_id)

    async def _watch(self) -> None:
        while not self.client.is_closed():
            intervals = [PERIOD * 8]
            for shard_id in list(self.client.shards):
                beat = dpy.heartbeat(self.client, shard_id)
                if beat is not None:
                    intervals.append(beat.interval)
                if shard_id in self.down or not self.missed(shard_id):
                    self._suspects.discard(shard_id)
                elif shard_id in self._suspects:
                    self._suspects.discard(shard_id)
                    task = asyncio.get_running_loop().create_task(self._reconnect(shard_id))
                    self._closing.add(task)
                    task.add_done_callback(self._closing.discard)
                else:
                    self._suspects.add(shard_id)
            await asyncio.sleep(min(intervals) / 8)

    async def _reconnect(self, shard_id: int) -> None:
        self.down.add(shard_id)
        self.reconnects += 1
        ws = dpy.gateway(self.client, shard_id)
        log.warning("shard %s missed a heartbeat ACK: closing its connection to resume", shard_id)
        if ws is None:
            return
        try:
            await ws.close(code=RESUMABLE)
        except Exception:
            log.exception("closing the silent connection of shard %s failed", shard_id)
