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

For ``/metrics`` it counts, by shard, the gateway's reconnections (every RESUMED or READY after a
shard's first READY: ``toride_gateway_reconnects_total``) and the silent connections it closed
(``toride_gateway_silent_closes_total``), and it watches the event loop itself: every ``LAG_EVERY``
seconds a timer is set, and how late the loop ran it is observed (``toride_event_loop_lag_seconds``).
A callback that holds the loop for *s* seconds shows as a lag between *s* − ``LAG_EVERY`` and *s*.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import discord
from prometheus_client import Counter, Histogram
from prometheus_client.registry import Collector

from bot.discord import dpy
from bot.metrics import SHORT_BUCKETS

log = logging.getLogger(__name__)
#: the ACK of a heartbeat is missed once this many intervals passed since the last ACK (the next
#: heartbeat went one interval after the last, and its ACK takes a round trip, far less than half)
MISSED_AFTER = 1.5
#: how often the heartbeats are looked at, at most (and at least 8 times an interval)
PERIOD = 1.0
#: Discord's close code that keeps the session resumable
RESUMABLE = 4000
#: how often the event loop's lag is sampled (seconds)
LAG_EVERY = 0.25


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
        self._lag: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        #: the shards whose first READY came (a RESUMED or READY after it is a reconnection)
        self._connected: set[int] = set()
        self.reconnected = Counter(
            "toride_gateway_reconnects",
            "Gateway reconnections by shard: a RESUMED, or a new session's READY, after its first READY",
            ("shard",),
            registry=None,
        )
        self.silent_closes = Counter(
            "toride_gateway_silent_closes",
            "Gateway connections closed by the watchdog because a HEARTBEAT_ACK did not come, by shard",
            ("shard",),
            registry=None,
        )
        self.loop_lag = Histogram(
            "toride_event_loop_lag_seconds",
            f"How late the event loop ran a timer that was due, sampled every {LAG_EVERY} s",
            buckets=SHORT_BUCKETS,
            registry=None,
        )

    def collectors(self) -> tuple[Collector, ...]:
        return self.reconnected, self.silent_closes, self.loop_lag

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._watch(), name="toride-watchdog")
        if self._lag is None:
            self._lag = loop.create_task(self._sample_lag(), name="toride-loop-lag")

    async def stop(self) -> None:
        for task in list(self._closing):
            task.cancel()
        for running in (self._task, self._lag):
            if running is not None:
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await running
        self._task = self._lag = None

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
        if shard_id in self._connected:
            self.reconnected.labels(str(shard_id)).inc()
        self._connected.add(shard_id)

    async def _sample_lag(self) -> None:
        """Observe how late the loop runs a timer, every ``LAG_EVERY`` seconds."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.loop_lag.observe(max(0.0, loop.time() - due))

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
        self.silent_closes.labels(str(shard_id)).inc()
        ws = dpy.gateway(self.client, shard_id)
        log.warning("shard %s missed a heartbeat ACK: closing its connection to resume", shard_id)
        if ws is None:
            return
        try:
            await ws.close(code=RESUMABLE)
        except Exception:
            log.exception("closing the silent connection of shard %s failed", shard_id)
