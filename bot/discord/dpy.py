"""The two places the bot reaches inside discord.py, kept here and checked by
``tests/discord/test_dpy.py`` against the discord.py installed (``pyproject.toml`` pins the minor
versions they are tested with):

- ``heartbeat(client, shard_id)``: a shard's heartbeat, as its keep-alive handler keeps it (the
  interval Discord gave in HELLO, when the last HEARTBEAT_ACK came), for the gateway watchdog
  (``bot.discord.watchdog``); discord.py has no public view of it;
- the gateway connection to close when a shard has gone silent (``gateway(client, shard_id)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord


@dataclass(frozen=True)
class Heartbeat:
    #: seconds between heartbeats (Discord's ``heartbeat_interval``)
    interval: float
    #: when the last HEARTBEAT_ACK came (``time.perf_counter``); the connection's start before the first
    last_ack: float
    #: when the last heartbeat went (``time.perf_counter``)
    last_send: float


def gateway(client: discord.AutoShardedClient, shard_id: int) -> Any | None:
    """The shard's gateway connection (discord.py's ``DiscordWebSocket``), None before it connects."""
    shard = client.get_shard(shard_id)
    if shard is None:
        return None
    return getattr(shard._parent, "ws", None)


def heartbeat(client: discord.AutoShardedClient, shard_id: int) -> Heartbeat | None:
    """The shard's heartbeat; None while it has none (before HELLO, between connections)."""
    return heartbeat_of(gateway(client, shard_id))


def heartbeat_of(ws: Any) -> Heartbeat | None:
    """The heartbeat of a gateway connection, as its ``KeepAliveHandler`` keeps it."""
    keep_alive = getattr(ws, "_keep_alive", None)
    if keep_alive is None or not keep_alive.interval:
        return None
    return Heartbeat(
        interval=float(keep_alive.interval),
        last_ack=float(keep_alive._last_ack),
        last_send=float(keep_alive._last_send),
    )
