"""What runs in the planner's worker process: a battle document and a request in, the answer out.

It imports only the engine, so a worker starts fast (and the forkserver preloads it). The answer is
sent on ``connection`` as ``("ok", OddsResult)``, ``("refused", key, values)`` for a refusal of the
rules, or ``("failed", text)`` for a bug, which the service logs.
"""

from __future__ import annotations

import traceback
from multiprocessing.connection import Connection
from typing import Any

from engine.errors import EngineError
from engine.fort.export import import_state
from engine.fort.planner import PlanRequest, plan


def work(connection: Connection, document: dict[str, Any], request: PlanRequest) -> None:
    try:
        result = plan(import_state(document), request)
    except EngineError as error:
        connection.send(("refused", error.key, dict(error.values)))
    except Exception:
        connection.send(("failed", traceback.format_exc()))
    else:
        connection.send(("ok", result))
    finally:
        connection.close()
