"""``toride console`` for the tests: in this process (``console``, ``console_bytes``), or as the real
program (``console_process``).

In process, ``console`` runs the program's own entry point, ``bot.cli.main(["console", "--db", DB,
*ARGS])`` (its argument parser, ``run_console``, the line loop and the session), with the script as
standard input (a pipe, not a terminal: read line by line, as UTF-8 bytes), standard output and error
caught as the program's, in ``cwd`` (default: the database's folder) and without
``TORIDE_DATABASE_URL``, as the program would be run. What else the program would write there is
written too: what it logs at WARNING or above (Python's last-resort handler, as the program configures
no logging), the warnings Python shows by default, an uncaught exception's traceback (exit status 1)
and ``SystemExit``'s status (argparse's errors, exit status 2). The output is decoded as
``subprocess.run(text=True)`` decodes the program's, so a test reads the same ``CompletedProcess``
either way.

``tests/console/test_console_process.py`` runs the real program on the same scripts and checks that
both give the same exit status, output and error, byte for byte; the tests that need the program
itself (a terminal, a pipe closed by its reader, SIGKILL, a file size limit) start it as before.
"""

from __future__ import annotations

import asyncio
import io
import locale
import logging
import os
import pty
import select
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Iterator, Sequence
from contextlib import chdir, contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

# the deadlines of a process's start (tests/warm_start.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from warm_start import MEASURE_LIMIT, Deadline, deadline, measuring

ROOT = Path(__file__).resolve().parents[2]
#: the warnings Python's default filters hide (the program shows the others on its standard error)
_HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
#: one console at a time in this process: standard input, output, the folder and the environment are
#: the process's own
_ONE_AT_A_TIME = threading.Lock()


def console_process(
    db: Path, script: str, *args: str, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``toride console --db DB ARGS`` as a process, with ``script`` on stdin (a pipe: line by line)."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--db", str(db), *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd or db.parent,
        env=program_env(),
        check=False,
    )


def program_env() -> dict[str, str]:
    """The program's environment: this one, with this checkout importable and no database URL."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORIDE_DATABASE_URL", None)
    return env


def console(
    db: Path, script: str, *args: str, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``toride console --db DB ARGS`` in this process, with ``script`` on stdin; what
    ``console_process`` would give. (``timeout`` is the program's: a session in this process is not
    stopped, a test that hangs is.)"""
    del timeout
    done = console_bytes(db, script.encode(locale.getpreferredencoding(False)), *args, cwd=cwd)
    return subprocess.CompletedProcess(done.args, done.returncode, _text(done.stdout), _text(done.stderr))


