"""Shards shared by processes through PostgreSQL (no other server): who runs which shard, and one
IDENTIFY at a time per ``max_concurrency`` bucket across all of them.

- owners (``shard_owners``): each process taking part keeps a row while it lives, renewed with its
  leases; a row not renewed for ``lease`` seconds is a process that died, and is deleted.
- leases (``shard_leases``): one row per shard, its owner and when the lease ends unless renewed.
  A process claims free shards (no row, or one expired) up to its share: the shard count divided by
  the owners alive, rounded up; all of one claim in one transaction under ``LEASE_LOCK``, so that
  two processes never take the same shard. The count is the one the live leases were taken for, if
  any (the processes agree on the first one's), else the process's own. Times are the server's
  (``now()``): the hosts' clocks need not agree.
- IDENTIFY buckets: a session-level advisory lock per bucket (``identify_lock_key``), held on a
  connection of its own from just before the IDENTIFY until the spacing has passed.

SQLite is one process: it has no coordination (``shard_leases`` returns None).
"""

from __future__ import annotations

import hashlib
import math
import os
import socket
import uuid
from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage.interface import Storage

#: transaction-level advisory lock held while a process claims or renews leases
LEASE_LOCK = 0x746F72696465 + 1

_JOIN = text(
    "INSERT INTO shard_owners (owner, host, pid, expires_at)"
    " VALUES (:owner, :host, :pid, now() + make_interval(secs => :lease))"
    " ON CONFLICT (owner) DO UPDATE SET expires_at = excluded.expires_at"
)
_FORGET_DEAD = text("DELETE FROM shard_owners WHERE expires_at < now()")
_OWNERS = text("SELECT host FROM shard_owners")
_RENEW = text(
    "UPDATE shard_leases SET expires_at = now() + make_interval(secs => :lease)"
    " WHERE owner = :owner AND expires_at >= now() RETURNING shard_id"
)
_LIVE_COUNT = text("SELECT shard_count FROM shard_leases WHERE expires_at >= now() LIMIT 1")
_TAKEN = text("SELECT shard_id FROM shard_leases WHERE expires_at >= now() AND shard_count = :count")
_CLAIM = text(
    "INSERT INTO shard_leases (shard_id, shard_count, owner, host, pid, expires_at)"
    " VALUES (:shard, :count, :owner, :host, :pid, now() + make_interval(secs => :lease))"
    " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, owner = excluded.owner,"
    " host = excluded.host, pid = excluded.pid, expires_at = excluded.expires_at"
    " WHERE shard_leases.expires_at < now() OR shard_leases.shard_count <> excluded.shard_count"
)
_RELEASE = text("DELETE FROM shard_leases WHERE owner = :owner")
_LEAVE = text("DELETE FROM shard_owners WHERE owner = :owner")


def fair_share(shard_count: int, owners: int) -> int:
    """How many shards one of ``owners`` processes may hold: the count divided among them, rounded up."""
    return math.ceil(shard_count / max(1, owners))


@dataclass
class Claim:
    """What a claim or renewal found: the shard count agreed on, the shards this process holds now
    (those it had and kept, and those it took), and the owners alive on its host."""

    shard_count: int
    held: list[int]
    on_host: int


@dataclass
class ShardLeases:
    """One process's side of the shard leases and IDENTIFY locks, on an async engine of its own."""

    engine: AsyncEngine
    #: the PostgreSQL schema the storage works in (part of the lock keys: two schemas never meet)
    schema: str | None = None
    owner: str = field(default_factory=lambda: uuid.uuid4().hex)
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)

    def _who(self, lease: float) -> dict[str, object]:
        return {"owner": self.owner, "host": self.host, "pid": self.pid, "lease": lease}

    async def join(self, lease: float) -> None:
        """Say this process takes part (its owner row, for ``lease`` seconds)."""
        async with self.engine.begin() as conn:
            await conn.execute(_JOIN, self._who(lease))

    async def claim(self, shard_count: int, lease: float, *, take: bool = True) -> Claim:
        """Renew this process's owner row and leases, and (``take``) claim free shards up to its share."""
        who = self._who(lease)
        async with self.engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LEASE_LOCK})
            await conn.execute(_JOIN, who)
            await conn.execute(_FORGET_DEAD)
            hosts = [row[0] for row in await conn.execute(_OWNERS)]
            held = sorted(row[0] for row in await conn.execute(_RENEW, who))
            agreed = (await conn.execute(_LIVE_COUNT)).scalar_one_or_none()
            count = int(agreed) if agreed is not None else shard_count
            held = [s for s in held if s < count]
            if take:
                taken = {row[0] for row in await conn.execute(_TAKEN, {"count": count})}
                free = [s for s in range(count) if s not in taken]
                for shard in free[: max(0, fair_share(count, len(hosts)) - len(held))]:
                    done = await conn.execute(_CLAIM, {**who, "shard": shard, "count": count})
                    if done.rowcount:
                        held.append(shard)
        return Claim(shard_count=count, held=sorted(held), on_host=hosts.count(self.host))

    async def leave(self) -> None:
        """Give this process's shards up at once (a clean stop: the others need not wait out the leases)."""
        async with self.engine.begin() as conn:
            await conn.execute(_RELEASE, {"owner": self.owner})
            await conn.execute(_LEAVE, {"owner": self.owner})

    def identify_lock_key(self, bucket: int) -> int:
        """The 64-bit advisory lock key of an IDENTIFY bucket (``shard_id % max_concurrency``)."""
        name = f"toride-identify\x00{self.schema or ''}\x00{bucket}"
        digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big", signed=True)

    async def lock_bucket(self, bucket: int) -> AsyncConnection:
        """The bucket's IDENTIFY lock, waited for and held on the connection returned (give it to
        ``unlock_bucket``; a process that dies lets the lock go with its connection)."""
        conn = await self.engine.connect()
        try:
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": self.identify_lock_key(bucket)})
        except BaseException:
            await conn.close()
            raise
        return conn

    async def unlock_bucket(self, conn: AsyncConnection, bucket: int) -> None:
        try:
            await conn.execute(
                text("SELECT pg_advisory_unlock(:key)"), {"key": self.identify_lock_key(bucket)}
            )
        finally:
            await conn.close()

    async def close(self) -> None:
        await self.engine.dispose()


def shard_leases(storage: Storage) -> ShardLeases | None:
    """The shard leases of ``storage``'s database: PostgreSQL's, on an engine of their own; None for
    SQLite (one process: nothing to share)."""
    from bot.storage.sql import SqlStorage

    if not isinstance(storage, SqlStorage) or storage.url.get_backend_name() != "postgresql":
        return None
    engine = storage.async_engine(storage.url, pool_size=2, **storage.engine_options())
    return ShardLeases(engine, storage.schema)
