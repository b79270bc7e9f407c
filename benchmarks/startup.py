"""Start-up benchmark: how long a person waits for each command line tool, beside its floor.

Run: ``python benchmarks/startup.py [--runs 7]``. Each figure is the median of ``--runs`` fresh processes
(after one warm-up, so the OS file cache is warm), wall time and the process's CPU time, the cases taking
turns in the same run:

- ``bare import+roll``: ``python -c "from engine.dice import roll, SeededDice; roll('2d+10', ...)"``,
  the floor of any dice tool;
- ``toride roll '2d+10'`` (goal: within 2x the floor);
- ``toride --help``;
- ``toride console`` with ``/quit`` on a pipe, on an existing SQLite database (goal: <= 300 ms);
- ``toride console`` in a terminal (a pseudo-terminal) until its first prompt is drawn (goal: <= 300 ms).

The tools run as ``python -m bot.cli`` would not match what a user starts, so they run through the
``toride`` script of the running interpreter's environment (``python -c "from bot.cli import main; ..."``
when it is missing).
"""

from __future__ import annotations

import argparse
import os
import pty
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GOAL_ROLL_RATIO = 2.0
GOAL_CONSOLE_MS = 300.0


def _toride() -> list[str]:
    script = Path(sys.executable).with_name("toride")
    if script.exists():
        return [str(script)]
    found = shutil.which("toride")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv!r} failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed, _children_cpu() - cpu


def _to_prompt(argv: list[str], env: dict[str, str], prompt: bytes) -> tuple[float, float]:
    """(wall seconds from starting ``argv`` in a pseudo-terminal until ``prompt`` is on its screen, CPU
    seconds of the whole process); ``/quit`` is typed at the prompt and the process awaited."""
    cpu = _children_cpu()
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(argv[0], argv, env)
    seen = b""
    elapsed = None
    deadline = start + 30
    try:
        while elapsed is None:
            if time.perf_counter() > deadline:
                raise SystemExit(f"no prompt within 30 s: {seen[-500:]!r}")
            ready, _, _ = select.select([fd], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                raise SystemExit(f"the console ended before its prompt: {seen[-500:]!r}") from None
            if b"\x1b[6n" in chunk:  # answer the cursor position request, as a terminal does
                os.write(fd, b"\x1b[1;1R")
            seen += chunk
            if prompt in seen:
                elapsed = time.perf_counter() - start
        os.write(fd, b"/quit\r")
        end = time.perf_counter() + 10
        while time.perf_counter() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    if not os.read(fd, 65536):
                        break
                except OSError:
                    break
            if os.waitpid(pid, os.WNOHANG)[0]:
                pid = 0
                break
    finally:
        if pid:
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(fd)
    assert elapsed is not None
    return elapsed, _children_cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="processes per figure (default 7)")
    ap.add_argument("--no-tty", action="store_true", help="skip the pseudo-terminal console figure")
    args = ap.parse_args(argv)

    toride = _toride()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HOME": tmp, "TORIDE_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.db"}
        env.pop("DISCORD_TOKEN", None)
        env["TERM"] = env.get("TERM") or "xterm"
        bare = [
            sys.executable,
            "-c",
            "from engine.dice import SeededDice, roll; print(roll('2d+10', SeededDice(None)).text)",
        ]
        cases: list[tuple[str, Callable[[], tuple[float, float]]]] = [
            ("bare import+roll", lambda: _run(bare, env)),
            ("toride roll '2d+10'", lambda: _run([*toride, "roll", "2d+10"], env)),
            ("toride --help", lambda: _run([*toride, "--help"], env)),
            ("console, /quit on a pipe", lambda: _run([*toride, "console"], env, "/quit\n")),
        ]
        if not args.no_tty:
            prompt = b"gm@console>"
            cases.append(
                ("console to first prompt (tty)", lambda: _to_prompt([*toride, "console"], env, prompt))
            )
        # the database exists before the console is timed (its first start upgrades the schema)
        _run([*toride, "console"], env, "/quit\n")
        for _, one in cases:  # warm-up: file cache, .pyc files
            one()
        # the cases take turns, so that a busy moment of a shared machine falls on all of them alike
        times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in cases}
        for _ in range(args.runs):
            for name, one in cases:
                times[name].append(one())
    wall = {name: statistics.median(w for w, _ in runs) for name, runs in times.items()}
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in times.items()}
    floor = wall["bare import+roll"]
    notes = {
        "bare import+roll": "the floor",
        "toride roll '2d+10'": f"{wall[cases[1][0]] / floor:.2f}x the floor (goal <= {GOAL_ROLL_RATIO:g}x)",
        "toride --help": f"{wall[cases[2][0]] / floor:.2f}x the floor",
        "console, /quit on a pipe": f"goal <= {GOAL_CONSOLE_MS:g} ms",
        "console to first prompt (tty)": f"goal <= {GOAL_CONSOLE_MS:g} ms",
    }
    rows = [(name, wall[name], cpu[name], notes[name]) for name, _ in cases]

    print(f"startup, median of {args.runs} runs each, taking turns (python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.2f})")  # fmt: skip
    print(f"{'what':<32} {'wall ms':>8} {'CPU ms':>8}  note")
    for name, seconds, used, note in rows:
        print(f"{name:<32} {seconds * 1000:>8.1f} {used * 1000:>8.1f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
