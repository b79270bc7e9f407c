"""``/fort odds`` in the service: the planner runs in a worker process, never on the event loop.

The service reads the channel's battle under its lock and hands its document to ``OddsRunner.run``
without the lock: other commands, in this channel and in others, go on while the planner runs.
A run past ``time_limit`` is cancelled (its process killed) and answered ``odds.timeout``. At most
``workers`` plans run at once (one CPU is left to the bot); more wait their turn, one per channel
(a second one asked for while the first runs is refused, ``odds.busy``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
from collections.abc import Callable, Hashable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any

from bot import odds_worker
from engine.errors import EngineError
from engine.fort.planner import OddsResult, PlanRequest, parse_focus, parse_pc_damage
from engine.fort.planner.request import MAX_SEED

log = logging.getLogger(__name__)
#: how long one plan may run (seconds): 100,000 runs of a large battle take about half of it
TIME_LIMIT = 60.0
#: a worker forked from a clean server process that has the planner loaded (spawned where there is
#: no fork server): never a fork of the bot itself, with its threads and sockets
FORKSERVER = "forkserver" in multiprocessing.get_all_start_methods()

Target = Callable[[Connection, dict[str, Any], PlanRequest], None]


def plan_request(options: Mapping[str, Any]) -> PlanRequest:
    """The request of ``/fort odds``'s options; without ``seed`` a random one (the reply shows it)."""
    seed = options.get("seed")
    return PlanRequest(
        runs=options["runs"],
        attacks=parse_pc_damage(options.get("pc_damage")),
        equipment=bool(options.get("repair")),
        seed=secrets.randbelow(MAX_SEED + 1) if seed is None else seed,
        focus=parse_focus(options.get("focus")),
    )


class OddsRunner:
    """Runs plans in worker processes, each cancelled past ``time_limit`` seconds."""

    def __init__(
        self, *, time_limit: float = TIME_LIMIT, workers: int | None = None, target: Target = odds_worker.work
    ) -> None:
        self.time_limit = time_limit
        self.target = target
        #: the channels whose plan runs or waits its turn
        self._channels: set[Hashable] = set()
        self._slots = asyncio.Semaphore(workers or max(1, (os.cpu_count() or 1) - 1))
        #: where the worker processes come from (a test makes its events there)
        self.context: ForkServerContext | SpawnContext
        if FORKSERVER:
            self.context = multiprocessing.get_context("forkserver")
            self.context.set_forkserver_preload(["bot.odds_worker"])
        else:
            self.context = multiprocessing.get_context("spawn")

    async def run(
        self, document: dict[str, Any], request: PlanRequest, channel: Hashable | None = None
    ) -> OddsResult:
        """The planner's answer for the battle ``document`` (of ``channel``); ``EngineError`` for a
        refusal, a plan of the channel already running (``odds.busy``), a time-out (``odds.timeout``)
        or a worker that failed (``odds.failed``)."""
        if channel is not None:
            if channel in self._channels:
                raise EngineError("odds.busy")
            self._channels.add(channel)
        try:
            async with self._slots:
                reply = await self._in_worker(document, request)
        finally:
            self._channels.discard(channel)
        if reply[0] == "ok":
            result: OddsResult = reply[1]
            return result
        if reply[0] == "refused":
            raise EngineError(reply[1], **reply[2])
        log.error("the odds planner failed:\n%s", reply[1])
        raise EngineError("odds.failed")

    async def _in_worker(self, document: dict[str, Any], request: PlanRequest) -> tuple[Any, ...]:
        receiver, sender = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=self.target, args=(sender, document, request), daemon=True, name="toride-odds"
        )
        try:
            try:
                await asyncio.to_thread(process.start)  # the first start launches the fork server
            finally:
                sender.close()  # the worker has its own end: when it ends, the receiver reads EOF
            # a future of the default executor, not a task: waiting for it starts nothing on the loop
            receiving = asyncio.get_running_loop().run_in_executor(None, _receive, receiver)
            try:
                return await asyncio.wait_for(asyncio.shield(receiving), self.time_limit)
            except TimeoutError:
                raise EngineError("odds.timeout", seconds=round(self.time_limit), runs=request.runs) from None
            finally:
                if process.is_alive():
                    process.kill()  # past its time, or the command cancelled: the CPU is freed at once
                await asyncio.to_thread(process.join)
                await receiving  # at once: the worker's end is closed
        finally:
            receiver.close()


def _receive(receiver: Connection) -> tuple[Any, ...]:
    try:
        reply: tuple[Any, ...] = receiver.recv()
        return reply
    except (EOFError, OSError):  # the worker died before it answered (killed, out of memory)
        return ("failed", "the worker ended without an answer")
