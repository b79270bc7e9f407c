"""What the differential fixtures of BCDice's common commands share (tools/bcdice_common.py,
tools/bcdice_pools.py): commands drawn with die pools, run through BCDice (tools/bcdice_run.cjs, the
npm package), and written one case a line."""

from __future__ import annotations

import json
import random
import re
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
POOL = 600
Draw = Callable[[random.Random], str]


def run(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """BCDice's answers; a command that exhausts its pool is dropped (and redrawn by the caller)."""
    while True:
        ran = subprocess.run(
            ["node", str(ROOT / "tools" / "bcdice_run.cjs")],
            input=json.dumps(cases),
            capture_output=True,
            text=True,
        )
        if ran.returncode == 0:
            answer: dict[str, Any] = json.loads(ran.stdout)
            return answer
        m = re.search(r"pool exhausted: (.*)", ran.stderr)
        if not m:
            raise SystemExit(ran.stderr[-2000:])
        cases[:] = [c for c in cases if c["command"].split("\n")[0] != m.group(1)]


def write(
    out: Path,
    draws: Sequence[Draw],
    count: int,
    seed: int,
    *,
    tag: bool = False,
    clean: Callable[[str], str] = lambda command: command,
) -> None:
    """``count`` commands of each draw (``clean`` of what it draws; with ``tag``, each case names its
    draw as ``kind``) rolled by BCDice, written to ``out``."""
    rng = random.Random(seed)
    results: list[dict[str, Any]] = []
    version = ""
    for draw in draws:
        kept: list[dict[str, Any]] = []
        while len(kept) < count:
            cases = [
                {"command": clean(draw(rng)), "pool": [rng.randint(1, 2520) for _ in range(POOL)]}
                for _ in range(count - len(kept))
            ]
            answer = run(cases)
            version = answer["bcdice"]
            kept.extend({"kind": draw.__name__, **r} if tag else r for r in answer["results"])
        results.extend(kept)
    for result in results:
        result["rands"] = [[value, sides] for value, sides in result["rands"]]
    head = {"bcdice": version, "game_system": "SwordWorld2.5", "seed": seed}
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in results]
    # one case per line, so that a change of the fixture reads case by case in a diff
    out.write_text(
        json.dumps(head, ensure_ascii=False)[:-1] + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n", "utf-8"
    )
    taken = sum(r["text"] is not None for r in results)
    print(f"BCDice {version}: {len(results)} commands, {taken} rolled, written to {out.relative_to(ROOT)}")
