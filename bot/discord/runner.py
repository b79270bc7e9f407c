"""``toride run`` as a long-running service: signals, the health endpoint, a bounded shutdown.

SIGTERM (``docker stop``, systemd) and SIGINT (Ctrl+C) close the bot the same way
(``TorideBot.close``): new interactions are turned away, those in flight finish (bounded,
``drain.IN_FLIGHT_WITHIN``), the waiting status edits run once each (bounded,
``coalesce.CLOSE_WITHIN``), the gateway connections close, the database is let go, and the process
exits with status 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)
SIGNALS = (signal.SIGTERM, signal.SIGINT)


class DatabaseUnavailable(Exception):
    """The database could not be opened at start: where (without its password) and why, in words."""


@dataclass(frozen=True)
class RunOptions:
    db: str | None = None
    dev_guild: int | None = None
    localized_names: bool = True
    shard_count: int | None = None
    shard_ids: Sequence[int] | None = None
    #: ``TORIDE_SHARDS=auto``: the shards Discord recommends, shared through shard leases (PostgreSQL)
    auto_shards: bool = False
    #: (host, port) of the health endpoint; None: no endpoint
    health: tuple[str, int] | None = None


async def serve(token: str, options: RunOptions) -> None:
    from bot.discord.client import TorideBot
    from bot.service import BattleService
    from bot.service.pacing import settle_process
    from bot.storage import open_storage
    from bot.storage.leases import shard_leases

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    bot: TorideBot | None = None
    closing: list[asyncio.Task[None]] = []

    def stop(name: str) -> None:
        log.info("%s: stopping", name)
        stopping.set()
        if bot is not None and not closing:
            closing.append(loop.create_task(bot.close()))

    for sig in SIGNALS:
        loop.add_signal_handler(sig, stop, sig.name)
    try:
        storage = await open_storage(options.db)
    except Exception as error:
        raise DatabaseUnavailable(_unavailable(error, options.db)) from error
    health = None
    leases = shard_leases(storage)
    service = BattleService(storage)
    settle_process()  # started: what the start made is left out of the garbage collections
    try:
        bot = TorideBot(
            service,
            dev_guild=options.dev_guild,
            localized_names=options.localized_names,
            shard_count=options.shard_count,
            shard_ids=options.shard_ids,
            leases=leases,
            auto_shards=options.auto_shards,
        )
        if options.health is not None:
            from bot.discord.health import start_health_server

            health = await start_health_server(bot, storage, *options.health)
        if not stopping.is_set():
            async with bot:
                try:
                    await bot.start(token)
                except Exception:
                    if not stopping.is_set():
                        raise
                    log.info("stopped while starting", exc_info=True)  # a signal during the login
        await asyncio.gather(*closing)
    finally:
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)
        if health is not None:
            await health.cleanup()
        await service.close()
        if leases is not None:
            await leases.close()
        await storage.close()
        log.info("stopped")


def _unavailable(error: BaseException, db: str | None) -> str:
    from bot.i18n import t
    from bot.storage.failures import storage_failure
    from bot.storage.url import shown_url, without_secrets

    log.error("cannot open the database", exc_info=error)
    key = storage_failure(error)
    reason = t(key, "en") if key is not None else without_secrets(str(error).splitlines()[0], db)
    return f"cannot open the database {shown_url(db)}: {reason}"
