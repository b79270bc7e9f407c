"""The prep table's tests: its server run as ``toride prep`` (a subprocess), Debian's chromium driven by
Playwright. Chromium comes from ``TORIDE_CHROMIUM`` (``.ci/run`` sets it) or ``/usr/bin/chromium``; the
browser tests are skipped only when there is none, or Playwright is not installed.

A server's start may take a deadline derived from a warm start of ``toride prep`` measured in this
test process (tests/warm_start.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# the deadlines of a process's start (tests/warm_start.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from warm_start import Deadline, deadline, measuring

ROOT = Path(__file__).resolve().parents[2]


CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium_path() -> str | None:
    path = os.environ.get("TORIDE_CHROMIUM") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


def start_prep(folder: Path, args: tuple[str, ...], allowed: Deadline) -> tuple[subprocess.Popen[str], str]:
    """``toride prep ARGS --port 0`` in ``folder``, and the URL its first line gives (within
    ``allowed``; else it is killed and the test fails saying what was measured)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "prep", *args, "--port", "0"],
        cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    stdout = process.stdout
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(allowed.seconds)
    if not lines or "http://" not in lines[0]:
        process.kill()
        _, error = process.communicate()
        raise AssertionError(f"{allowed.missed()}: {lines[:1]} {error}")
    line = lines[0]
    url = line[line.index("http://") :].split()[0]
    assert url.startswith("http://127.0.0.1:"), line
    return process, url


def stop_prep(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _one_start() -> float:
    """One start of ``toride prep`` to its address's line (seconds), and its stop."""
    with tempfile.TemporaryDirectory(prefix="toride-warm-prep-") as folder:
        began = time.monotonic()
        process, _ = start_prep(Path(folder), (), measuring("toride prep"))
        took = time.monotonic() - began
        stop_prep(process)
    return took


def prep_deadline() -> Deadline:
    """How long a start of ``toride prep`` may take (its warm start measured once in this process)."""
    return deadline("toride prep", _one_start)


@pytest.fixture
def prep_server(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Starts ``toride prep [FILE] --port 0 [--lang]`` in ``tmp_path``; gives its URL."""
    started: list[subprocess.Popen[str]] = []
    allowed = prep_deadline()

    def start(*args: str) -> str:
        process, url = start_prep(tmp_path, args, allowed)
        started.append(process)
        return url

    yield start
    for process in started:
        stop_prep(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one module (Playwright's loop is stopped before another module's asyncio tests run)."""
    path = chromium_path()
    if path is None:
        pytest.skip("no chromium (apt-get install chromium, or TORIDE_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
