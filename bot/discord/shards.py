"""Shards that cooperate across processes through PostgreSQL (``bot.storage.leases``).

- ``IdentifyGate``: Discord lets a bot start ``max_concurrency`` sessions per 5 s (``GET
  /gateway/bot``'s ``session_start_limit``), across all its processes, shard ``i`` in bucket ``i %
  max_concurrency``. discord.py's ``Client.before_identify_hook`` runs just before each IDENTIFY
  (the first and every later one); the gate takes the bucket's advisory lock there and lets it go
  ``spacing`` seconds after, so no two IDENTIFYs of a bucket, from any process, come closer.
- ``ShardAssigner`` (``TORIDE_SHARDS=auto``): the shard count is the one ``/gateway/bot``
  recommends; the process joins the owners, waits ``settle`` seconds for the processes started
  with it, claims its share, and then renews its leases every ``renew`` seconds, claiming shards
  whose owner died (its leases not renewed for ``lease`` seconds) and starting them. A process that
  finds a lease of its own taken by another (it could not renew in time) stops, so that no shard
  runs twice.

The timings come from the environment (``TORIDE_IDENTIFY_SPACING``, ``TORIDE_SHARD_LEASE``,
``TORIDE_SHARD_RENEW``, ``TORIDE_SHARD_SETTLE``, seconds); tests shorten them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.cpu import share_host
from bot.discord.settings import (
    ENV_IDENTIFY_SPACING,
    ENV_SHARD_LEASE,
    ENV_SHARD_RENEW,
    ENV_SHARD_SETTLE,
    seconds_from_env,
)
from bot.storage.leases import Claim, ShardLeases

log = logging.getLogger(__name__)
#: Discord's window for ``max_concurrency`` IDENTIFYs (seconds)
IDENTIFY_SPACING = 5.0
#: a lease not renewed for this long is free; renewed every RENEW: a dead process's shards are
#: taken within LEASE + RENEW (30 s)
LEASE = 20.0
RENEW = 10.0
#: how long a starting process waits for those started with it before it claims its share
SETTLE = 5.0


@dataclass(frozen=True)
class Timings:
    spacing: float = IDENTIFY_SPACING
    lease: float = LEASE
    renew: float = RENEW
    settle: float = SETTLE

    @classmethod
    def from_env(cls) -> Timings:
        return cls(
            spacing=seconds_from_env(ENV_IDENTIFY_SPACING, IDENTIFY_SPACING),
            lease=seconds_from_env(ENV_SHARD_LEASE, LEASE),
            renew=seconds_from_env(ENV_SHARD_RENEW, RENEW),
            settle=seconds_from_env(ENV_SHARD_SETTLE, SETTLE),
        )


class IdentifyGate:
    """One IDENTIFY per bucket per ``spacing`` seconds, across processes (``before_identify_hook``)."""

    def __init__(self, leases: ShardLeases, spacing: float, max_concurrency: int = 1) -> None:
        self.leases = leases
        self.spacing = spacing
        self.max_concurrency = max(1, max_concurrency)
        #: the tasks letting a bucket's lock go once the spacing has passed
        self._releases: set[asyncio.Task[None]] = set()
        self._local: dict[int, asyncio.Lock] = {}

    async def before_identify(self, shard_id: int) -> None:
        """Wait for the bucket's turn and hold it for ``spacing`` seconds from now (the IDENTIFY is
        sent as this returns)."""
        bucket = shard_id % self.max_concurrency
        local = self._local.setdefault(bucket, asyncio.Lock())
        await local.acquire()  # this process's own shards of the bucket wait here, not on the server
        try:
            conn = await self.leases.lock_bucket(bucket)
        except BaseException:
            local.release()
            raise
        log.info("shard %d: identifying (bucket %d of %d)", shard_id, bucket, self.max_concurrency)

        async def release() -> None:
            try:
                await asyncio.sleep(self.spacing)
                await self.leases.unlock_bucket(conn, bucket)
            except Exception:
                log.warning("could not let the IDENTIFY lock of bucket %d go", bucket, exc_info=True)
            finally:
                local.release()

        task = asyncio.get_running_loop().create_task(release())
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def close(self) -> None:
        for task in list(self._releases):
            task.cancel()
        await asyncio.gather(*self._releases, return_exceptions=True)


class ShardAssigner:
    """This process's shards under ``TORIDE_SHARDS=auto``: claimed at start, renewed, taken over."""

    def __init__(self, leases: ShardLeases, timings: Timings) -> None:
        self.leases = leases
        self.timings = timings
        self.shard_count = 0
        self.held: list[int] = []
        self._task: asyncio.Task[None] | None = None
        #: once the shards it started with are launched (``keep``): how to start one taken over, and
        #: how to stop the process when a lease of its own was lost
        self._start: Callable[[int], Awaitable[None]] | None = None
        self._stop: Callable[[str], None] | None = None
        self._lost: str | None = None

    async def first(self, recommended: int, closed: Callable[[], bool]) -> list[int]:
        """The shards this process starts with: its share of ``recommended`` (or of the count the
        others agreed on), after ``settle`` seconds; a process with none waits (renewing its owner row)
        until a shard is free, or until ``closed()``. From then on the leases are renewed every
        ``renew`` seconds (while the shards start, too)."""
        await self.leases.join(self.timings.lease)
        await asyncio.sleep(self.timings.settle)
        while True:
            claim = await self.leases.claim(recommended, self.timings.lease)
            self._note(claim)
            if claim.held or closed():
                break
            log.info(
                "all %d shards are run by other processes: waiting for one to be free", claim.shard_count
            )
            await asyncio.sleep(self.timings.renew)
        log.info("running shards %s of %d (shard leases)", self.held, self.shard_count)
        self._task = asyncio.get_running_loop().create_task(self._keep())
        return list(self.held)

    def _note(self, claim: Claim) -> None:
        self.shard_count = claim.shard_count
        self.held = claim.held
        share_host(claim.on_host)

    def keep(self, start: Callable[[int], Awaitable[None]], stop: Callable[[str], None]) -> None:
        """The shards it started with are running: from now on ``start`` each shard taken over, and
        ``stop`` the process if a lease of its own was lost."""
        self._start, self._stop = start, stop
        if self._lost is not None:
            stop(self._lost)

    async def _keep(self) -> None:
        while self._lost is None:
            await asyncio.sleep(self.timings.renew)
            running = set(self.held)
            try:
                claim = await self.leases.claim(
                    self.shard_count, self.timings.lease, take=self._start is not None
                )
            except Exception:
                log.warning(
                    "could not renew the shard leases (trying again in %g s)",
                    self.timings.renew,
                    exc_info=True,
                )
                continue
            lost = sorted(running - set(claim.held))
            if lost or claim.shard_count != self.shard_count:
                self._lost = f"the leases of shards {lost} of {self.shard_count} went to another process"
                if self._stop is not None:
                    self._stop(self._lost)
                return
            self._note(claim)
            for shard in sorted(set(claim.held) - running):
                log.info("shard %d: taken over (its process stopped renewing its lease)", shard)
                assert self._start is not None
                await self._start(shard)

    async def close(self) -> None:
        """Stop renewing, and give the shards up at once (the others start them at their next renewal)."""
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        try:
            await self.leases.leave()
        except Exception:
            log.warning("could not give the shard leases up (they expire by themselves)", exc_info=True)
