"""Start-up benchmark: how long a person waits for each command line tool, beside its floor.

Run: ``python benchmarks/startup.py [--runs 7]``. Each figure is the median wall time of ``--runs`` fresh
processes (after one warm-up, so the OS file cache is warm), measured in the same run:

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


def _run(argv: list[str], env: dict[str, str], stdin: str = "") -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv!r} failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed


def _to_prompt(argv: list[str], env: dict[str, str], prompt: bytes) -> float:
    """Seconds from starting ``argv`` in a pseudo-terminal until ``prompt`` is on its screen; then
    ``/quit`` is typed and the process awaited."""
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
    return elapsed


def _median(runs: int, one: Callable[[], float]) -> float:
    one()  # warm-up: file cache, .pyc files
    return statistics.median(one() for _ in range(runs))


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
        # the database exists before the console is timed (its first start upgrades the schema)
        _run([*toride, "console"], env, "/quit\n")
        rows: list[tuple[str, float, str]] = []
        floor = _median(args.runs, lambda: _run(bare, env))
        rows.append(("bare import+roll", floor, "floor"))
        roll = _median(args.runs, lambda: _run([*toride, "roll", "2d+10"], env))
        rows.append(
            ("toride roll '2d+10'", roll, f"{roll / floor:.2f}x floor (goal <= {GOAL_ROLL_RATIO:g}x)")
        )
        helped = _median(args.runs, lambda: _run([*toride, "--help"], env))
        rows.append(("toride --help", helped, f"{helped / floor:.2f}x floor"))
        piped = _median(args.runs, lambda: _run([*toride, "console"], env, "/quit\n"))
        rows.append(("console, /quit on a pipe", piped, f"goal <= {GOAL_CONSOLE_MS:g} ms"))
        if not args.no_tty:
            prompt = b"gm@console>"
            shown = _median(args.runs, lambda: _to_prompt([*toride, "console"], env, prompt))
            rows.append(("console to first prompt (tty)", shown, f"goal <= {GOAL_CONSOLE_MS:g} ms"))

    print(f"startup, median of {args.runs} runs (python {sys.version.split()[0]})")
    print(f"{'what':<32} {'ms':>8}  note")
    for name, seconds, note in rows:
        print(f"{name:<32} {seconds * 1000:>8.1f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
