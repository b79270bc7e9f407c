"""Random common commands rolled by BCDice itself: the fixture of tests/dice/test_bcdice_common.py.

    npm install --prefix /tmp/bcdice bcdice@4.9.0
    NODE_PATH=/tmp/bcdice/node_modules python tools/bcdice_common.py [--count 600] [--seed 66]

Draws ``count`` commands of each kind — repeats (``x3 2d6``, ``rep2 K20+5``, ``repeat2 choice[…]``, with
counts out of range, nested ones, commands BCDice cannot run), choices (every bracket and space form,
``choiceN``, ranges ``[1-5]``, empty and blank items, more than 100), D66 with every suffix, C() with
every operator, rounding suffix, parentheses and division by zero, and nDx with every comparison —
with ``S`` prefixes, lower case and comments, and a pool of die values for each. ``tools/bcdice_run.cjs``
runs them through BCDice's SwordWorld2.5; the answers go to ``tests/data/bcdice_common.json``. A command
that would take more dice than its pool holds is drawn again.
"""

from __future__ import annotations

import argparse
import random

from bcdice_fixture import ROOT, write

OUT = ROOT / "tests" / "data" / "bcdice_common.json"
WORDS = ["東", "西", "南", "北", "a", "b", "剣", "盾", "1", "2", "10", "ゴブリン", "x y", "A", "z"]
COMPARISONS = [">=", ">", "<=", "<", "=", "<>", "=>", "=<", "!="]


def secret(rng: random.Random) -> str:
    return rng.choice(["S", "s"]) if rng.random() < 0.25 else ""


def comment(rng: random.Random) -> str:
    return (
        rng.choice([" 命中", " 攻撃:ゴブリンへ", "\u3000回避", " #1 hit", " a,b"])
        if rng.random() < 0.15
        else ""
    )


def ndx(rng: random.Random) -> str:
    count = rng.choice([1, 1, 2, 2, 3, 4, rng.randint(1, 10)])
    sides = rng.choice([6, 6, 100, 100, 10, 20, 4, 8, 12, 2])
    text = f"{count}{rng.choice(['D', 'd'])}{sides}"
    if rng.random() < 0.3:
        text += rng.choice(["+", "-"]) + str(rng.randint(0, 20))
    if rng.random() < 0.85:
        text += rng.choice(COMPARISONS) + str(rng.randint(0, count * sides + 2))
    if rng.random() < 0.1:
        text = rng.choice(["D100", "d100<=50", "D6>=4", "1D100<=" + str(rng.randint(1, 100))])
    return secret(rng) + text + comment(rng)


def d66(rng: random.Random) -> str:
    text = rng.choice(["D66", "D66", "d66", "D66A", "D66S", "D66D", "D66N", "d66n", "D66X", "D66AA"])
    return secret(rng) + text + comment(rng)


def expr(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return str(rng.choice([0, 1, 2, 3, 5, 7, 10, 12, rng.randint(0, 999)]))
    if roll < 0.45:
        return "(" + expr(rng, depth + 1) + ")"
    if roll < 0.52:
        return rng.choice(["-", "+"]) + expr(rng, depth + 1)
    op = rng.choice(["+", "-", "*", "/", "/", "/"])
    rhs = expr(rng, depth + 1)
    if op == "/":
        rhs = rng.choice([rhs, str(rng.randint(0, 9)), str(rng.randint(1, 9))])
        rhs += rng.choice(["", "", "U", "C", "R", "F"])
    return expr(rng, depth + 1) + op + rhs


def calc(rng: random.Random) -> str:
    body = expr(rng)
    text = rng.choice(["C", "C", "c"]) + (body if rng.random() < 0.2 else f"({body})")
    if rng.random() < 0.05:
        text = rng.choice([text + "x", text + ")", "C()", "C(1 + 2)", "C" + body + "(", "CC(1)"])
    return secret(rng) + text + comment(rng)


def items(rng: random.Random) -> list[str]:
    n = rng.choice([1, 2, 2, 3, 3, 4, 5, rng.randint(2, 12)])
    out = [rng.choice(WORDS) for _ in range(n)]
    if rng.random() < 0.1:
        out[rng.randrange(n)] = rng.choice(["", " ", " c "])
    return out


def choice(rng: random.Random) -> str:
    takes = rng.choice(["", "", "", "", "1", "2", "3", "0"])
    head = secret(rng) + rng.choice(["choice", "choice", "Choice", "CHOICE"]) + takes
    style = rng.choice(["[", "[", "(", " "])
    roll = rng.random()
    if roll < 0.1:
        a, b = sorted([rng.randint(0, 120), rng.randint(0, 120)])
        inside = rng.choice(
            [f"{a}-{min(b, a + rng.randint(0, 9))}", f"{b}-{a}", "a-e", "B-F", "a-C", f"{a}-{b}"]
        )
        body = [inside]
    elif roll < 0.13:
        body = [str(i) for i in range(rng.choice([100, 101, 150]))]
    else:
        body = items(rng)
    if style == " ":
        body = [w.replace(" ", "") or "q" for w in body]
        seps = [rng.choice([" ", " ", " ", " ", "  ", "\u3000", "   "]) for _ in body]
        text = head + rng.choice([" ", " ", "  "]) + "".join(w + s for w, s in zip(body, seps, strict=True))
        return text.rstrip()
    close = "]" if style == "[" else ")"
    joined = ",".join(rng.choice([w, f" {w}", f"{w} "]) for w in body)
    text = head + style + joined + (close if rng.random() < 0.95 else "")
    return text + comment(rng)


REPEATED = [ndx, d66, calc, choice]


def repeated(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(["K20+5", "SK20", "k10@9", "K40+12@10", "H K", "Gr", "2D6@10+3>=20", "K20@2"])
    if roll < 0.3:
        return rng.choice(["foo", "2d6,x", "x2 1d6", "X2 1d6", "rep2 1d6", "choice[a]"])
    if roll < 0.4:
        return rng.choice(["3B6>=4", "2d6+1", "1D100<=50"])
    return rng.choice(REPEATED)(rng)


def repeat(rng: random.Random) -> str:
    keyword = rng.choice(["x", "x", "rep", "repeat", "X", "REP", "Repeat"])
    times = rng.choice([1, 2, 2, 3, 3, 4, 5, rng.randint(1, 10), 0, 100, 101, 999999])
    return secret(rng) + f"{keyword}{times}" + rng.choice([" ", " ", "  ", "\u3000"]) + repeated(rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=66)
    args = parser.parse_args()
    write(OUT, (repeat, choice, d66, calc, ndx), args.count, args.seed, tag=True, clean=str.rstrip)


if __name__ == "__main__":
    main()
