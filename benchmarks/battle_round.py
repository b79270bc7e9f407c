"""Ordinary battle benchmark (issue 36): a round of 6 PCs against 10 monsters (3 of them with parts),
every action typed, through the service on a fresh SQLite database.

    python benchmarks/battle_round.py [--runs 5]

Each run starts a battle, adds the PCs (ゆとシートⅡ's fighter sheet, as ytsheet2 served it) and the
monsters (7 ゴブリン by hand, グリフォン and マンティコア from ytsheet2's monster sheets, one more
グリフォン), rolls 魔物知識 and 先制, then plays two rounds: each PC's attack on a monster (a dice
amount, a part named for a monster of several parts), an effect, MP spent, every monster's attack on
a PC, the turns ended. It prints, as medians over the runs:

- the CPU of one command in the service (process time, every thread: the rules, the write plan, the
  storage writer's thread), its median and the worst command's;
- the CPU of rendering the status (the console's text and Discord's embeds, for the GM and for a
  player), median and worst;
- the bytes the database grows by per command (the file after a WAL checkpoint, divided by the
  commands);

and, measured in the same run as the baseline, a fort battle's ``/unit hp`` on 16 units: its CPU and
growth per command. Goals: each command ≤ 5 ms, the status render ≤ 30 ms, growth per command in the
fort's range (≤ 2 KB). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.commands import SheetSource  # noqa: E402
from bot.discord.embeds import render as discord_render  # noqa: E402
from bot.render.text import render as text_render  # noqa: E402
from bot.rulesets.builtin import ensure_builtin  # noqa: E402
from bot.service import Actor, BattleService, Invocation, Where  # noqa: E402
from bot.storage import open_storage  # noqa: E402
from engine.dice import SeededDice  # noqa: E402

FIXTURES = ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2"
GM = Actor("gm")
PLAYERS = [Actor(f"player{n}") for n in range(6)]
PCS = ["ガルド", "リーネ", "ミナ", "ソウ", "ハル", "ユキ"]
GOBLINS = [f"ゴブリン{c}" for c in "ABCDEFG"]


def sheet(path: Path) -> SheetSource:
    return SheetSource(path.read_text(encoding="utf-8"), path.name)


def setup_lines() -> list[tuple[Actor, str, dict[str, Any]]]:
    lines: list[tuple[Actor, str, dict[str, Any]]] = [(GM, "battle start", {"title": "bench"})]
    fighter = sheet(FIXTURES / "fighter.json")
    for player, name in zip(PLAYERS, PCS, strict=True):
        lines.append((player, "battle pc", {"name": name, "sheet": fighter}))
    lines.append(
        (GM, "battle monster", {"name": "ゴブリン", "hp": 16, "defense": 2, "reputation": 5,
                                "weakness_value": 11, "weakness": "命中力+1", "initiative": 11, "count": 7})
    )  # fmt: skip
    lines.append((GM, "battle monster", {"sheet": sheet(FIXTURES / "monsters" / "griffon.json")}))
    lines.append((GM, "battle monster", {"sheet": sheet(FIXTURES / "monsters" / "manticore.json")}))
    lines.append(
        (
            GM,
            "battle monster",
            {"name": "グリフォン2", "sheet": sheet(FIXTURES / "monsters" / "griffon.json")},
        )
    )
    for player, name in zip(PLAYERS, PCS, strict=True):
        lines.append((player, "battle knowledge", {"name": name, "monster": "ゴブリン", "check": "2d+5"}))
        lines.append((player, "battle initiative", {"name": name}))
    return lines


def round_lines(targets: list[str]) -> list[tuple[Actor, str, dict[str, Any]]]:
    lines: list[tuple[Actor, str, dict[str, Any]]] = []
    for n, (player, name) in enumerate(zip(PLAYERS, PCS, strict=True)):
        if n == 0:
            lines.append((player, "battle effect", {"target": name, "name": "ガード", "rounds": "1",
                                                         "mod": "防護点+2", "by": name}))  # fmt: skip
        if n == 1:
            lines.append((player, "battle mp", {"name": name, "delta": -3}))
        lines.append(
            (player, "battle damage", {"targets": targets[n % len(targets)], "amount": "2d+5", "by": name})
        )
    lines.append((GM, "battle next", {}))
    for n, goblin in enumerate(GOBLINS):
        lines.append((GM, "battle damage", {"targets": PCS[n % len(PCS)], "amount": "2d+2", "by": goblin}))
    for monster in ("グリフォン", "マンティコア", "グリフォン2"):
        lines.append((GM, "battle damage", {"targets": PCS[0], "amount": "2d+6", "by": monster}))
    lines.append((GM, "battle next", {}))
    return lines


def file_bytes(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size


async def timed(
    service: BattleService, where: Where, actor: Actor, path: str, options: dict[str, Any]
) -> float:
    start = time.process_time()
    view = await service.execute(where, actor, Invocation(path, options))
    spent = (time.process_time() - start) * 1000
    if not view.ok:
        raise SystemExit(f"/{path} {options} was refused: {view}")
    return spent


async def battle_run(folder: Path) -> dict[str, Any]:
    db = folder / "battle.db"
    storage = await open_storage(str(db))
    service = BattleService(storage, SeededDice(36))
    where = Where("g", "c")
    try:
        for actor, path, options in setup_lines():
            await timed(service, where, actor, path, options)
        await service.execute(where, GM, Invocation("battle next", {}))
        targets = [
            "ゴブリンA",
            "グリフォン:頭部",
            "マンティコア:胴体",
            "ゴブリンB",
            "グリフォン2:胴体",
            "ゴブリンC",
        ]
        before = file_bytes(db)
        spent: list[float] = []
        worst_path = ""
        for _ in range(2):
            for actor, path, options in round_lines(targets):
                spent.append(await timed(service, where, actor, path, options))
                if spent[-1] == max(spent):
                    worst_path = path
        grown = (file_bytes(db) - before) / len(spent)
        renders: list[float] = []
        for viewer, gm in ((GM, True), (PLAYERS[1], False)):
            for _ in range(10):
                view = await service.execute(where, viewer, Invocation("battle status", {"gm": gm}))
                start = time.process_time()
                text_render(view, "ja")
                discord_render(view, "ja")
                renders.append((time.process_time() - start) * 1000)
        return {
            "command_median": statistics.median(spent), "command_worst": max(spent),
            "render_median": statistics.median(renders), "render_worst": max(renders),
            "growth": grown, "commands": len(spent), "worst_path": worst_path,
        }  # fmt: skip
    finally:
        await service.close()
        await storage.close()


async def fort_run(folder: Path) -> dict[str, float]:
    db = folder / "fort.db"
    storage = await open_storage(str(db))
    service = BattleService(storage, SeededDice(36))
    where = Where("g", "c")
    try:
        await timed(service, where, GM, "fort start", {"rounds": 5})
        for n in range(16):
            unit = {"name": f"ゴブリン{n}", "type": "normal", "area": "A2", "hp": 30, "fort_damage": 5}
            await timed(service, where, GM, "unit add", unit)
        before = file_bytes(db)
        spent = [
            await timed(service, where, GM, "unit hp", {"unit": f"ゴブリン{n % 16}", "delta": -1})
            for n in range(64)
        ]
        return {"command_median": statistics.median(spent), "growth": (file_bytes(db) - before) / len(spent)}
    finally:
        await service.close()
        await storage.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ensure_builtin()
    battle: list[dict[str, Any]] = []
    fort: list[dict[str, float]] = []
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory() as folder:
            b = await battle_run(Path(folder))
            f = await fort_run(Path(folder))
        battle.append(b)
        fort.append(f)
        print(
            f"run {run}: battle {b['commands']:.0f} commands, CPU median {b['command_median']:.2f} ms, worst "
            f"{b['command_worst']:.2f} ms (/{b['worst_path']}); status render median "
            f"{b['render_median']:.2f} ms, worst "
            f"{b['render_worst']:.2f} ms; growth {b['growth']:.0f} B/command | fort /unit hp CPU "
            f"{f['command_median']:.2f} ms, growth {f['growth']:.0f} B/command"
        )

    def med(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.median(r[key] for r in rows)

    print(
        f"median of {args.runs} runs: command CPU median {med(battle, 'command_median'):.2f} ms, worst "
        f"{med(battle, 'command_worst'):.2f} ms (goal ≤ 5 ms); status render median "
        f"{med(battle, 'render_median'):.2f} ms, worst {med(battle, 'render_worst'):.2f} ms (goal ≤ 30 ms); "
        f"growth {med(battle, 'growth'):.0f} B/command beside the fort's {med(fort, 'growth'):.0f} B/command "
        f"(goal ≤ 2,000); the fort's /unit hp CPU {med(fort, 'command_median'):.2f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
