"""``/fort odds``: the fort's planner (``RuleSet.planner``), run in worker processes, never on the event loop.

The service reads the channel's battle under its lock and hands it to ``OddsRunner.answer`` without
the lock: other commands, in this channel and in others, go on while the planner runs.

Fair to every table: a plan runs in slices of ``SLICE_RUNS`` runs (``engine.fort.planner.run_slice``),
and the runner hands the slices of the plans waiting to its ``workers`` (``TORIDE_ODDS_WORKERS``, else
the process's share of the host's CPUs, one left to the bots: ``bot.cpu``)
round-robin, one slice of each plan in turn: a small plan waits for at most one slice of each plan
before it, never for a big plan to end. One plan per channel: a second one asked for while the
first runs is refused in words, with how far the first has got (``odds.busy``). A plan whose slices
have taken ``time_limit`` seconds in all (its waiting for its turn not counted) is stopped and
answered ``odds.timeout``; a slice past that is stopped with its worker process killed. Worker
processes start when there is work and stop when there is none.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import secrets
import time
from collections import deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from bot.cpu import odds_workers
from bot.rulesets.fort.planner import worker as odds_worker
from bot.rulesets.fort.views import OddsView
from engine.errors import EngineError
from engine.fort.planner import Facts, OddsResult, PlanRequest, Tally, answer, parse_focus, parse_pc_damage
from engine.fort.planner import slice_runs as slices_of
from engine.fort.planner.request import MAX_SEED
from engine.fort.state import FortState

log = logging.getLogger(__name__)
#: how long one plan's slices may run in all (seconds): 100,000 runs of a large battle take about half
TIME_LIMIT = 60.0
#: a worker forked from a clean server process that has the planner loaded (spawned where there is
#: no fork server): never a fork of the bot itself, with its threads and sockets
FORKSERVER = "forkserver" in multiprocessing.get_all_start_methods()

Target = Callable[[Connection], None]


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


@dataclass(eq=False)
class _Plan:
    """One request: its slices (runs each), the next to hand out, what the finished ones gave."""

    key: int
    channel: Hashable | None
    document: dict[str, Any]
    request: PlanRequest
    future: asyncio.Future[OddsResult]
    slices: tuple[int, ...]
    sent: int = 0
    done: int = 0
    runs_done: int = 0
    spent: float = 0.0
    tally: Tally | None = None
    facts: Facts | None = None

    @property
    def over(self) -> bool:
        return self.future.done()


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    known: odds_worker.Known = field(default_factory=odds_worker.Known)


class OddsRunner:
    """Runs plans in slices on worker processes, round-robin over the plans waiting (see above)."""

    def __init__(
        self,
        *,
        time_limit: float = TIME_LIMIT,
        workers: int | None = None,
        target: Target = odds_worker.serve,
    ) -> None:
        self.time_limit = time_limit
        self.target = target
        #: how many worker processes at most (None: ``bot.cpu.odds_workers``, asked each time)
        self._workers = workers
        #: the plans with slices still to hand out, the next one first
        self._turns: deque[_Plan] = deque()
        #: the plan running or waiting in each channel
        self._channels: dict[Hashable, _Plan] = {}
        #: the plans asked for and not answered yet (a channel's, or a tool's without one)
        self._asked = 0
        self._idle: list[_Worker] = []
        self._busy = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._keys = itertools.count(1)
        #: where the worker processes come from (a test makes its events there)
        self.context: ForkServerContext | SpawnContext
        if FORKSERVER:
            self.context = multiprocessing.get_context("forkserver")
            self.context.set_forkserver_preload([odds_worker.__name__])
        else:
            self.context = multiprocessing.get_context("spawn")

    @property
    def workers(self) -> int:
        return self._workers or odds_workers()

    def request(self, options: Mapping[str, Any]) -> PlanRequest:
        """``/fort odds``'s options as a plan (``plan_request``)."""
        return plan_request(options)

    async def answer(
        self, request: PlanRequest, state: FortState, document: dict[str, Any], channel: Hashable, battle: str
    ) -> OddsView:
        """The answer of ``/fort odds`` for the battle ``state`` (its ``document``) of ``channel``, named
        ``battle`` in file names."""
        if state.ended:
            raise EngineError("odds.battle_over")
        result = await self.run(document, request, channel)
        filename = f"fort-odds-{battle}-{request.seed}.png"
        return OddsView(title=str(document.get("title") or ""), result=result, filename=filename)

    def queued(self) -> int:
        """How many plans were asked for and are not answered yet (waiting for a worker or running)."""
        return self._asked

    def progress(self, channel: Hashable) -> int | None:
        """How many runs the channel's plan has done (None: it has none)."""
        plan = self._channels.get(channel)
        return None if plan is None else plan.runs_done

    async def run(
        self, document: dict[str, Any], request: PlanRequest, channel: Hashable | None = None
    ) -> OddsResult:
        """The planner's answer for the battle ``document`` (of ``channel``); ``EngineError`` for a
        refusal, a plan of the channel already running (``odds.busy``), a time-out (``odds.timeout``)
        or a worker that failed (``odds.failed``)."""
        if channel is not None and channel in self._channels:
            running = self._channels[channel]
            raise EngineError("odds.busy", done=running.runs_done, runs=running.request.runs)
        future: asyncio.Future[OddsResult] = asyncio.get_running_loop().create_future()
        plan = _Plan(next(self._keys), channel, document, request, future, slices_of(request.runs))
        if channel is not None:
            self._channels[channel] = plan
        self._turns.append(plan)
        self._asked += 1
        try:
            self._pump()
            return await asyncio.shield(future)
        finally:
            self._asked -= 1
            if not future.done():
                future.cancel()  # the asker went away: its slices are handed out no more
            if plan in self._turns:
                self._turns.remove(plan)
            if channel is not None and self._channels.get(channel) is plan:
                del self._channels[channel]

    def _pump(self) -> None:
        """Hands the next slices to the workers free (starting one where there are fewer than
        ``workers``); stops the idle ones when no slice is left."""
        while self._turns and (self._idle or self._busy < self.workers):
            plan = self._turns.popleft()
            if plan.over:
                continue
            k = plan.sent
            plan.sent += 1
            if plan.sent < len(plan.slices):
                self._turns.append(plan)  # round-robin: its next slice after every other plan's
            worker = self._idle.pop() if self._idle else None
            self._busy += 1
            task = asyncio.get_running_loop().create_task(self._slice(worker, plan, k))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if not self._turns:
            while self._idle:
                self._stop(self._idle.pop())

    async def _slice(self, worker: _Worker | None, plan: _Plan, k: int) -> None:
        try:
            if worker is None:
                worker = await self._start()
            worker = await self._hand(worker, plan, k)
        except Exception:
            log.exception("the odds planner's worker could not run a slice")
            _fail(plan, EngineError("odds.failed"))
        finally:
            self._busy -= 1
            if worker is not None:
                self._idle.append(worker)
            self._pump()

    async def _hand(self, worker: _Worker, plan: _Plan, k: int) -> _Worker | None:
        """Runs slice ``k`` of ``plan`` on ``worker``; the worker if it is still of use."""
        if plan.over:
            return worker
        if plan.spent >= self.time_limit:  # its slices so far took all its time
            _fail(plan, EngineError("odds.timeout", seconds=round(self.time_limit), runs=plan.request.runs))
            return worker
        payload = None if worker.known.touch(plan.key) else (plan.document, plan.request)
        started = time.monotonic()
        left = self.time_limit - plan.spent
        try:
            await asyncio.to_thread(worker.connection.send, ("slice", plan.key, k, payload))
        except OSError:  # the worker ended before it was asked (killed, out of memory)
            reply: tuple[Any, ...] = ("failed", "the worker ended without an answer")
        else:
            receiving = asyncio.get_running_loop().run_in_executor(None, _receive, worker.connection)
            try:
                reply = await asyncio.wait_for(asyncio.shield(receiving), left)
            except TimeoutError:
                await self._kill(worker)
                values = {"seconds": round(self.time_limit), "runs": plan.request.runs}
                _fail(plan, EngineError("odds.timeout", **values))
                return None
        plan.spent += time.monotonic() - started
        if reply[0] == "ok":
            self._add(plan, reply[1], reply[2])
            return worker
        if reply[0] == "refused":
            _fail(plan, EngineError(reply[1], **reply[2]))
            return worker
        log.error("the odds planner failed:\n%s", reply[1])
        _fail(plan, EngineError("odds.failed"))
        await self._kill(worker)  # a worker that failed serves no more slices
        return None

    def _add(self, plan: _Plan, facts: Facts, tally: Tally) -> None:
        if plan.over:
            return
        if plan.tally is None:
            plan.tally = tally
        else:
            plan.tally.add(tally)
        plan.facts, plan.done = facts, plan.done + 1
        plan.runs_done += tally.runs
        if plan.done == len(plan.slices):
            plan.future.set_result(answer(facts, plan.request, plan.tally))

    async def _start(self) -> _Worker:
        mine, theirs = self.context.Pipe(duplex=True)
        process = self.context.Process(target=self.target, args=(theirs,), daemon=True, name="toride-odds")
        try:
            await asyncio.to_thread(process.start)  # the first start launches the fork server
        finally:
            theirs.close()  # the worker has its own end: when it ends, ours reads EOF
        return _Worker(process, mine)

    async def _kill(self, worker: _Worker) -> None:
        """Past its time, or broken: the worker is killed at once (the CPU freed) and reaped."""
        if worker.process.is_alive():
            worker.process.kill()
        await asyncio.to_thread(worker.process.join)
        worker.connection.close()

    def _stop(self, worker: _Worker) -> None:
        """An idle worker ends (told to; killed if it does not within a second)."""
        with contextlib.suppress(OSError):
            worker.connection.send(("stop",))
        worker.connection.close()
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(_reap, worker.process))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stops every worker and waits for what is under way."""
        for plan in list(self._channels.values()):
            if not plan.future.done():
                plan.future.cancel()
        self._turns.clear()
        while self._idle:
            self._stop(self._idle.pop())
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


def _fail(plan: _Plan, error: EngineError) -> None:
    if not plan.over:
        plan.future.set_exception(error)


def _reap(process: BaseProcess) -> None:
    process.join(1.0)
    if process.is_alive():
        process.kill()
        process.join()


def _receive(receiver: Connection) -> tuple[Any, ...]:
    try:
        reply: tuple[Any, ...] = receiver.recv()
        return reply
    except (EOFError, OSError):  # the worker died before it answered (killed, out of memory)
        return ("failed", "the worker ended without an answer")
