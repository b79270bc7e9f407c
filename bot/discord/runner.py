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
    #: the language of what ``toride run`` itself says (a failure at start)
    lang: str = "ja"


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
        storage = await open_storage(options.db, on_held=_held)
    except Exception as error:
        reason = _unavailable(error, options.db, options.lang)
        if reason is None:
            raise  # not the database's: a bug, shown as one
        raise DatabaseUnavailable(reason) from error
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


def _held() -> None:
    """A command waits for the database file, which another program holds (``bot.storage.held``)."""
    log.warning("waiting for the database file, held by another program; trying again")


def _unavailable(error: BaseException, db: str | None, lang: str) -> str | None:
    """The one line saying why the database could not be opened (None: not the database's error);
    the traceback stays out of the log too (its words are the line)."""
    from bot.i18n import t
    from bot.render.storage_text import unopened_text
    from bot.storage.url import shown_url

    log.debug("cannot open the database", exc_info=error)
    reason = unopened_text(error, db, lang)
    return None if reason is None else t("console.db_error", lang, db=shown_url(db), error=reason)
