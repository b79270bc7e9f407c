"""Random SwordWorld2.5 commands rolled by BCDice itself: the fixture of tests/dice/test_bcdice_random.py.

    npm install --prefix /tmp/bcdice bcdice@4.9.0
    NODE_PATH=/tmp/bcdice/node_modules python tools/bcdice_differential.py [--count 2000] [--seed 25]

Draws ``count`` commands (rating rolls with every option, halved and x1.5 ones with small or negative
totals, plain sums and comparisons, 超越判定, 成長, comments after the expression) and a pool of die
values for each, runs them through BCDice (``tools/bcdice_run.cjs``, the npm package, which wraps
BCDice's own Ruby code), and writes what BCDice printed and the dice it took to
``tests/data/bcdice_random.json``. The test replays each command with those dice through Toride's
roller and compares the text and flags byte for byte.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "bcdice_random.json"
POOL = 120


def signed(rng: random.Random, low: int, high: int) -> str:
    value = rng.randint(low, high)
    return f"+{value}" if value >= 0 else str(value)


def rating(rng: random.Random) -> str:
    prefix = rng.choice(["", "", "", "S", "H", "OH", "SH"])
    rate = rng.choice([0, 5, 10, 10, 10, 20, 20, 30, 40, 55, 70, 100, rng.randint(0, 100)])
    options: list[str] = []
    if rng.random() < 0.7:
        # small and negative bonuses make the halved totals that go below zero
        options.append(signed(rng, -12, 12) if rng.random() < 0.6 else signed(rng, -3, 3))
    if rng.random() < 0.4:
        crit = rng.choice([8, 9, 10, 11, 12, 13, rng.randint(7, 13)])
        options.append(f"@{crit}" if rng.random() < 0.7 else f"[{crit}]")
    if rng.random() < 0.2:
        options.append(
            rng.choice([f"${signed(rng, -2, 2)}", f"${rng.randint(2, 12)}", f"$~+{rng.randint(1, 3)}"])
        )
    if "H" not in prefix and rng.random() < 0.35:
        options.append(rng.choice(["h", "H", "h+1", "h-1", "H+0", "oh", "OH", "oh+2", "oh-1"]))
    if rng.random() < 0.15:
        options.append(f"r{rng.randint(1, 10)}")
    if rng.random() < 0.2:
        options.append(rng.choice(["gf", f"sf{rng.randint(1, 6)}", f"tf{rng.randint(1, 6)}"]))
    if rng.random() < 0.15:
        options.append(f"#{signed(rng, -2, 2)}")
    rng.shuffle(options)
    return f"{prefix}K{rate}{''.join(options)}"


def plain(rng: random.Random) -> str:
    count = rng.choice([1, 2, 2, 2, 3, 4])
    die = rng.choice([f"{count}D6", f"{count}D", f"{count}d6", f"{count}d"])
    if count > 2 and rng.random() < 0.3:
        die += rng.choice(["KH2", "KL1", "DH1", "DL1"])
    text = die
    if rng.random() < 0.7:
        text += signed(rng, -15, 15)
    if rng.random() < 0.25:
        text += f"/{rng.randint(2, 3)}" + rng.choice(["", "U", "R"])
    if rng.random() < 0.4:
        text += rng.choice([">=", ">", "<=", "<", "=", "<>"]) + str(rng.randint(2, 20))
    return text


def other(rng: random.Random) -> str:
    return rng.choice(
        [
            f"2D6@{rng.randint(10, 12)}{signed(rng, 0, 15)}>={rng.randint(10, 40)}",
            f"2D@10{signed(rng, -3, 10)}",
            "GR",
            f"GR{rng.randint(1, 4)}",
        ]
    )


def command(rng: random.Random) -> str:
    roll = rng.random()
    text = rating(rng) if roll < 0.65 else plain(rng) if roll < 0.9 else other(rng)
    if rng.random() < 0.1:
        text += rng.choice([" 命中", " 攻撃:ゴブリンへ", "\u3000回避", " #1 hit"])
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [
        {"command": command(rng), "pool": [rng.randint(1, 6) for _ in range(POOL)]} for _ in range(args.count)
    ]
    ran = subprocess.run(
        ["node", str(ROOT / "tools" / "bcdice_run.cjs")],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(ran.stdout)
    results = answer["results"]
    for result in results:
        result["rands"] = [[value, sides] for value, sides in result["rands"]]
    head = {"bcdice": answer["bcdice"], "game_system": "SwordWorld2.5", "seed": args.seed}
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in results]
    # one case per line, so that a change of the fixture reads case by case in a diff
    OUT.write_text(
        json.dumps(head, ensure_ascii=False)[:-1] + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n", "utf-8"
    )
    taken = sum(r["text"] is not None for r in results)
    print(
        f"BCDice {answer['bcdice']}: {len(results)} commands, {taken} rolled,"
        f" written to {OUT.relative_to(ROOT)}"
    )


if __name__ == "__main__":
    main()
