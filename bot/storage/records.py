"""What the storage reads and writes, as values: a battle's head and a battle as read, a log row as
read and as written, a battle row's snapshot bookkeeping, the rights a GM check read, a server's
settings; and the two ways a write is refused (``VersionConflict``, ``ChannelBusy``).

Nothing here knows a database: the service decides on these values, the statements
(``bot.storage.battles`` ...) read and write them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


class VersionConflict(Exception):
    """The battle changed since it was read (or is no longer its channel's current one): nothing was
    written."""


class ChannelBusy(Exception):
    """A battle is already running in the channel."""


@dataclass(frozen=True, slots=True)
class BattleHead:
    id: int
    ruleset: str
    status: str
    version: int
    started_by: str


@dataclass(frozen=True, slots=True)
class Snapshots:
    """What a battle row says of its state: the seq it is of (``state_seq``), and the bytes of patches
    logged since the last snapshot. A caller that read them at a version passes them to
    ``plan_write`` (which then needs no read), and gets the new ones back."""

    state_seq: int
    pending_bytes: int


@dataclass(frozen=True, slots=True)
class Written:
    version: int
    snapshots: Snapshots


#: a battle as read (``read_latest``): its document, the row's snapshot bookkeeping, and whether there
#: are undone actions (that a new action discards)
Loaded = tuple[dict[str, Any], Snapshots, bool]


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str
    status: str
    actor: str
    command_text: str
    #: the command as its rule set stored it (None: not read, as by the log and undo, which show the text)
    command: dict[str, Any] | None
    events: list[dict[str, Any]]
    #: the action's patch (read for undo and redo only; None elsewhere, and for notes)
    delta: dict[str, Any] | None
    created_at: datetime | None


@dataclass(frozen=True, slots=True)
class NewRow:
    kind: str
    actor: str
    command_text: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    #: the patch the action made (``docpatch.diff``); None for notes and a battle's first action
    delta: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Grants:
    """What a GM check read of the rights of ``user`` on a battle (``read_grants``): the server's GM
    role then (None: none) and whether ``user`` was a co-GM. A write decided on grants read earlier
    carries them (``WritePlan.grants``), and holds only while they are still so."""

    guild: str
    user: str
    role: str | None
    co_gm: bool


@dataclass(frozen=True, slots=True)
class WritePlan:
    """One action's write, decided before any statement runs (``bot.storage.plans.plan_write``): the
    battle row's update (its version check included), the undone rows to discard, and the log row."""

    head: BattleHead
    #: the battle row's UPDATE parameters (``p_state`` present: the whole state is stored too)
    update: dict[str, Any]
    discard_redo: bool
    #: the log row's values
    row: dict[str, Any]
    written: Written
    #: the rights the action was decided on, when they were read before its transaction
    grants: Grants | None = None


DEFAULT_LANGUAGE = "ja"


@dataclass(frozen=True, slots=True)
class Settings:
    guild_id: str
    language: str = DEFAULT_LANGUAGE
    gm_role_id: str | None = None


@dataclass(frozen=True, slots=True)
class KeptSecret:
    """A secret roll as kept: its number in the channel, its roller, its result text, when."""

    number: int
    roller: str
    text: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Kept:
    """A secret roll just kept, and the oldest ones dropped to keep the channel's at the cap."""

    secret: KeptSecret
    dropped: tuple[KeptSecret, ...] = ()


@dataclass(frozen=True, slots=True)
class RegisteredSheet:
    """A sheet a user registered on a server (``/palette register``): the character's name, the sheet's
    JSON as the reader keeps it, its own chat palette (None: the one generated from the sheet), its
    source, when."""

    name: str
    sheet: str
    palette: str | None
    source: str
    updated_at: datetime
