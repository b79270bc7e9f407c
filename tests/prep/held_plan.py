"""A planner worker that holds a plan of a given size at a gate, for the test that shows a new plan
replaces the one running: it serves slices as the real worker does, but the first slice of a plan of
``runs`` runs says it has started and waits until the test opens the gate, so that plan is running
(in its worker, the event loop free) when it is replaced, however fast this machine plays it. It runs
in the worker process (importable there: a worker gets this process's ``sys.path``)."""

from __future__ import annotations

from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import Any

from bot.rulesets.fort.planner.worker import serve


class _Held:
    """The worker's end of the pipe; ``recv`` holds the first slice of a plan of ``runs`` runs."""

    def __init__(self, connection: Connection, runs: int, started: Event, gate: Event) -> None:
        self.connection = connection
        self.runs = runs
        self.started = started
        self.gate = gate

    def recv(self) -> Any:
        message = self.connection.recv()
        payload = message[3] if message[0] == "slice" else None
        if payload is not None and payload[1].runs == self.runs and not self.started.is_set():
            self.started.set()
            self.gate.wait()
        return message

    def send(self, message: Any) -> None:
        self.connection.send(message)

    def close(self) -> None:
        self.connection.close()


def held(runs: int, started: Event, gate: Event, connection: Connection) -> None:
    serve(_Held(connection, runs, started, gate))  # type: ignore[arg-type]
