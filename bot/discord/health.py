"""A small HTTP health endpoint for the bot process (``toride run --health-port``).

``GET /health`` answers 200 when every shard of this process is connected to Discord's gateway (its
heartbeats acknowledged: a shard that missed a HEARTBEAT_ACK is down until it has resumed) and the
database answers a ``SELECT 1`` (``Storage.ping``, on the storage reader's connection, as the
commands' reads) within ``DATABASE_WITHIN`` seconds, else 503; the body says
which part failed, and each shard's state and heartbeat latency. It listens on 127.0.0.1 unless told
otherwise (a container's healthcheck runs inside the container).

``GET /metrics`` on the same address answers the process's metrics in Prometheus' text format
(``bot_metrics``: what the front-end, the watchdog and the storage writer measure, and what is read
when scraped: each shard's heartbeat latency and state, each planner's plans not answered yet).
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from aiohttp import web

from bot.discord.client import TorideBot
from bot.metrics import Metrics, Reading
from bot.registry import rulesets
from bot.storage.interface import Storage

log = logging.getLogger(__name__)
#: how long the database may take to answer before it counts as unreachable
DATABASE_WITHIN = 2.0


async def database_reachable(storage: Storage) -> bool:
    try:
        await asyncio.wait_for(storage.ping(), DATABASE_WITHIN)
    except Exception:
        log.warning("health: the database did not answer", exc_info=True)
        return False
    return True


async def health(bot: TorideBot, storage: Storage) -> tuple[bool, dict[str, Any]]:
    gateway = bot.gateway_connected()
    database = await database_reachable(storage)
    shards = {
        str(shard_id): {
            "connected": bot.shard_up(shard_id),
            "latency_ms": None if math.isinf(shard.latency) else round(shard.latency * 1000, 1),
        }
        for shard_id, shard in sorted(bot.shards.items())
    }
    ok = gateway and database
    return ok, {"ok": ok, "gateway": gateway, "database": database, "shards": shards}


def bot_metrics(bot: TorideBot, storage: Storage) -> Metrics:
    """The metrics of ``bot`` and its ``storage``, in a registry of their own."""

    def latencies() -> list[tuple[tuple[str], float]]:
        shards = sorted(bot.shards.items())
        return [((str(n),), shard.latency) for n, shard in shards if not math.isinf(shard.latency)]

    def shards_up() -> list[tuple[tuple[str], float]]:
        return [((str(n),), float(bot.shard_up(n))) for n in sorted(bot.shards)]

    def planners() -> list[tuple[tuple[str], float]]:
        planners = bot.service.planners
        return [((r.name,), planners.queued(r.name)) for r in rulesets() if r.planner is not None]

    return Metrics(
        [
            *bot.frontend.metrics.collectors(),
            *bot.watchdog.collectors(),
            *storage.collectors(),
            Reading(
                "toride_gateway_latency_seconds",
                "Between a heartbeat sent to Discord's gateway and its ACK, by shard",
                ("shard",),
                latencies,
            ),
            Reading(
                "toride_gateway_up",
                "1 while a shard is connected with its heartbeats acknowledged (as /health says), by shard",
                ("shard",),
                shards_up,
            ),
            Reading(
                "toride_planner_queued_plans",
                "Plans (/fort odds) asked for and not answered yet, waiting for a worker or running, "
                "by rule set",
                ("ruleset",),
                planners,
            ),
        ]
    )


async def start_health_server(bot: TorideBot, storage: Storage, host: str, port: int) -> web.AppRunner:
    metrics = bot_metrics(bot, storage)

    async def answer(request: web.Request) -> web.Response:
        ok, body = await health(bot, storage)
        return web.json_response(body, status=200 if ok else 503)

    async def scrape(request: web.Request) -> web.Response:
        body, content_type = metrics.exposition(request.headers.get("Accept"))
        return web.Response(body=body, headers={"Content-Type": content_type})

    app = web.Application()
    app.router.add_get("/health", answer)
    app.router.add_get("/metrics", scrape)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("health endpoint on http://%s:%d/health (metrics: /metrics)", host, port)
    return runner
