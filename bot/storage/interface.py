"""The storage's one interface, as the service sees it (the way Red-DiscordBot keeps its storage behind
``BaseDriver``): ``Storage``, and the open transaction of a job, ``Transaction``. One implementation
per backend family (``bot.storage.sqlite``, ``bot.storage.postgresql``, on ``bot.storage.sql``); no
caller knows which database, driver or thread it is talking to.

Every method is awaited and runs its statements off the event loop, on a thread of the storage's
own: the reads by the storage reader, each in a transaction of its own; the writes by the storage
writer, an action's write plan in a batch (``store``, group commit), the rare commands' writes as
*jobs* (``run``) in a write transaction under their channel's lock, run again after a passing failure.
What is read and written are the values of ``bot.storage.records``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from prometheus_client.registry import Collector

from bot.storage.docpatch import Encoded
from bot.storage.records import (
    BattleHead,
    EventRow,
    Grants,
    Kept,
    KeptSecret,
    Loaded,
    NewRow,
    RegisteredSheet,
    Settings,
    Snapshots,
    WritePlan,
    Written,
)

T = TypeVar("T")


@dataclass(slots=True)
class Counts:
    """What the storage did, for tests and benchmarks. Each count is kept by one thread: the writer's
    (``stored`` ... ``retries``), the reader's (``reads``, ``read_retries``), the event loop's
    (``job_retries``)."""

    #: plans stored, and plans that did not hold (nothing of them written)
    stored: int = 0
    returned: int = 0
    #: batches written, and batches run again after a passing failure (or on a new connection)
    batches: int = 0
    retries: int = 0
    #: reads by the storage reader, and reads run again on a new connection
    reads: int = 0
    read_retries: int = 0
    #: jobs run again after a passing failure (or on a new connection)
    job_retries: int = 0


class Reads(Protocol):
    """What a command reads before it decides: by the storage reader (``Storage``), or in a job's own
    transaction (``Transaction``), where what it reads is what it writes on."""

    async def latest(
        self, guild: str, channel: str, held: BattleHead | None = None
    ) -> tuple[BattleHead | None, Loaded | None]:
        """The channel's latest battle (running, or the last one ended; None: it has none) and, unless
        it is ``held`` (the head of a battle the caller holds, at the same version), the battle as read:
        its head and state from one committed version."""
        ...

    async def snapshots(self, battle_id: int) -> Snapshots: ...

    async def grants(self, guild: str, battle_id: int, user: str) -> Grants:
        """The server's GM role and whether ``user`` is a co-GM of the battle, in one read."""
        ...

    async def co_gms(self, battle_id: int) -> tuple[str, ...]:
        """The battle's co-GMs, in the order they were added."""
        ...

    async def log(self, battle_id: int, last: int) -> list[EventRow]:
        """The last ``last`` rows of the battle's log (actions and notes, undone and discarded ones
        too), oldest first, without their patches."""
        ...


