"""The prep table's tests: its server run as ``toride prep`` (a subprocess), Debian's chromium driven by
Playwright. Chromium comes from ``TORIDE_CHROMIUM`` (``.ci/run`` sets it) or ``/usr/bin/chromium``; the
browser tests are skipped only when there is none, or Playwright is not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium_path() -> str | None:
    path = os.environ.get("TORIDE_CHROMIUM") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


@pytest.fixture
def prep_server(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Starts ``toride prep [FILE] --port 0 [--lang]`` in ``tmp_path``; gives its URL."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> str:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "prep", *args, "--port", "0"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        started.append(process)
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line[line.index("http://") :].split()[0]
        assert url.startswith("http://127.0.0.1:"), line
        return url

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
