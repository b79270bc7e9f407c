"""How soon a shard tries the gateway again after it failed (issue 39): a capped backoff with jitter,
and a log line of words saying when.

discord.py's own (``discord.backoff.ExponentialBackoff``, one per shard, used by
``Shard._handle_disconnect``) waits up to 2^n s after the n-th failure in a row, up to 1024 s: six
refused upgrades in 9 s put the next attempt a minute away, and the bot stayed away long after the
gateway answered again. ``ReconnectBackoff`` waits min(``CAP``, ``BASE`` · 2^(n-1)) s plus up to
``JITTER`` s at random (so that shards and processes do not all come back in the same instant);
READY or RESUMED starts it over (``TorideBot.on_shard_ready``). ``ReconnectLog`` turns discord.py's
log record of each wait (an error with the traceback of the failed attempt) into one warning:
which shard, what failed, when it tries next.
"""

from __future__ import annotations

import logging
import random
from typing import Literal

from discord.backoff import ExponentialBackoff

#: the first wait (seconds), doubled at each failure in a row up to ``CAP``, plus up to ``JITTER``
BASE = 0.5
CAP = 2.0
JITTER = 1.0


class ReconnectBackoff(ExponentialBackoff[Literal[False]]):
    """A shard's waits before it tries the gateway again (``delay``), started over by ``reset``."""

    def __init__(self, rand: random.Random | None = None) -> None:
        super().__init__()
        self._random = rand or random.Random()
        #: failures in a row since the shard was last connected
        self.failures = 0

    def delay(self) -> float:
        self.failures += 1
        wait: float = min(CAP, BASE * 2 ** (self.failures - 1)) + self._random.uniform(0, JITTER)
        return wait

    def reset(self) -> None:
        self.failures = 0


#: discord.py's messages of a shard's failed connection (``discord.shard``)
_RECONNECT = "Attempting a reconnect for shard ID %s in %.2fs"
_FIRST_CONNECT = "Failed to connect for shard_id: %s. Retrying..."
#: how long discord.py waits after a shard's first connection failed (``launch_shard``)
FIRST_CONNECT_RETRY = 5.0


def _reason(error: BaseException | None) -> str:
    """An error in one line: its type and the first line of its message."""
    if error is None:
        return "no reason given"
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class ReconnectLog(logging.Filter):
    """``discord.shard``'s records of a failed connection as one warning of words, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg not in (_RECONNECT, _FIRST_CONNECT) or not isinstance(record.args, tuple):
            return True
        error = record.exc_info[1] if record.exc_info else None
        shard = record.args[0]
        wait = record.args[1] if record.msg == _RECONNECT else FIRST_CONNECT_RETRY
        record.msg = "shard %s: the gateway did not answer (%s); trying again in %.1f s"
        record.args = (shard, _reason(error), wait)
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install_log() -> None:
    """``ReconnectLog`` on discord.py's shard logger (once)."""
    shard_log = logging.getLogger("discord.shard")
    if not any(isinstance(f, ReconnectLog) for f in shard_log.filters):
        shard_log.addFilter(ReconnectLog())
