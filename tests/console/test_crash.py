"""SIGKILL in the middle of a long script: every acknowledged action is stored, and no half action."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from console_run import ROOT

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import docpatch, open_storage
from bot.views import ExportView

SETUP = [
    "/fort start rounds:5 title:crash",
    "/unit add name:Crashy type:normal area:A2 hp:10000 fort_damage:1",
]
#: each line below is acknowledged by exactly one printed line naming Crashy
STEPS = 3000
KILL_AFTER = 400


def test_sigkill_loses_no_acknowledged_action_and_leaves_no_half_one(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    script = "\n".join(SETUP + [f"/unit hp unit:Crashy set:{10000 - i}" for i in range(1, STEPS + 1)]) + "\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORIDE_DATABASE_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console", "--db", str(db), "--seed", "1", "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    writer = threading.Thread(target=_feed, args=(process.stdin, script), daemon=True)
    writer.start()
    acknowledged: list[str] = []
    for line in process.stdout:
        acknowledged.append(line)
        if sum("Crashy" in a for a in acknowledged) >= 1 + KILL_AFTER:  # the unit.added line + hp lines
            process.send_signal(signal.SIGKILL)
            break
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    acked_hp_lines = sum("Crashy" in a for a in acknowledged) - 1
    assert acked_hp_lines >= KILL_AFTER

    # the database as a new process finds it (the killed one may have left a WAL behind)
    conn = sqlite3.connect(db)
    version, state_text, state_seq = conn.execute("select version, state, state_seq from battles").fetchone()
    rows = conn.execute("select seq, delta, snapshot, events from battle_events order by seq").fetchall()
    conn.close()
    seqs = [r[0] for r in rows]
    # no half action: every version has exactly its log row, and the state is what the log says: the
    # first snapshot with every row's patch is the battle row's state with the patches after it
    assert seqs == list(range(1, version + 1))
    replayed = json.loads(rows[0][2])
    for _, delta, _, _ in rows[1:]:
        replayed = docpatch.apply(replayed, json.loads(delta))
    current = json.loads(state_text)
    for _, delta, _, _ in rows[state_seq:]:
        current = docpatch.apply(current, json.loads(delta))
    assert replayed == current
    hp = next(u["hp"] for u in current["units"] if u["name"] == "Crashy")
    stored_hp_rows = version - len(SETUP)
    # every acknowledged action is there; at most the one in flight when killed is there too
    assert stored_hp_rows in (acked_hp_lines, acked_hp_lines + 1)
    assert hp == 10000 - stored_hp_rows
    assert stored_hp_rows < STEPS  # it really was killed mid-way
    # each stored row is the action it says it is
    for seq, delta, snapshot, events in rows[len(SETUP) :]:
        (event,) = [e for e in json.loads(events) if e["kind"] == "unit.hp_changed"]
        assert event["data"]["after"] == 10000 - (seq - len(SETUP))
        assert json.loads(delta)["l"]["units"] == [{"i": 0, "o": {"hp": event["data"]["after"] + 1},
                                                    "v": {"hp": event["data"]["after"]}}]  # fmt: skip
        if snapshot is not None:
            assert json.loads(snapshot)["units"][0]["hp"] == event["data"]["after"]


async def test_a_new_service_continues_after_the_kill(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    script = "\n".join(SETUP + [f"/unit hp unit:Crashy set:{10000 - i}" for i in range(1, 200)]) + "\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console", "--db", str(db), "--seed", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    threading.Thread(target=_feed, args=(process.stdin, script), daemon=True).start()
    seen = 0
    for line in process.stdout:
        seen += "Crashy" in line
        if seen >= 50:
            process.kill()
            break
    process.wait(timeout=30)
    storage = await open_storage(str(db))
    try:
        service = BattleService(storage)
        where = Where("console", "console")
        parsed = parse_line("/unit hp unit:Crashy delta:-1")
        assert parsed is not None
        await service.execute(where, Actor("gm"), Invocation(parsed.path, parsed.options, parsed.text))
        view = await service.execute(where, Actor("gm"), Invocation("fort export"))
        assert isinstance(view, ExportView)
        conn = sqlite3.connect(db)
        (count,) = conn.execute("select count(*) from battle_events").fetchone()
        conn.close()
        assert view.document["units"][0]["hp"] == 10000 - (count - len(SETUP))
    finally:
        await storage.close()


def _feed(stdin: object, script: str) -> None:
    try:
        for line in script.splitlines(keepends=True):
            stdin.write(line)  # type: ignore[attr-defined]
            stdin.flush()  # type: ignore[attr-defined]
    except (BrokenPipeError, ValueError, OSError):
        pass
