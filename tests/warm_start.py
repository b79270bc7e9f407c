"""Deadlines for a process's start, derived from a warm start of the same process measured on this
machine, not a fixed number of seconds.

A test that waits for a process to be ready (``toride run``'s health endpoint, ``toride prep``'s
address, ``toride console``'s prompt in a terminal) allows it ``MULTIPLE`` times that process's warm
start, measured once in this test process (a start after the collection of the tests has brought the
code into the system's caches, as it is for the tests' own starts), and never less than ``FLOOR``
seconds. A machine that is
loaded is as slow for the measurement as for the test, so the deadline follows the machine; a start
that misses it says what was measured (``Deadline.missed``).

A helper module of the tests of several folders (they put this folder on ``sys.path``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

#: a start may take this many warm starts (a loaded machine, a test's process doing more at its start)
MULTIPLE = 10
#: and at least this long: a warm start measured on an idle machine leaves little room for a stall
FLOOR = 10.0
#: a measuring start longer than this is a process that does not start, not a slow machine
MEASURE_LIMIT = 300.0

#: seconds of each process's warm start, measured in this test process
_measured: dict[str, float] = {}


@dataclass(frozen=True)
class Deadline:
    #: the process, as a failure names it (``toride run``)
    what: str
    #: its warm start, measured (seconds); None: this is a start that measures it
    warm: float | None

    @property
    def seconds(self) -> float:
        return MEASURE_LIMIT if self.warm is None else max(FLOOR, MULTIPLE * self.warm)

    def missed(self, waited: str = "ready") -> str:
        """What a failure says: the deadline, and what it was derived from."""
        if self.warm is None:
            return f"{self.what} was not {waited} within {self.seconds:g} s (a start measuring its warm one)"
        return (
            f"{self.what} was not {waited} within {self.seconds:.1f} s ({MULTIPLE} × its warm start "
            f"measured in this test process, {self.warm:.2f} s; at least {FLOOR:g} s)"
        )


def measuring(what: str) -> Deadline:
    """The deadline of a start that measures ``what``'s warm start (``MEASURE_LIMIT``)."""
    return Deadline(what, None)


def deadline(what: str, start: Callable[[], float]) -> Deadline:
    """The deadline for a start of ``what``; ``start()`` starts it once, waits until it is ready (at
    most ``measuring(what)``'s deadline), stops it and answers the seconds it took to be ready."""
    if what not in _measured:
        _measured[what] = start()
    return Deadline(what, _measured[what])


async def deadline_async(what: str, start: Callable[[], Awaitable[float]]) -> Deadline:
    """``deadline`` for a process that an asyncio test starts."""
    if what not in _measured:
        _measured[what] = await start()
    return Deadline(what, _measured[what])
