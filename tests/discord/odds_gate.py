"""A planner worker held at a gate, for the tests that show a long plan delays nobody: it says it has
started, waits until the test opens the gate, then serves slices as the real worker does. It runs in
the worker process (importable there: a worker gets this process's ``sys.path``)."""

from __future__ import annotations

from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event

from bot.rulesets.fort.planner.worker import serve


def gated(started: Event, gate: Event, connection: Connection) -> None:
    started.set()
    gate.wait()
    serve(connection)
