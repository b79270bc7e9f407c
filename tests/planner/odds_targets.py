"""Planner workers that misbehave, for the runner's tests: run in the worker process (importable there:
a worker gets this process's ``sys.path``)."""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from pathlib import Path


def sleepy(pidfile: str, connection: Connection) -> None:
    """Never answers (a plan far too long): says who it is, then sleeps."""
    import os

    Path(pidfile).write_text(str(os.getpid()), encoding="utf-8")
    time.sleep(3600)


def broken(connection: Connection) -> None:
    """Dies without an answer (as a worker killed for its memory would)."""
    raise SystemExit(3)
