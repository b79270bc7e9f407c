"""Reply views: what the service answers, as data. Renderers (console text, Discord embeds) read them.

No view holds a sentence: text comes from the catalogues, keyed by ``key`` / event ``kind``. A rule set's
own views (``/unit list``'s roster ...) are ``RulesetView``s of its package, which its renderers read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.ruleset import Event

#: the mark among a logged command's events that its text names what is secret (never shown itself)
SECRET_TEXT = "service.secret_text"


@dataclass(frozen=True, slots=True)
class View:
    #: only the invoker should see it (Discord: ephemeral)
    ephemeral: bool = False
    #: what only the invoker may read beside it (a secret of the GM's or a hidden character's owner):
    #: Discord sends it as an ephemeral follow-up, the console marks it (bot.service.audience)
    private: View | None = None

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class RulesetView(View):
    """A view only its rule set knows (``ruleset``): its text, embeds and pictures are the rule set's
    (``RuleSet.text.views``, its presenter's ``views``, ``Pictures.view_picture``)."""

    ruleset: str = ""


@dataclass(frozen=True, slots=True)
class ErrorView(View):
    """A refused command: nothing changed. ``key``/``values`` say what was wrong."""

    key: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    ephemeral: bool = True

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Summary:
    """A round summary (``kind='round'``) or the final one (``'final'``): what happened, with dice."""

    kind: str
    round: int | None
    events: tuple[Event, ...]
    document: dict[str, Any]
    #: the final summary only: every event of the battle that stands (not undone), oldest first; the
    #: fort HP chart is drawn from it
    history: tuple[Event, ...] = ()
    #: the summary as its rule set reports it (``RuleSet.report``: the fort's ``RoundReport``), or None
    report: Any = None
    #: how many of the reply's own events come before it (it is shown right after them); None: after all
    after: int | None = None


@dataclass(frozen=True, slots=True)
class EventsView(View):
    """A command that changed the battle: its events (with dice), and summaries it closed."""

    ruleset: str = ""
    command: str = ""
    actor: str = ""
    seq: int = 0
    events: tuple[Event, ...] = ()
    summaries: tuple[Summary, ...] = ()
    ended: bool = False


@dataclass(frozen=True, slots=True)
class StatusView(View):
    ruleset: str = ""
    document: dict[str, Any] = field(default_factory=dict)
    gms: tuple[str, ...] = ()
    #: the battle is over (the channel's last battle, still shown)
    ended: bool = False
    #: the stored battle it shows (for front-ends that keep a note with it: the status message)
    battle_id: int | None = None
    #: the stored battle's version: a picture of it is redrawn only when the battle changed
    version: int | None = None


@dataclass(frozen=True, slots=True)
class MapView(View):
    """The battlefield as a picture (``/fort map``): the status it shows, and the PNG's file name."""

    status: StatusView = field(default_factory=StatusView)
    filename: str = ""


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    actor: str
    text: str
    kind: str
    status: str
    events: tuple[Event, ...]
    at: datetime | None = None
    #: the command's text and actor are not for this reader (it carried a secret): shown as such
    redacted: bool = False


@dataclass(frozen=True, slots=True)
class LogView(View):
    entries: tuple[LogEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class ExportView(View):
    """The battle's document; with ``format`` (``ccfolia``), that format's ``text`` instead."""

    ruleset: str = ""
    document: dict[str, Any] = field(default_factory=dict)
    filename: str = ""
    text: str | None = None
    format: str = "toride"


@dataclass(frozen=True, slots=True)
class UndoView(View):
    """Undo (``redo=False``) or redo: which actions were taken back or put back."""

    redo: bool = False
    entries: tuple[LogEntry, ...] = ()
    document: dict[str, Any] = field(default_factory=dict)
    ruleset: str = ""
    #: the steps asked for (more than ``entries`` when fewer actions could be taken or put back)
    requested: int = 0


@dataclass(frozen=True, slots=True)
class RollView(View):
    actor: str = ""
    command: str = ""
    text: str = ""
    secret: bool = False
    comment: str = ""
    rands: tuple[tuple[int, int], ...] = ()
    #: a secret roll as kept with the channel: its number there (``/roll reveal number:``)
    number: int | None = None
    #: the numbers of the channel's oldest secret rolls dropped to keep it at 1,000
    dropped: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Offer:
    """A command a reply offers to run (Discord: a button anyone may press, the command's own rights
    deciding; the console: the line to type). ``key`` and ``values``: its label's sentence."""

    path: str
    options: Mapping[str, Any]
    key: str
    values: Mapping[str, Any] = field(default_factory=dict)
    #: the console's line for it (``{offer}`` and ``{command}``)
    console: str = "palette.offer_console"


@dataclass(frozen=True, slots=True)
class Awaited:
    """What a battle waits for from one user (an answer to an attack): asked again in the channel
    when it stays unanswered (``bot.discord.reminders``). ``key`` tells one wait from another;
    ``owner`` is whom it waits for (a user id; None: the GM); ``key``/``values`` its sentence."""

    key: str
    owner: str | None
    text: str
    values: Mapping[str, Any]
    offers: tuple[Offer, ...] = ()


@dataclass(frozen=True, slots=True)
class PaletteRollView(View):
    """A PC's palette line rolled: its label, the command as expanded, BCDice's text; ``offers``: what
    its result may be applied as (a damage line rolled at a target: ``/battle damage``)."""

    actor: str = ""
    pc: str = ""
    label: str = ""
    expanded: str = ""
    text: str = ""
    secret: bool = False
    rands: tuple[tuple[int, int], ...] = ()
    #: as ``RollView``'s: the secret roll's number in the channel, the oldest ones dropped
    number: int | None = None
    dropped: tuple[int, ...] = ()
    offers: tuple[Offer, ...] = ()


@dataclass(frozen=True, slots=True)
class SecretRoll:
    """A secret roll kept with its channel: its number there, who rolled it, when, what it showed."""

    number: int
    roller: str
    at: datetime
    roll: RollView | PaletteRollView


@dataclass(frozen=True, slots=True)
class SecretsView(View):
    """``/roll secrets``: the channel's kept secret rolls (``everyone``: a GM's list, every roller's;
    else the reader's own), oldest first, for the reader alone."""

    secrets: tuple[SecretRoll, ...] = ()
    everyone: bool = False
    ephemeral: bool = True


@dataclass(frozen=True, slots=True)
class RevealView(View):
    """``/roll reveal number:``: a secret roll shown to the channel as it was rolled, with its time;
    ``by``: who revealed it (its roller, or a GM)."""

    secret: SecretRoll | None = None
    by: str = ""


@dataclass(frozen=True, slots=True)
class PaletteView(View):
    """A PC's chat palette: its command lines (number, label, text) and variables; ``custom``: the PC's own
    palette is in it, ``generated``: the one generated from its sheet is."""

    pc: str = ""
    lines: tuple[tuple[int, str, str], ...] = ()
    variables: tuple[tuple[str, str], ...] = ()
    custom: bool = False
    generated: bool = False


@dataclass(frozen=True, slots=True)
class NoticeView(View):
    """A one-sentence answer (``gm.added`` ...)."""

    key: str = ""
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HelpView(View):
    """``/help [command:]``: every command, or one group's (``topic``); shown only to who asked."""

    topic: str = ""
    ephemeral: bool = True
