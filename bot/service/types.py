"""What a front-end hands the service (where, who, which command), a channel's live battle, refusals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.ruleset import RuleSet
from bot.storage import docpatch
from bot.storage.docpatch import Encoded
from bot.storage.records import BattleHead, Snapshots
from bot.views import ErrorView
from engine import limits

#: the longest command text kept in the log (what was typed; the options are checked one by one)
LOG_TEXT_MAX = 1000


@dataclass(frozen=True, slots=True)
class Where:
    guild: str
    channel: str


@dataclass(frozen=True, slots=True)
class Actor:
    """Who runs the command, and what the front-end knows of their rights (COMMANDS.md, GM).

    ``manage_channels``: Manage Channels *in the channel the command came from*; ``manage_guild``:
    Manage Server (``/gm role``); ``roles``: the ids (console: names) of the member's roles;
    ``names``: the names they go by besides the id (Discord: username, display name, server nickname;
    the console's id is the name), which a character owner given as a name (``@はなこ``) matches.
    """

    id: str
    manage_channels: bool = False
    roles: frozenset[str] = frozenset()
    manage_guild: bool = False
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Invocation:
    """A command as the front-end received it: path (``unit add``), raw options, the text as typed."""

    path: str
    options: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    def log_text(self) -> str:
        """The text as the log keeps it: control characters and invalid Unicode shown as U+FFFD."""
        text = self.text or "/" + self.path
        if len(text) > LOG_TEXT_MAX:
            text = text[: LOG_TEXT_MAX - 1] + "…"
        return limits.shown_safely(text)


@dataclass(slots=True)
class Live:
    """A channel's running battle as this process last saw it: the state and the document as stored,
    serialised piece by piece (the next write reuses what did not change), not beside it as objects."""

    head: BattleHead
    binding: RuleSet
    state: Any
    #: the document as stored at ``head.version``: serialised (``docpatch``), or as read from the
    #: database while no action changed the battle here (the first one serialises it)
    stored: Encoded | dict[str, Any]
    #: are there undone actions (that a new action discards)?
    has_redo: bool = False
    #: the battle row's snapshot bookkeeping at ``head.version`` (None: not known, the write reads it)
    snapshots: Snapshots | None = None

    def encoded(self) -> Encoded:
        """The stored document serialised piece by piece (a document as read: serialised now, once)."""
        if not isinstance(self.stored, Encoded):
            self.stored = docpatch.encode(self.stored)
        return self.stored

    def stored_document(self) -> dict[str, Any]:
        """The document as stored (the one read, else read back from its text)."""
        return self.stored.document() if isinstance(self.stored, Encoded) else self.stored

    def document(self) -> dict[str, Any]:
        """The state's document for a read: the one read from the database while it is held, else
        exported, on each call (not kept between commands)."""
        return self.binding.export(self.state) if isinstance(self.stored, Encoded) else self.stored


def encode(binding: RuleSet, state: Any, previous: Encoded | None = None) -> Encoded:
    """``state``'s document serialised (``docpatch.encode``); with the rule set's ``export_parts``,
    only the elements that are not the very ones of ``previous`` are exported and serialised."""
    if binding.export_parts is not None:
        return docpatch.encode(binding.export_parts(state, docpatch.Items), previous)
    return docpatch.encode(binding.export(state), previous)


class Refused(Exception):
    """A command the service refuses: nothing changed, ``view`` says why."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.view = ErrorView(key=key, values=values)
