"""Service benchmark: one command through the service on SQLite, and 100 channels at once.

    python benchmarks/service_latency.py [--commands 1000] [--channels 100] [--per-channel 30]

Latency: a fort battle with 100 units and 2,000 events of history; each measured command is
``/unit hp`` (a write: engine, state and log row committed) or ``/fort status`` (a read), one
at a time; p50 and p99 over ``--commands`` runs each. Throughput: ``--channels`` battles (10
units each) played at once, ``--per-channel`` writes each, all concurrent; commands per second.
Goals (issue): p99 under 15 ms, at least 300 commands/s across 100 channels.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import open_database
from bot.views import ErrorView
from engine.dice import SeededDice

GM = Actor("gm")


async def run(service: BattleService, where: Where, line: str) -> None:
    parsed = parse_line(line)
    assert parsed is not None
    view = await service.execute(where, GM, Invocation(parsed.path, parsed.options, parsed.text))
    if isinstance(view, ErrorView):
        raise RuntimeError(f"{line}: {view.key} {view.values}")


async def setup_battle(service: BattleService, where: Where, units: int, history: int) -> None:
    await run(service, where, "/fort start rounds:10 title:bench")
    await run(service, where, "/pc add name:Alice position:outside")
    for i in range(units):
        area = ("A1", "A2", "B1", "B2")[i % 4]
        line = f"/unit add name:u{i} type:normal area:{area} hp:10000 fort_damage:1 strike:2d+3"
        await run(service, where, line)
    done = 2 + units
    i = 0
    while done < history:
        await run(service, where, f"/unit hp unit:u{i % units} delta:-1")
        done += 1
        i += 1


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
    return ordered[index]


async def latency(db: Path, commands: int) -> None:
    engine = await open_database(str(db))
    service = BattleService(engine, SeededDice(1))
    where = Where("bench", "latency")
    started = time.perf_counter()
    await setup_battle(service, where, units=100, history=2000)
    print(f"setup: 100 units, 2000 events in {time.perf_counter() - started:.1f} s")
    for label, make in (
        ("write /unit hp", lambda i: f"/unit hp unit:u{i % 100} delta:-1"),
        ("read /fort status", lambda i: "/fort status"),
        ("write /attack area (dice)", lambda i: f"/attack area unit:u{i % 100} damage:2d+3 radius:3"),
    ):
        samples = []
        cpu0 = time.process_time()
        for i in range(commands):
            t0 = time.perf_counter()
            await run(service, where, make(i))
            samples.append((time.perf_counter() - t0) * 1000)
        cpu = (time.process_time() - cpu0) / commands * 1000
        print(
            f"{label:28} p50 {statistics.median(samples):6.2f} ms   p99 {percentile(samples, 99):6.2f} ms"
            f"   max {max(samples):6.2f} ms   cpu {cpu:5.2f} ms/command   (n={commands})"
        )
    # a fresh service (cold cache) on the same battle: the first command loads the state
    cold = BattleService(engine, SeededDice(2))
    t0 = time.perf_counter()
    await run(cold, where, "/unit hp unit:u1 delta:-1")
    print(f"{'first command, cold cache':28} {(time.perf_counter() - t0) * 1000:6.2f} ms")
    await engine.dispose()


async def throughput(db: Path, channels: int, per_channel: int) -> None:
    engine = await open_database(str(db))
    service = BattleService(engine, SeededDice(3))
    wheres = [Where("bench", f"ch{c}") for c in range(channels)]
    for where in wheres:
        await setup_battle(service, where, units=10, history=11)

    async def play(where: Where) -> None:
        for i in range(per_channel):
            await run(service, where, f"/unit hp unit:u{i % 10} delta:-1")

    t0 = time.perf_counter()
    await asyncio.gather(*(play(w) for w in wheres))
    elapsed = time.perf_counter() - t0
    total = channels * per_channel
    print(
        f"throughput: {channels} channels x {per_channel} writes = {total} commands in {elapsed:.2f} s"
        f" -> {total / elapsed:.0f} commands/s (conflicts {service.conflicts})"
    )
    await engine.dispose()


def main() -> None:
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--per-channel", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(latency(Path(tmp) / "latency.db", args.commands))
        asyncio.run(throughput(Path(tmp) / "throughput.db", args.channels, args.per_channel))


if __name__ == "__main__":
    main()
