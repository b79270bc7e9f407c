"""One worker process of tests/storage/test_processes.py: a BattleService of its own on a shared database.

    python tests/storage/hammer.py URL SCHEMA MODE PROCESS OPS

``SCHEMA`` is the PostgreSQL schema to work in (``-`` on SQLite). It prints ``ready``, waits for a
line on stdin (so that every process starts at once), runs, and prints one JSON line:

- ``upgrade``: brings the schema up to date (several processes on a new database at once);
- ``hammer``: the tasks below at once, each command tagged ``#p<process>t<task>i<op>`` in the text the
  log keeps, each reply recorded as ``ok``, ``refused:<key>`` or ``error:<exception>``:
  ``shared`` (3 tasks) hit the unit of channel ``shared``; ``own`` hits the process's own channel;
  ``rotate`` hits channels ``ch0``..``ch3`` in turn (batches of several channels, in every process);
  ``undo`` alternates ``/gm undo`` and ``/gm redo`` on ``shared``; ``cogm`` adds and removes the
  process's three users as co-GMs of ``shared`` (ending with all three added); ``contest`` adds and
  removes user ``z``, whom every process adds and removes.
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.backends import storage_for
from bot.views import ErrorView
from engine.dice import SeededDice

GUILD = "g"
GM = Actor("gm")


async def hammer(service: BattleService, process: int, ops: int) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []

    async def run(task: int, i: int, channel: str, line: str) -> None:
        tag = f"#p{process}t{task}i{i}"
        parsed = parse_line(line)
        assert parsed is not None
        invocation = Invocation(parsed.path, parsed.options, f"{parsed.text} {tag}")
        try:
            view = await service.execute(Where(GUILD, channel), GM, invocation)
            result = f"refused:{view.key}" if isinstance(view, ErrorView) else "ok"
        except Exception as error:  # what the test counts as an error reply
            result = "error:" + "".join(traceback.format_exception_only(error)).strip()
        results.append({"tag": tag, "channel": channel, "line": line, "result": result})

    async def shared(task: int) -> None:
        for i in range(ops):
            await run(task, i, "shared", "/unit hp unit:Target delta:-1")

    async def own(task: int) -> None:
        for i in range(ops):
            await run(task, i, f"own{process}", "/unit hp unit:Target delta:-1")

    async def rotate(task: int) -> None:
        for i in range(ops):
            await run(task, i, f"ch{(i + process) % 4}", "/unit hp unit:Target delta:-1")

    async def undo(task: int) -> None:
        for i in range(ops):
            await run(task, i, "shared", "/gm redo" if i % 2 else "/gm undo")

    async def cogm(task: int) -> None:
        for i in range(9):  # add u0 u1 u2, remove them, add them again
            verb = "add" if (i // 3) % 2 == 0 else "remove"
            await run(task, i, "shared", f"/gm {verb} user:p{process}u{i % 3}")

    async def contest(task: int) -> None:
        for i in range(ops):
            await run(task, i, "shared", f"/gm {'remove' if i % 2 else 'add'} user:z")

    tasks = (shared, shared, shared, own, rotate, undo, cogm, contest)
    await asyncio.gather(*(body(n) for n, body in enumerate(tasks)))
    return results


async def main() -> None:
    url, schema, mode, process, ops = sys.argv[1:6]
    storage = storage_for(url, schema=None if schema == "-" else schema)
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        if mode == "upgrade":
            try:
                await storage.migrate()
                print(json.dumps({"ok": True}), flush=True)
            except Exception as error:
                print(json.dumps({"ok": False, "error": repr(error)}), flush=True)
            return
        service = BattleService(storage, SeededDice(int(process)))
        results = await hammer(service, int(process), int(ops))
        await service.close()
        counts = storage.counts
        summary = {
            "results": results,
            "conflicts": service.actions.conflicts,
            "retries": counts.job_retries + counts.retries,
            "stored": counts.stored,
            "returned": counts.returned,
        }
        print(json.dumps(summary), flush=True)
    finally:
        await storage.close()


if __name__ == "__main__":
    from bot.rulesets.builtin import ensure_builtin

    ensure_builtin()  # as every entry point of the bot
    asyncio.run(main())
