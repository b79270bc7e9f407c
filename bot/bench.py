"""``toride bench dice``: rolls per second of the dice engine on one core."""

from __future__ import annotations

import time

from engine.dice import SeededDice, parse_command, roll

COMMANDS = ("2D6+10", "K40+12@10", "K20@8r5")


def measure(command: str, seconds: float) -> tuple[float, float]:
    """(rolls/s through ``roll(text)``, rolls/s of a command parsed once)."""
    dice = SeededDice(1)
    rates = []
    for fn in (lambda: roll(command, dice), parse_command(command).roll):
        n = 0
        batch = 1000
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(batch):
                fn() if fn.__name__ == "<lambda>" else fn(dice)  # type: ignore[call-arg]
            n += batch
            now = time.perf_counter()
            if now >= deadline:
                break
        rates.append(n / (now - start))
    return rates[0], rates[1]


def bench_dice(seconds: float = 1.0) -> None:
    print(f"{'command':<12} {'rolls/s (text)':>16} {'rolls/s (parsed)':>18}")
    for command in COMMANDS:
        text_rate, parsed_rate = measure(command, seconds)
        print(f"{command:<12} {text_rate:>16,.0f} {parsed_rate:>18,.0f}")
