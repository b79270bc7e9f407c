"""S-HIDE-1 timing (issue 37, item 3): does a reply take longer when a foe hides?

    python benchmarks/sg_hidden_timing.py [--samples 200] [--runs 3]

Two worlds, alike but for a secret: in one the GM has a hidden enemy (ルーミア, joined hidden, hidden
by a stealth roll); in the other no one hides. In each, a player's probes are timed through the
service on a fresh SQLite database, ``--samples`` times, alternating the worlds so that the machine's
drift falls on both alike:

- ``/sg search`` (a search: against the hidden one, a contest whose outcome is the GM's);
- ``/sg join name:ルーミア`` (a join under the hidden one's name: it is renamed ``ルーミア(2)``, the GM told);
- ``/sg roll label:ルーミア`` (a free roll labelled with the guessed name).

It prints, per probe, each world's median and 90th percentile (milliseconds, wall time of the reply)
and the difference of the medians, with the two worlds' spread (the median absolute deviation) as
the noise it is compared with; medians over ``--runs`` runs. The goal: no difference beyond the noise
(S-HIDE-1: the same work is done either way). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rulesets.builtin import ensure_builtin  # noqa: E402
from bot.service import Actor, BattleService, Invocation, Where  # noqa: E402
from bot.storage import open_storage  # noqa: E402
from engine.dice import SeededDice  # noqa: E402

GM, PLAYER = Actor("gm"), Actor("p1")
HIDDEN = "ルーミア"


async def run(service: BattleService, where: Where, who: Actor, path: str, **options: Any) -> float:
    started = time.perf_counter()
    view = await service.execute(where, who, Invocation(path, options, "/" + path))
    took = time.perf_counter() - started
    if not view.ok:
        raise SystemExit(f"{path} refused: {view}")
    return took


async def battle(service: BattleService, where: Where, hidden: bool) -> None:
    await run(service, where, GM, "sg start", title="bench")
    await run(service, where, PLAYER, "sg join", name="霊夢", dp_max=30, recovery=3, hp=10)
    await run(service, where, GM, "sg join", name="妖精", side="enemy", dp_max=8, recovery=2, hp=6)
    if hidden:
        await run(
            service, where, GM, "sg join", name=HIDDEN, side="enemy", dp_max=12, recovery=3, hp=9, hidden=True
        )
        await run(service, where, GM, "sg hide", name=HIDDEN, dice=1, base=4)
    await run(service, where, GM, "sg turn")


PROBES = {
    "search": ("sg search", {"name": "霊夢", "dice": 0, "base": 2}),
    "join under the name": ("sg join", {"name": HIDDEN, "dp_max": 10, "recovery": 2, "hp": 8}),
    "roll labelled": ("sg roll", {"name": "霊夢", "dice": 0, "base": 1, "label": HIDDEN}),
}


async def one_run(samples: int) -> dict[str, dict[bool, list[float]]]:
    """Each probe in a fresh battle per sample (a search and a join change what the next would meet)."""
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(str(Path(tmp) / "bench.db"))
        service = BattleService(storage, SeededDice(7))
        times: dict[str, dict[bool, list[float]]] = {p: {True: [], False: []} for p in PROBES}
        channel = 0
        try:
            for n in range(samples):
                for hidden in (n % 2 == 0, n % 2 == 1):  # alternate which world goes first
                    for probe, (path, options) in PROBES.items():
                        channel += 1
                        where = Where("g", str(channel))
                        await battle(service, where, hidden)
                        times[probe][hidden].append(await run(service, where, PLAYER, path, **options))
        finally:
            await storage.close()
        return times


def mad(values: list[float]) -> float:
    m = statistics.median(values)
    return statistics.median(abs(v - m) for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ensure_builtin()
    results = [asyncio.run(one_run(args.samples)) for _ in range(args.runs)]
    print(f"S-HIDE-1 timing: {args.samples} samples per world and probe, median of {args.runs} runs (ms)")
    print(f"{'probe':<22}{'hidden p50':>11}{'p90':>8}{'none p50':>10}{'p90':>8}{'diff':>8}{'noise':>8}")
    for probe in PROBES:
        row: dict[str, list[float]] = {k: [] for k in ("h50", "h90", "n50", "n90", "diff", "noise")}
        for r in results:
            hid, none = r[probe][True], r[probe][False]
            h50, n50 = statistics.median(hid), statistics.median(none)
            row["h50"].append(h50)
            row["n50"].append(n50)
            row["h90"].append(statistics.quantiles(hid, n=10)[-1])
            row["n90"].append(statistics.quantiles(none, n=10)[-1])
            row["diff"].append(h50 - n50)
            row["noise"].append(max(mad(hid), mad(none)))
        m = {k: statistics.median(v) * 1000 for k, v in row.items()}
        print(
            f"{probe:<22}{m['h50']:>11.2f}{m['h90']:>8.2f}{m['n50']:>10.2f}{m['n90']:>8.2f}"
            f"{m['diff']:>+8.2f}{m['noise']:>8.2f}"
        )


if __name__ == "__main__":
    main()
