"""A planner worker held at a gate, for the tests that show a long plan delays nobody: it says it has
started, waits until the test opens the gate, then plans as the real worker does. It runs in the
worker process (importable there: a worker gets this process's ``sys.path``)."""

from __future__ import annotations

from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import Any

from bot.odds_worker import work
from engine.fort.planner import PlanRequest


def gated(
    started: Event, gate: Event, connection: Connection, document: dict[str, Any], request: PlanRequest
) -> None:
    started.set()
    gate.wait()
    work(connection, document, request)
