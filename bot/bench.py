"""``toride bench dice``: what the dice engine costs on one core, the parse measured apart from the roll.

For each command, three figures, each the median of ``--runs`` runs of about ``--seconds`` each:

- ``parse``: a text never seen before becomes a command (``parse_command_uncached``: neither the
  text cache nor the compile cache is used);
- ``roll``: a parsed command rolled (``ParsedCommand.roll``);
- ``roll(text)``: what a front-end calls, ``roll(text, dice)``, whose parse is cached after the first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import NamedTuple

COMMANDS = ("2D6+10", "K40+12@10", "K20@8r5", "HK20+8@9$+1", "2D6+3D6+5>=10")
BATCH = 200


class Figure(NamedTuple):
    """Median µs per call and the spread of the runs (lowest, highest), in µs."""

    median_us: float
    low_us: float
    high_us: float

    @property
    def per_second(self) -> float:
        return 1e6 / self.median_us


def _run(one: Callable[[], object], seconds: float) -> float:
    """µs per call of ``one`` over about ``seconds`` (whole batches)."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(BATCH):
            one()
        n += BATCH
        now = time.perf_counter()
        if now >= deadline:
            return (now - start) * 1e6 / n


def figure(one: Callable[[], object], runs: int, seconds: float) -> Figure:
    """The median of ``runs`` runs of ``one`` (after one short warm-up run)."""
    _run(one, min(seconds, 0.05))
    times = [_run(one, seconds) for _ in range(runs)]
    return Figure(statistics.median(times), min(times), max(times))


def measure(command: str, runs: int, seconds: float) -> dict[str, Figure]:
    """The three figures of ``command``: ``parse``, ``roll``, ``roll(text)``."""
    from engine.dice import SeededDice, parse_command, roll
    from engine.dice.command import parse_command_uncached

    dice = SeededDice(1)
    parsed = parse_command(command)
    return {
        "parse": figure(lambda: parse_command_uncached(command), runs, seconds),
        "roll": figure(lambda: parsed.roll(dice), runs, seconds),
        "roll(text)": figure(lambda: roll(command, dice), runs, seconds),
    }


def bench_dice(runs: int = 7, seconds: float = 0.2) -> None:
    print(f"dice engine, one core: median of {runs} runs of {seconds:g} s each (lowest-highest)")
    print(f"{'command':<18} {'parse µs':>20} {'roll µs':>20} {'roll(text) µs':>20} {'rolls/s':>10}")
    for command in COMMANDS:
        found = measure(command, runs, seconds)
        cells = [f"{f.median_us:.2f} ({f.low_us:.2f}-{f.high_us:.2f})" for f in found.values()]
        rate = found["roll(text)"].per_second
        print(f"{command:<18} {cells[0]:>20} {cells[1]:>20} {cells[2]:>20} {rate:>10,.0f}")


def add_bench_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its numbers")
    p.add_argument("what", choices=["dice"], help="what to measure")
    runs = "runs per figure, 1-1000; the median is printed (default 7)"
    p.add_argument("--runs", type=_within(int, 1, 1000), default=7, help=runs)
    seconds = "time per run, 0.001-60 (default 0.2)"
    p.add_argument("--seconds", type=_within(float, 0.001, 60), default=0.2, help=seconds)
    p.set_defaults(func=_run_bench)


def _within(kind: Callable[[str], float], low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not within {low:g}-{high:g}")
        return value

    return parse


def _run_bench(args: argparse.Namespace) -> int:
    bench_dice(runs=args.runs, seconds=args.seconds)
    return 0
