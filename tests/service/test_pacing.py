"""Pacing (``bot.service.pacing``, issue 22): one pass of the event loop begins commands for at most
the pacer's budget; the rest wait, and the timers that came due meanwhile run before them.

The pacer's clock is the test's own: each command "takes" one unit of it, so what runs when is
counted, not timed. ``after_due_timers`` (the storage writer's pause between answers) is shown the
same way, beside ``asyncio.sleep(0)``, which goes on before a due timer; and the storage writer,
taking its batch once a pass of the loop added no plan, stores commands begun one pass after
another together; a bot process, once started, leaves its objects out of the collections.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.service.pacing import Pacer, settle_process
from bot.storage.interface import Storage
from bot.storage.writer import after_due_timers
from bot.views import EventsView, ExportView, View
from engine.dice import ScriptedDice


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def paced(budget: float) -> tuple[Pacer, Clock, list[object]]:
    clock = Clock()
    return Pacer(budget, clock), clock, []


async def command(pacer: Pacer, clock: Clock, log: list[object], name: object) -> None:
    await pacer.turn()
    log.append(name)
    clock.now += 1  # the command's work


def due_timer(log: list[object]) -> None:
    """A timer that came due before the commands began (a heartbeat, a sleep ending)."""
    loop = asyncio.get_running_loop()
    loop.call_at(loop.time() - 1, log.append, "timer")


async def test_a_due_timer_runs_after_the_budget_not_after_every_command() -> None:
    pacer, clock, log = paced(2.5)
    tasks = [asyncio.create_task(command(pacer, clock, log, i)) for i in range(7)]
    due_timer(log)
    await asyncio.gather(*tasks)
    # 0, 1, 2 began within 2.5 units; the timer, then the next three (as many as the first window
    # let through), the timer heap's callback having ended the window; then the last
    assert log == [0, 1, 2, "timer", 3, 4, 5, 6]
    assert pacer.waited == 4


async def test_a_task_woken_by_a_timer_due_after_the_window_goes_on_before_the_waiting() -> None:
    pacer, clock, log = paced(1.5)
    loop = asyncio.get_running_loop()
    woken: asyncio.Future[None] = loop.create_future()

    async def watcher() -> None:
        await woken  # as ``asyncio.sleep`` waits: for a future its timer sets
        log.append("watcher")

    def comes_due() -> None:  # (runs just after the window ended): a timer due by the next pass
        loop.call_at(loop.time() - 1, woken.set_result, None)

    watching = asyncio.create_task(watcher())
    tasks = [asyncio.create_task(command(pacer, clock, log, i)) for i in range(4)]
    await asyncio.sleep(0)  # 0 and 1 began, 2 and 3 wait
    loop.call_at(loop.time(), comes_due)
    await asyncio.gather(watching, *tasks)
    assert log == [0, 1, "watcher", 2, 3]


async def test_without_a_budget_spent_nothing_waits() -> None:
    pacer, clock, log = paced(100)
    tasks = [asyncio.create_task(command(pacer, clock, log, i)) for i in range(5)]
    due_timer(log)
    await asyncio.gather(*tasks)
    assert log == [0, 1, 2, 3, 4, "timer"]
    assert pacer.waited == 0


async def test_the_waiting_go_on_in_the_order_they_came() -> None:
    pacer, clock, log = paced(1.5)
    first = [asyncio.create_task(command(pacer, clock, log, i)) for i in range(4)]
    await asyncio.sleep(0)  # 0 and 1 began, 2 and 3 wait
    assert log == [0, 1]
    later = [asyncio.create_task(command(pacer, clock, log, i)) for i in range(4, 6)]
    await asyncio.gather(*first, *later)
    assert log == [0, 1, 2, 3, 4, 5]


async def test_a_released_command_finding_the_window_spent_waits_ahead_of_later_ones() -> None:
    pacer, clock, log = paced(1.5)

    async def costing(name: int, cost: float) -> None:
        await pacer.turn()
        log.append(name)
        clock.now += cost

    # 0 and 1 begin, the rest wait; the window's end releases 2 and 3 (two went through); 2 opens
    # the next window and spends it alone, so 3 waits again: ahead of 4 and 5, not behind them
    costs = {2: 5.0}
    tasks = [asyncio.create_task(costing(i, costs.get(i, 1.0))) for i in range(6)]
    await asyncio.sleep(0)
    assert log == [0, 1]
    await asyncio.gather(*tasks)
    assert log == [0, 1, 2, 3, 4, 5]
    assert pacer.waited == 4


async def test_a_cancelled_waiting_command_does_not_hold_up_the_others() -> None:
    pacer, clock, log = paced(1.5)
    tasks = [asyncio.create_task(command(pacer, clock, log, i)) for i in range(5)]
    await asyncio.sleep(0)
    tasks[2].cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert log == [0, 1, 3, 4]
    assert tasks[2].cancelled()


async def test_after_due_timers_lets_a_due_timer_run_first_sleep_zero_does_not() -> None:
    log: list[object] = []

    async def pausing(name: str, pause: Callable[[], Awaitable[None]]) -> None:
        log.append(f"{name} before")
        due_timer(log)  # came due while this ran
        await pause()
        log.append(f"{name} after")

    await asyncio.create_task(pausing("sleep(0)", lambda: asyncio.sleep(0)))
    assert log == ["sleep(0) before", "sleep(0) after", "timer"]
    log.clear()
    await asyncio.create_task(pausing("after_due_timers", after_due_timers))
    assert log == ["after_due_timers before", "timer", "after_due_timers after"]


BATTLE = {
    "format": "toride.fort/1",
    "title": "paced",
    "rounds": 9,
    "pcs": [{"name": "Alice", "position": "outside"}],
    "units": [{"name": "u0", "type": "normal", "area": "A1", "hp": 500, "fort_damage": 1, "strike": "2d+3"}],
}
GM = Actor("gm")


async def hp(service: BattleService, where: Where, delta: int) -> View:
    line = parse_line(f"/unit hp unit:u0 delta:{delta}")
    assert line is not None
    return await service.execute(where, GM, Invocation(line.path, line.options, line.text))


async def test_commands_begun_one_per_pass_are_stored_in_one_batch(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([]))
    wheres = [Where("g", f"c{i}") for i in range(4)]
    for where in wheres:
        await service.execute(where, GM, Invocation("fort import", {"file": BATTLE}))
        assert isinstance(await hp(service, where, -1), EventsView)  # held, with its snapshots
    service.pacer = Pacer(0, Clock())  # a spent budget at once: one command per window
    batches = service.storage.counts.batches
    log: list[object] = []
    views = asyncio.gather(*(hp(service, where, -2) for where in wheres))
    due_timer(log)
    done = await views
    assert all(isinstance(view, EventsView) for view in done)
    assert service.pacer.waited == 3
    # the writer took its batch once a pass of the loop added no plan: the four together
    assert service.storage.counts.batches == batches + 1
    for where in wheres:
        view = await service.execute(where, GM, Invocation("fort export", {}))
        assert isinstance(view, ExportView)
        assert view.document["units"][0]["hp"] == 497
    await service.close()


def test_a_settled_process_leaves_what_it_made_at_start_out_of_the_collections() -> None:
    made_at_start = object.__new__(Clock)  # (tracked: an instance with a __dict__)
    try:
        settle_process()
        assert gc.get_freeze_count() > 0
        assert not any(o is made_at_start for o in gc.get_objects())  # in no generation now
    finally:
        gc.unfreeze()
    assert any(o is made_at_start for o in gc.get_objects())
