"""``toride bench dice``: rolls per second of the dice engine on one core."""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.dice import RollResult, SeededDice, parse_command, roll

COMMANDS = ("2D6+10", "K40+12@10", "K20@8r5")
BATCH = 1000


def _rate(one: Callable[[], RollResult], seconds: float) -> float:
    """Calls per second of ``one`` over about ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(BATCH):
            one()
        n += BATCH
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def measure(command: str, seconds: float) -> tuple[float, float]:
    """(rolls/s through ``roll(text, dice)``, rolls/s of a command parsed once)."""
    dice = SeededDice(1)
    parsed = parse_command(command)
    return _rate(lambda: roll(command, dice), seconds), _rate(lambda: parsed.roll(dice), seconds)


def bench_dice(seconds: float = 1.0) -> None:
    print(f"{'command':<12} {'rolls/s (text)':>16} {'rolls/s (parsed)':>18}")
    for command in COMMANDS:
        text_rate, parsed_rate = measure(command, seconds)
        print(f"{command:<12} {text_rate:>16,.0f} {parsed_rate:>18,.0f}")