class Transaction(Reads, Protocol):
    """A job's write transaction (``Storage.run``), which holds its channel's lock: nothing written
    is seen by anyone before the job returns and its transaction commits."""

    async def create_battle(
        self, *, guild: str, channel: str, ruleset: str, started_by: str,
        state: dict[str, Any] | Encoded, status: str, row: NewRow,
    ) -> int:  # fmt: skip
        """A new battle with its first log row; its id. ``ChannelBusy`` if one runs in the channel."""
        ...

    async def write(self, plan: WritePlan) -> Written:
        """Store ``plan``; ``VersionConflict`` (nothing of it written) if it does not hold."""
        ...

    async def live_actions(self, battle_id: int, limit: int) -> list[EventRow]:
        """The last ``limit`` live actions, newest first, with their patches."""
        ...

    async def undone_actions(self, battle_id: int, limit: int) -> list[EventRow]:
        """The undone actions that redo would restore, oldest first, with their patches."""
        ...

    async def has_undone(self, battle_id: int) -> bool: ...

    async def state_at(self, battle_id: int, seq: int) -> dict[str, Any]:
        """The state after action ``seq``, replayed from the last snapshot before it."""
        ...

    async def set_event_status(self, battle_id: int, seqs: Sequence[int], status: str) -> None: ...

    async def add_co_gm(self, battle_id: int, user: str, added_by: str) -> bool:
        """Make ``user`` a co-GM of the battle; False if they already were."""
        ...

    async def remove_co_gm(self, battle_id: int, user: str) -> bool:
        """``user`` is no longer a co-GM of the battle; False if they were not one."""
        ...

    async def set_language(self, guild: str, language: str) -> None: ...

    async def set_gm_role(self, guild: str, role: str | None) -> None:
        """The server's GM role (None: no GM role)."""
        ...

    async def keep_secret(self, guild: str, channel: str, roller: str, text: str, now: datetime) -> Kept:
        """Keep a secret roll with its channel (30 days, at most 1,000: the oldest dropped)."""
        ...

    async def set_chat_dice(self, guild: str, channel: str, on: bool) -> None:
        """Chat dice on or off in the channel (``/settings chat_dice:``)."""
        ...

    async def keep_user_sheet(self, guild: str, user: str, key: str, sheet: RegisteredSheet) -> bool | None:
        """Keep the user's sheet under the folded name ``key``: True if it replaced one, False if new,
        None (nothing written) if the user has the most sheets of other names already."""
        ...

    async def forget_user_sheet(self, guild: str, user: str, key: str) -> bool:
        """Forget the user's sheet of the folded name ``key``; False if there was none."""
        ...

    async def set_status_message(self, battle_id: int, message_id: int | None, version: int | None) -> None:
        """Keep (or, with None, forget) the battle's status message id and the version it shows."""
        ...


#: a job: what it does in its transaction, and its answer
Job = Callable[[Transaction], Awaitable[T]]


class Storage(Reads, Protocol):
    counts: Counts

    async def live_event_lists(
        self, battle_id: int, before_seq: int, limit: int
    ) -> list[tuple[int, list[dict[str, Any]]]]:
        """(seq, events) of the last ``limit`` live actions before ``before_seq``, newest first."""
        ...

    async def live_events(self, battle_id: int) -> list[dict[str, Any]]:
        """The events of every live action of the battle, oldest first."""
        ...

    async def settings(self, guild: str) -> Settings: ...

    async def secrets(self, guild: str, channel: str, now: datetime) -> list[KeptSecret]:
        """The channel's secret rolls kept as of ``now``, oldest first."""
        ...

    async def secret(self, guild: str, channel: str, number: int, now: datetime) -> KeptSecret | None:
        """The channel's secret roll ``number``, if it is still kept."""
        ...

    async def chat_dice(self, guild: str, channel: str) -> bool:
        """Are the channel's chat messages that begin with a dice command rolled?"""
        ...

    async def user_sheets(self, guild: str, user: str) -> list[RegisteredSheet]:
        """The sheets the user registered on the server (``/palette register``), the latest first."""
        ...

    async def status_message(self, battle_id: int) -> int | None:
        """The id of the message that shows the battle's status, if one was stored."""
        ...

    async def stale_status_messages(self) -> list[tuple[str, str]]:
        """(guild, channel) of each running battle whose status message shows an older version."""
        ...

    async def store(self, plan: WritePlan, channel: tuple[str, str]) -> bool:
        """Store ``plan`` (in the next batch): True once committed, False if it did not hold (nothing
        written). Raises what the database raised; a failure during the COMMIT is never run again."""
        ...

    async def run(
        self, job: Job[T], *, channel: tuple[str, str] | None = None, reset: Callable[[], None] | None = None
    ) -> T:
        """``job`` in a write transaction of its own, under ``channel``'s lock (across processes) if
        given: what it returned, after the COMMIT, or what it raised, with nothing of it written. Run
        again after a passing failure (a deadlock, a busy database, the kept connection found dead),
        ``reset`` first undoing its effects outside the database (scripted dice)."""
        ...

    async def ping(self) -> None:
        """One trivial read: returns when the database answers, else raises what it raised."""
        ...

    def collectors(self) -> Sequence[Collector]:
        """What it measures, for ``/metrics`` (``bot.metrics``): its writer's queue and commit time."""
        ...

    async def close(self) -> None:
        """Close the storage's connections and end its threads."""
        ...
