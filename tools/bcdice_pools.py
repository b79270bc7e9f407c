"""Random nBx, nRx and nUx commands rolled by BCDice itself: the fixture of tests/dice/test_bcdice_pools.py.

    npm install --prefix /tmp/bcdice bcdice@4.9.0
    NODE_PATH=/tmp/bcdice/node_modules python tools/bcdice_pools.py [--count 600] [--seed 7]

Draws ``count`` commands of each kind (バラバラロール ``3B6>=4``, 個数振り足し ``3R6[5]>=5``, 上方無限
``2U6[6]+2``) with random counts, sides, groups, thresholds (``[5]``, ``[>5]``, ``@5``), every comparison
in each of BCDice's spellings, modifiers and arithmetic, the ``S`` prefix, lower case and comments, and
some that BCDice refuses (a missing reroll condition, an upper threshold of 1, a parse error). Each gets a
pool of die values; ``tools/bcdice_run.cjs`` runs them through BCDice's SwordWorld2.5 and the answers go
to ``tests/data/bcdice_pools.json``. A command that would take more dice than its pool holds (BCDice's
runner stops on it) is drawn again.
"""

from __future__ import annotations

import argparse
import random

from bcdice_fixture import ROOT, write

OUT = ROOT / "tests" / "data" / "bcdice_pools.json"
#: BCDice's spellings of each comparison (``=>`` is ``>=``, ``!=`` is ``<>``)
SPELLINGS = {
    ">=": [">=", ">=", ">=", "=>"],
    ">": [">"],
    "<=": ["<=", "<=", "=<"],
    "<": ["<"],
    "=": ["=", "=", "=="],
    "<>": ["<>", "<>", "!=", "=!"],
}
SIDES = [6, 6, 6, 6, 10, 10, 4, 8, 12, 20, 100, 2, 3, 1]


def letter(rng: random.Random, upper: str) -> str:
    return upper.lower() if rng.random() < 0.15 else upper


def comparison(rng: random.Random) -> str:
    return rng.choice(SPELLINGS[rng.choice(list(SPELLINGS))])


def number(rng: random.Random, value: int) -> str:
    """``value``, now and then written as arithmetic that BCDice evaluates to about it."""
    roll = rng.random()
    if roll < 0.8:
        return str(value)
    if roll < 0.85:
        return f"({value})"
    if roll < 0.9:
        return f"{value * 2 + rng.randint(0, 1)}/2{rng.choice(['', 'U', 'R', 'F', 'C'])}"
    if roll < 0.95:
        return f"{value + 1}-1"
    return f"+{value}" if value >= 0 else f"-{-value}"


def count(rng: random.Random) -> str:
    n = rng.choice([1, 2, 2, 3, 3, 4, 5, 6, rng.randint(0, 10), rng.randint(1, 20)])
    return f"({n - 1}+1)" if n and rng.random() < 0.05 else str(n)


def target(rng: random.Random, sides: int) -> str:
    return comparison(rng) + number(rng, rng.randint(-1, sides + 1))


def secret(rng: random.Random) -> str:
    return letter(rng, "S") if rng.random() < 0.25 else ""


def comment(rng: random.Random) -> str:
    return rng.choice([" 命中", "\t回避", "\u3000抵抗", " #1 hit"]) if rng.random() < 0.1 else ""


def garble(rng: random.Random, text: str) -> str:
    """Now and then a command BCDice cannot read."""
    if rng.random() >= 0.05:
        return text
    return rng.choice(
        [text + "?", text + "+3", text + "!4", text + "@", text + ">=", "S" + text, text + "*2"]
    )


def barabara(rng: random.Random) -> str:
    groups = [
        f"{count(rng)}{letter(rng, 'B')}{rng.choice(SIDES)}" for _ in range(rng.choice([1, 1, 1, 2, 3]))
    ]
    text = secret(rng) + "+".join(groups)
    if rng.random() < 0.8:
        text += target(rng, 6)
    return garble(rng, text) + comment(rng)


def reroll(rng: random.Random) -> str:
    sides = [rng.choice(SIDES[:-1]) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    groups = [f"{rng.choice([1, 2, 2, 3, 3, 4, 5, rng.randint(0, 8)])}{letter(rng, 'R')}{s}" for s in sides]
    low = min(sides)
    threshold = rng.choice([low, low, low - 1, max(low // 2, 2), rng.randint(0, low + 1)])
    op = "" if rng.random() < 0.6 else comparison(rng)
    style = rng.choice(["bracket", "bracket", "at", "none"])
    text = secret(rng) + "+".join(groups)
    cmp = target(rng, low) if style == "none" or rng.random() < 0.7 else ""
    if style == "bracket":
        text += f"[{op}{number(rng, threshold)}]" + cmp
    elif style == "at":
        text += cmp + f"@{op}{number(rng, threshold)}"
    else:
        text += cmp
    return garble(rng, text) + comment(rng)


def upper(rng: random.Random) -> str:
    sides = [rng.choice(SIDES) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    groups = [f"{count(rng)}{letter(rng, 'U')}{s}" for s in sides]
    high = max(sides)
    threshold = rng.choice([high, high, high, high - 1, high + 1, rng.randint(0, high + 1)])
    style = rng.choice(["bracket", "bracket", "at", "none"])
    modifier = ""
    if rng.random() < 0.5:
        modifier = rng.choice(
            [f"+{rng.randint(0, 12)}", f"-{rng.randint(0, 12)}", "+2*3", "+1-3", "-(2)", "+7/2", "+-1"]
        )
    cmp = target(rng, high * 2) if rng.random() < 0.4 else ""
    text = secret(rng) + "+".join(groups)
    if style == "bracket":
        text += f"[{number(rng, threshold)}]{modifier}{cmp}"
    elif style == "at":
        text += f"{modifier}{cmp}@{number(rng, threshold)}"
    else:
        text += modifier + cmp
    return garble(rng, text) + comment(rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    write(OUT, (barabara, reroll, upper), args.count, args.seed)


if __name__ == "__main__":
    main()
