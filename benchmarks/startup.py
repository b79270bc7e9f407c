"""Start-up benchmark: how long a person waits for each command line tool, beside its floor.

Run: ``python benchmarks/startup.py [--runs 7]``. Each figure is the median of ``--runs`` fresh processes
(after one warm-up, so the OS file cache is warm), wall time and the process's CPU time, the cases taking
turns in the same run:

- ``bare import+roll``: ``python -c "from engine.dice import roll, SeededDice; roll('2d+10', ...)"``,
  the floor of any dice tool;
- ``toride roll '2d+10'`` (goal: within 2x the floor);
- ``toride --help``;
- ``toride console`` with ``/quit`` on a pipe, on an existing SQLite database (goal: <= 300 ms);
- ``toride console`` with one command (``/roll``) and ``/quit`` on a pipe: what a script waits for its
  first reply (the service loads with the first command, so this is start-up plus the session; no goal);
- ``toride console`` in a terminal (a pseudo-terminal) until its first prompt is drawn (goal: <= 300 ms).

The tools run through the ``toride`` script of the running interpreter's environment, as a user starts
them (``python -c "from bot.cli import main; ..."`` when it is missing). ``--base DIR`` measures another
checkout's tools beside these (both then started by ``python -c``), so before and after are measured in
the same run.
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
    used: float | None = None
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
                used = _process_cpu(pid)
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
    return elapsed, used if used is not None else _children_cpu() - cpu


def _process_cpu(pid: int) -> float | None:
    """CPU seconds ``pid`` has used so far (Linux: /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cases(
    toride: list[str], env: dict[str, str], tty: bool
) -> list[tuple[str, Callable[[], tuple[float, float]]]]:
    bare = [
        sys.executable,
        "-c",
        "from engine.dice import SeededDice, roll; print(roll('2d+10', SeededDice(None)).text)",
    ]
    cases: list[tuple[str, Callable[[], tuple[float, float]]]] = [
        (BARE, lambda: _run(bare, env)),
        (ROLL, lambda: _run([*toride, "roll", "2d+10"], env)),
        (HELP, lambda: _run([*toride, "--help"], env)),
        (PIPE, lambda: _run([*toride, "console"], env, "/quit\n")),
        (PIPE_ONE, lambda: _run([*toride, "console"], env, "/roll expr:2d+10\n/quit\n")),
    ]
    if tty:
        cases.append((TTY, lambda: _to_prompt([*toride, "console"], env, b"gm@console>")))
    return cases


BARE, ROLL, HELP, PIPE, PIPE_ONE, TTY = (
    "bare import+roll",
    "toride roll '2d+10'",
    "toride --help",
    "console, /quit on a pipe",
    "console, /roll + /quit, pipe",
    "console to first prompt (tty)",
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="processes per figure (default 7)")
    ap.add_argument("--no-tty", action="store_true", help="skip the pseudo-terminal console figure")
    ap.add_argument(
        "--base",
        type=Path,
        default=None,
        help="another checkout (e.g. `git archive main | tar -x -C DIR`): its tools are measured beside "
        "these, taking turns with them, started as `python -c 'from bot.cli import main; ...'` with "
        "PYTHONPATH=DIR (and these the same way)",
    )
    args = ap.parse_args(argv)

    cwd = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # no checkout is on the path by being the working directory
        env = {**os.environ, "HOME": tmp, "TORIDE_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.db"}
        env.pop("DISCORD_TOKEN", None)
        env["TERM"] = env.get("TERM") or "xterm"
        trees: dict[str, list[tuple[str, Callable[[], tuple[float, float]]]]] = {}
        if args.base is None:
            trees["now"] = _cases(_toride(), env, not args.no_tty)
        else:
            launcher = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
            here = Path(__file__).resolve().parents[1]
            for label, root in (("now", here), ("base", args.base.resolve())):
                # each its own database: their schemas may differ
                db = f"sqlite+aiosqlite:///{tmp}/{label}.db"
                tree_env = {**env, "PYTHONPATH": str(root), "TORIDE_DATABASE_URL": db}
                trees[label] = _cases(launcher, tree_env, not args.no_tty)
        # the database exists before the console is timed (its first start upgrades the schema)
        for cases in trees.values():
            dict(cases)[PIPE]()
        every = [(label, name, one) for label, cases in trees.items() for name, one in cases]
        for _, _, one in every:  # warm-up: file cache, .pyc files
            one()
        # the cases take turns, so that a busy moment of a shared machine falls on all of them alike
        times: dict[tuple[str, str], list[tuple[float, float]]] = {(lb, n): [] for lb, n, _ in every}
        for _ in range(args.runs):
            for label, name, one in every:
                times[label, name].append(one())
        os.chdir(cwd)

    print(f"startup, median of {args.runs} runs each, taking turns (python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.2f})")  # fmt: skip
    print("CPU: the process's own (the tty's until its prompt, in clock ticks of 10 ms)")
    head = "".join(f" {label + ' wall':>10} {label + ' CPU':>9}" for label in trees)
    print(f"{'what (ms)':<32}{head}  note")
    for name, _ in trees["now"]:
        cells, note = "", ""
        for label in trees:
            runs = times[label, name]
            cells += f" {statistics.median(w for w, _ in runs) * 1000:>10.1f}"
            cells += f" {statistics.median(c for _, c in runs) * 1000:>9.1f}"
        now = statistics.median(w for w, _ in times["now", name])
        floor = statistics.median(w for w, _ in times["now", BARE])
        if name == BARE:
            note = "the floor"
        elif name == ROLL:
            note = f"now {now / floor:.2f}x the floor (goal <= {GOAL_ROLL_RATIO:g}x)"
        elif name == HELP:
            note = f"now {now / floor:.2f}x the floor"
        elif name == PIPE_ONE:
            note = "a script's first reply (no goal)"
        else:
            note = f"goal <= {GOAL_CONSOLE_MS:g} ms"
        print(f"{name:<32}{cells}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
