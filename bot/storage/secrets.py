"""A channel's secret rolls (``/roll secrets``, ``/roll reveal``): kept 30 days, at most 1,000 a
channel, the oldest dropped (and returned, so their rollers can be told).

A roll is kept by a job under the channel's lock (across processes, ``Storage.run(channel=)``), so
its number (one more than the channel's last, never reused while a later one is kept) is never
given twice. Statements of a synchronous connection, run by the storage on a thread of its own.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.engine import Connection, Row

from bot.storage.records import Kept, KeptSecret
from bot.storage.tables import secret_rolls

#: how long a secret roll is kept
KEEP = timedelta(days=30)
#: at most this many a channel
CAP = 1000

_ROW = (secret_rolls.c.number, secret_rolls.c.roller, secret_rolls.c.text, secret_rolls.c.created_at)


def _here(guild: str, channel: str) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    return secret_rolls.c.guild_id == guild, secret_rolls.c.channel_id == channel


def _secret(row: Row[Any, Any, Any, Any]) -> KeptSecret:
    at: datetime = row.created_at
    # SQLite gives the time back without its zone: it was stored as UTC
    return KeptSecret(
        int(row.number), str(row.roller), str(row.text), at if at.tzinfo else at.replace(tzinfo=UTC)
    )


def keep_secret(
    conn: Connection, guild: str, channel: str, roller: str, text: str, now: datetime, cap: int = CAP
) -> Kept:
    """Keep a secret roll made ``now``; those past ``KEEP`` go, and the oldest beyond ``cap``."""
    here = _here(guild, channel)
    conn.execute(delete(secret_rolls).where(*here, secret_rolls.c.created_at < now - KEEP))
    last = conn.execute(select(func.max(secret_rolls.c.number)).where(*here)).scalar()
    number = int(last or 0) + 1
    conn.execute(
        secret_rolls.insert().values(
            guild_id=guild, channel_id=channel, number=number, roller=roller, text=text, created_at=now
        )
    )
    over = conn.execute(select(*_ROW).where(*here).order_by(secret_rolls.c.number.desc()).offset(cap)).all()
    dropped = tuple(sorted((_secret(r) for r in over), key=lambda s: s.number))
    if dropped:
        conn.execute(delete(secret_rolls).where(*here, secret_rolls.c.number <= dropped[-1].number))
    return Kept(KeptSecret(number, roller, text, now), dropped)


def read_secrets(conn: Connection, guild: str, channel: str, now: datetime) -> list[KeptSecret]:
    """The channel's secret rolls kept as of ``now`` (none older than ``KEEP``), oldest first."""
    rows = conn.execute(
        select(*_ROW)
        .where(*_here(guild, channel), secret_rolls.c.created_at >= now - KEEP)
        .order_by(secret_rolls.c.number)
    ).all()
    return [_secret(r) for r in rows]


def read_secret(conn: Connection, guild: str, channel: str, number: int, now: datetime) -> KeptSecret | None:
    row = conn.execute(
        select(*_ROW).where(
            *_here(guild, channel),
            secret_rolls.c.number == number,
            secret_rolls.c.created_at >= now - KEEP,
        )
    ).first()
    return None if row is None else _secret(row)
