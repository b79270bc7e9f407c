"""What runs in a planner worker process: slices of plans in, their tallies out (``serve``).

It imports only the engine, so a worker starts fast (and the forkserver preloads it). The runner
(``bot.rulesets.fort.planner.runner``) sends ``("slice", key, k, payload)`` for slice ``k`` of plan
``key``, where ``payload`` is ``(document, request)`` the first time this worker sees that plan and None
after (a worker keeps the last ``KNOWN`` plans; the runner mirrors which, ``Known``); ``("stop",)`` ends
it.
Each slice is answered on ``connection`` as ``("ok", facts, tally)``, ``("refused", key, values)`` for
a refusal of the rules, or ``("failed", text)`` for a bug, which the service logs.
"""

from __future__ import annotations

import traceback
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

from engine.errors import EngineError
from engine.fort.export import import_state
from engine.fort.planner import Facts, PlanRequest, facts, run_slice
from engine.fort.state import FortState

#: how many plans a worker keeps (their battles imported), the least recently used dropped
KNOWN = 16


class Known:
    """Which plans a worker keeps: the same steps on both sides of the pipe give the same set."""

    def __init__(self) -> None:
        self.keys: OrderedDict[int, None] = OrderedDict()

    def touch(self, key: int) -> bool:
        """Marks ``key`` used; whether it was kept already (else it is now, the oldest dropped)."""
        if key in self.keys:
            self.keys.move_to_end(key)
            return True
        self.keys[key] = None
        if len(self.keys) > KNOWN:
            self.keys.popitem(last=False)
        return False


def serve(connection: Connection) -> None:
    """Answers slices until told to stop or the service's end of the pipe closes."""
    known = Known()
    plans: dict[int, tuple[FortState, PlanRequest, Facts] | None] = {}
    try:
        while True:
            try:
                message = connection.recv()
            except EOFError:
                return
            if message[0] == "stop":
                return
            _, key, k, payload = message
            if not known.touch(key):
                plans[key] = None
                for dropped in set(plans) - set(known.keys):
                    del plans[dropped]
            connection.send(_slice(plans, key, k, payload))
    finally:
        connection.close()


def _slice(
    plans: dict[int, tuple[FortState, PlanRequest, Facts] | None], key: int, k: int, payload: Any
) -> tuple[Any, ...]:
    try:
        plan = plans.get(key)
        if plan is None:
            document, request = payload
            state = import_state(document)
            plan = plans[key] = (state, request, facts(state, request))
        state, request, known = plan
        return ("ok", known, run_slice(state, request, k))
    except EngineError as error:
        return ("refused", error.key, dict(error.values))
    except Exception:
        return ("failed", traceback.format_exc())