def console_bytes(
    db: Path, script: bytes, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``toride console --db DB ARGS`` in this process, with the bytes ``script`` on stdin; its exit
    status, and its standard output and error as bytes."""
    argv = ["console", "--db", str(db), *args]
    code, out, err = run_in_process(argv, script, cwd or db.parent)
    return subprocess.CompletedProcess([sys.executable, "-m", "bot.cli", *argv], code, out, err)


def run_in_process(argv: Sequence[str], stdin: bytes, cwd: Path) -> tuple[int, bytes, bytes]:
    """``toride ARGV`` through ``bot.cli.main`` in this process: exit status, standard output, error.

    In a thread of its own when this thread runs an event loop (an asyncio test): the program runs
    its own loop (``asyncio.run``), as it does in its process."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run(argv, stdin, cwd)
    result: list[tuple[int, bytes, bytes]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(_run(argv, stdin, cwd))
        except BaseException as error:  # pragma: no cover - shown in the test's thread
            failed.append(error)

    thread = threading.Thread(target=run, name="toride-console")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return result[0]


def _run(argv: Sequence[str], stdin: bytes, cwd: Path) -> tuple[int, bytes, bytes]:
    from bot.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    # the program's standard streams on a pipe: its locale's encoding (and error handler) for input and
    # output, backslashreplace for errors; no newline translation on POSIX
    encoding, errors = _stdio()
    stdout = io.TextIOWrapper(out, encoding=encoding, errors=errors, newline="\n", write_through=True)
    stderr = io.TextIOWrapper(err, encoding=encoding, errors="backslashreplace", newline="\n")
    stdin_file = io.TextIOWrapper(io.BytesIO(stdin), encoding=encoding, errors=errors, newline="\n")
    with _ONE_AT_A_TIME, chdir(cwd), _without("TORIDE_DATABASE_URL"), _stdin(stdin_file):
        with redirect_stdout(stdout), redirect_stderr(stderr), _last_resort(stderr), _shown_warnings():
            try:
                code = main(list(argv))
            except SystemExit as done:
                code = _exit_status(done.code, stderr)
            except BaseException:  # what the interpreter does with an exception nobody caught
                traceback.print_exc(file=stderr)
                code = 1
        stdout.flush()
        stderr.flush()
    return code, out.getvalue(), err.getvalue()


def _stdio() -> tuple[str, str]:
    """The encoding and error handler of the program's standard input and output, as Python chooses
    them in the program's environment (this one): ``PYTHONIOENCODING``, else the locale's encoding,
    with surrogateescape in UTF-8 mode and the C, POSIX and C.UTF-8 locales."""
    given, _, handler = os.environ.get("PYTHONIOENCODING", "").partition(":")
    encoding = given or locale.getpreferredencoding(False)
    if handler:
        return encoding, handler
    ctype = locale.setlocale(locale.LC_CTYPE)
    lenient = sys.flags.utf8_mode or ctype in ("C", "POSIX", "C.UTF-8", "C.utf8", "UTF-8")
    return encoding, "surrogateescape" if lenient else "strict"


def _exit_status(code: object, stderr: io.TextIOWrapper) -> int:
    """What the interpreter makes of ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=stderr)
    return 1


def _text(data: bytes) -> str:
    """What ``subprocess.run(text=True)`` reads from a pipe: the locale's encoding, universal newlines."""
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


@contextmanager
def _without(name: str) -> Iterator[None]:
    saved = os.environ.pop(name, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[name] = saved


@contextmanager
def _stdin(stream: io.TextIOWrapper) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = stream
    try:
        yield
    finally:
        sys.stdin = saved


@contextmanager
def _last_resort(stream: io.TextIOWrapper) -> Iterator[None]:
    """A record at WARNING or above goes to standard error as the program's last-resort handler writes
    it (the message, and its traceback if it has one); pytest's own handlers still catch it."""
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


@contextmanager
def _shown_warnings() -> Iterator[None]:
    """A warning Python shows by default is written to standard error, as the program would: once for
    each place it comes from."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    shown = set()
    for w in caught:
        place = (str(w.message), w.category, w.filename, w.lineno)
        if not issubclass(w.category, _HIDDEN_WARNINGS) and place not in shown:
            shown.add(place)
            sys.stderr.write(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line))


# --- the program in a terminal ----------------------------------------------------------------------


def read_until(fd: int, needle: bytes, allowed: Deadline) -> bytes:
    """What a terminal's ``fd`` shows until ``needle`` (read within ``allowed``, else the test fails
    saying what was measured)."""
    seen = b""
    deadline_at = time.monotonic() + allowed.seconds
    while needle not in seen and time.monotonic() < deadline_at:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    if needle not in seen:
        raise AssertionError(f"{allowed.missed(f'showing {needle!r}')}; it showed {seen!r}")
    return seen


def in_terminal(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """``argv`` with a terminal of its own (a pty) as standard input, output and error; the process
    and the terminal's end to read and write."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True
    )
    os.close(slave)
    return process, master


def terminal_deadline() -> Deadline:
    """How long ``toride console`` in a terminal may take to show its prompt, a reply, its goodbye:
    derived from its warm start to the prompt, measured once in this test process."""
    return deadline("toride console in a terminal", _one_terminal_start)


def _one_terminal_start() -> float:
    with tempfile.TemporaryDirectory(prefix="toride-warm-console-") as folder:
        env = {**program_env(), "HOME": folder, "TERM": "xterm"}
        argv = [sys.executable, "-m", "bot.cli", "console", "--db", str(Path(folder) / "t.db")]
        began = time.monotonic()
        process, master = in_terminal(argv, Path(folder), env)
        try:
            read_until(master, b"gm@console>", measuring("toride console in a terminal"))
            took = time.monotonic() - began
            os.write(master, b"/quit\r")
            process.wait(timeout=MEASURE_LIMIT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            os.close(master)
    return took
