"""Issue 27: what the bot asks of discord.py, checked against the discord.py installed (``pyproject``
pins the minor versions these pass with).

- The commands are built through discord.py's public API (``bot/discord/cogs.py``): the descriptions,
  renames, choices and autocomplete of the command table reach each parameter, and every group is
  guild-only. If a release stopped reading the decorators so, these fail.
- The gateway watchdog reads a shard's heartbeat from discord.py's own keep-alive handler
  (``bot/discord/dpy.py``, the one place the bot reaches inside discord.py): a real
  ``KeepAliveHandler`` is read here, before and after an ACK, and through a real ``Shard``.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import discord
from discord import app_commands
from discord.gateway import KeepAliveHandler
from discord.shard import Shard
from discord_harness import Harness

from bot.discord import dpy
from bot.registry import lookup


async def test_the_commands_carry_the_tables_descriptions_names_choices_and_completion(
    harness: Harness,
) -> None:
    tree = harness.bot.tree
    unit = tree.get_command("unit")
    assert isinstance(unit, app_commands.Group) and unit.guild_only
    assert all(isinstance(g, app_commands.Group) and g.guild_only for g in tree.get_commands()
               if isinstance(g, app_commands.Group))  # fmt: skip
    move = unit.get_command("move")
    assert isinstance(move, app_commands.Command)
    by_name = {p.name: p for p in move.parameters}
    assert by_name["unit"].autocomplete and by_name["unit"].required
    assert isinstance(by_name["unit"].description, str) and by_name["unit"].description
    assert isinstance(move._params["unit"]._rename, app_commands.locale_str)  # the catalogue's name
    add = unit.get_command("add")
    assert isinstance(add, app_commands.Command)
    kinds = {p.name: p for p in add.parameters}["type"]
    assert [c.value for c in kinds.choices] == list(
        next(o for o in lookup("unit add").options if o.name == "type").choices
    )
    payload = add.to_dict(tree)
    type_option = next(o for o in payload["options"] if o["name"] == "type")
    assert type_option["choices"] and not type_option.get("autocomplete")
    # a keyword option (``from``) is renamed back to its name for Discord
    assert all(
        not o["name"].endswith("_") for c in tree.get_commands() for o in c.to_dict(tree).get("options", [])
    )


class _Socket:
    """What a ``KeepAliveHandler`` reads of its gateway connection when it is made."""

    def __init__(self) -> None:
        self.thread_id = threading.get_ident()
        self._max_heartbeat_timeout = 60.0
        self.shard_id = 0
        self.sequence = 0
        self.HEARTBEAT = 1
        self._keep_alive: KeepAliveHandler | None = None


def test_the_heartbeat_is_read_from_discord_pys_keep_alive_handler() -> None:
    ws: Any = _Socket()
    assert dpy.heartbeat_of(ws) is None  # before HELLO
    made = time.perf_counter()
    ws._keep_alive = KeepAliveHandler(ws=ws, interval=41.25, shard_id=0)
    beat = dpy.heartbeat_of(ws)
    assert beat is not None and beat.interval == 41.25 and made <= beat.last_ack <= time.perf_counter()
    ws._keep_alive.beat()
    sent = dpy.heartbeat_of(ws)
    assert sent is not None and sent.last_send >= beat.last_send
    ws._keep_alive.ack()
    acked = dpy.heartbeat_of(ws)
    assert acked is not None and acked.last_ack >= sent.last_send


def test_a_shards_connection_is_found_through_the_client() -> None:
    client = discord.AutoShardedClient(intents=discord.Intents.none(), shard_count=1)
    ws: Any = _Socket()
    ws._keep_alive = KeepAliveHandler(ws=ws, interval=5.0, shard_id=0)
    client._reconnect = True  # as ``connect`` sets it
    client._AutoShardedClient__shards = {0: Shard(ws, client, lambda item: None)}  # as launch_shards does
    assert dpy.gateway(client, 0) is ws
    found = dpy.heartbeat(client, 0)
    assert found is not None and found.interval == 5.0
    assert dpy.gateway(client, 1) is None and dpy.heartbeat(client, 1) is None
