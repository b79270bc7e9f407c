"""A rule set as the bot runs it: one ``RuleSet`` object per rule set, exported by its package
(``bot.rulesets.fort.ruleset.RULESET`` ...) and found by name in the registry (``bot.registry``).

A ``RuleSet`` joins a pure engine ``Ruleset`` (``engine.ruleset``: apply, export, import) to everything
the bot needs around it, so that a rule set lives in one folder and nothing generic knows a rule:

- its commands (``commands``, made by ``bot.commands.engine_command`` from its engine classes) and
  who may run them (``authorize``);
- how the service stores and reads its battles: its commands as JSON, when a battle is over, which
  events close a round, its summaries' reports, its limits, what of it is secret (``visible``) ...;
- how its battles read: console text (``text``), the names an option completes from (``names``),
  pictures (``pictures``), the Discord presenter (``discord``), its planner (``planner``, ``/fort
  odds``), the prep page's binding (``prep``), and its message catalogue folder (``catalogues``).

What imports a library the rest of the bot need not load is ``Lazy``: made when first used.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from bot.commands.model import BuildContext, Builder, CommandSpec, Option, Query
from bot.gm_targets import GMTargets
from bot.views import Awaited, Offer, StatusView, Summary, View
from engine.palette import OwnPalette
from engine.ruleset import Event, Ruleset

if TYPE_CHECKING:
    from bot.discord.presenter import Presenter

T = TypeVar("T")


class Lazy(Generic[T]):
    """A part of a rule set made when first used (``part()``): one that imports a library the rest of
    the bot need not load for it (discord.py for the Discord presenter, Pillow for the pictures,
    aiohttp for the prep page), so the console never loads Discord and a tool loads what it uses."""

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._made: list[T] = []

    def __call__(self) -> T:
        if not self._made:
            self._made.append(self._make())
        return self._made[0]


#: per event kind: the sentence's parts computed from its data (``sg.rolled`` → the dice paid ...)
EventValues = Callable[[Mapping[str, Any], str], Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class TextBinding:
    """How the rule set's battles read as text (``bot.render.text``, the console; parts of it in Discord)."""

    #: the status screen (None: the document as JSON)
    status: Callable[[StatusView, str], str] | None = None
    #: the lines a summary adds after its events (the fort's HP ...)
    summary_extra: Callable[[Summary, str], list[str]] | None = None
    #: a summary's report (``Summary.report``) as its title and its lines; None: its events, one a line
    report: Callable[[Any, str], tuple[str, list[str]]] | None = None
    #: per event kind: sentence parts computed from its data (every front-end's event lines)
    event_values: Mapping[str, EventValues] = field(default_factory=dict)
    #: the rule set's own views (``/unit list``'s roster ...) as console text, by view type
    views: Mapping[type[View], Callable[[Any, str], str]] = field(default_factory=dict)
    #: what a command's reply offers to run next, from its events as the reader sees them (Discord:
    #: buttons; the console: the lines to type)
    offers: Callable[[Sequence[Event]], tuple[Offer, ...]] | None = None
    #: what the battle (its document as the table reads it) waits for from whom, asked again in the
    #: channel when no answer comes
    awaiting: Callable[[Mapping[str, Any]], tuple[Awaited, ...]] | None = None


@dataclass(frozen=True, slots=True)
class Names:
    """Which of a battle's names an option takes (Discord's autocomplete, the console's Tab)."""

    #: the kind of names ``option`` of ``spec`` takes (``unit``, ``area`` ...), None: none
    completion: Callable[[CommandSpec, Option], str | None]
    #: the names of that kind in a battle's document, given the options typed so far
    candidates: Callable[[Mapping[str, Any], str, CommandSpec, Mapping[str, Any]], list[str]]


@dataclass(frozen=True, slots=True)
class Pictures:
    """The rule set's pictures, as PNG bytes (drawn by the caller off the event loop)."""

    #: the battlefield of an export document (``/fort map``, the live status message)
    map: Callable[[Mapping[str, Any], str], bytes]
    #: a final summary's chart (None: it has none), and the name of its attachment in Discord
    chart: Callable[[Summary, str], bytes | None] | None = None
    chart_file: str = "chart.png"
    #: the sentence (catalogue key, with ``path``) saying where the console wrote the chart
    chart_written: str = ""
    #: what the battlefield shows, in words, for those who cannot see it (None: the text status's
    #: first lines)
    alt: Callable[[StatusView, str], str] | None = None
    #: the picture of one of the rule set's own views (``/fort odds``'s chart) and its file's name,
    #: None: it has none; it holds ``bot.render.picture.pictures.DRAWING`` while it draws (a picture
    #: kept is not drawn again)
    view_picture: Callable[[View, str], tuple[bytes, str] | None] | None = None
    #: the sentence (catalogue key, with ``path``) saying where ``view_picture``'s file was written
    view_picture_written: str = ""
    #: a document the drawing code is warmed up with at start-up (its fonts loaded)
    sample: Mapping[str, Any] = field(default_factory=dict)


class Planner(Protocol):
    """A rule set's planner (``Kind.PLAN``): plays a battle forward many times, outside the channel's
    lock, off the event loop; the service makes one (``RuleSet.planner``) and closes it."""

    def request(self, options: Mapping[str, Any]) -> Any:
        """What the command's options ask for, read before the battle is (a refusal raises)."""
        ...

    async def answer(
        self, request: Any, state: Any, document: dict[str, Any], channel: Hashable, battle: str
    ) -> View:
        """The plan's answer for the battle (``state``, its ``document``) of ``channel``, named
        ``battle`` in file names (``<channel>-<id>``); a refusal raises (the battle is over, another
        plan of the channel runs ...)."""
        ...

    def queued(self) -> int:
        """How many plans were asked for and are not answered yet (waiting or running): ``/metrics``."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class RuleSet:
    ruleset: Ruleset[Any, Any]
    #: the command group of its lifecycle commands (``fort``, ``sg``)
    group: str
    #: the engine command as JSON for the log
    command_to_json: Callable[[Any], dict[str, Any]]
    #: every command it adds to the table (the generic ones are the registry's)
    commands: tuple[CommandSpec, ...] = ()
    #: its command groups in the order ``/help`` lists them (empty: as its commands come)
    groups: tuple[str, ...] = ()
    #: is the battle over (so the channel is free for a new one)? By default its state's ``ended``
    is_over: Callable[[Any], bool] = lambda state: bool(state.ended)
    #: the state a start command is applied to
    new_state: Callable[[], Any] = lambda: None
    #: refuses (raises) a command the invoker (who, whether a GM) may not run on this state (another
    #: player's PC ...)
    authorize: Callable[[Any, Any, BuildContext], None] | None = None
    #: builders for shared commands (``gm set``: ``bot.gm_targets.builder``) by path
    builders: Mapping[str, Builder] = field(default_factory=dict)
    #: its ``/gm set`` targets, in the reader's words (``bot.gm_targets``; None: the paths as typed)
    gm_targets: GMTargets | None = None
    #: event kinds that close a round (a round summary follows) or the battle (the final summary)
    round_end_kinds: frozenset[str] = frozenset()
    battle_end_kinds: frozenset[str] = frozenset()
    #: which events a round summary lists (all when None)
    in_summary: Callable[[str], bool] | None = None
    #: a summary's report from the round's log (``engine.report``: actions and undos, oldest first),
    #: its kind (``round``, ``final``), its round and the battle's document after it; None: no report
    report: Callable[[Sequence[Any], str, int | None, Mapping[str, Any]], Any] | None = None
    #: refuses (raises ``LimitError``) an imported state beyond the limits of COMMANDS.md
    check_limits: Callable[[Any], None] = lambda state: None
    #: the document as a user who is not a GM may read it (None: the table; their own secrets too),
    #: for a rule set with hidden information (``bot.service.audience``); None: all of it is public
    visible: Callable[[dict[str, Any], str | None], dict[str, Any]] | None = None
    #: does a command's own text name what is secret, in the state before or after it (then the table
    #: reads its events without it)? None: whenever it has a secret event
    secret_text: Callable[[Any, Any, Any], bool] | None = None
    #: will the reply to a command (its path and options as given, by this invoker) be for its invoker
    #: alone, judged on the state before it runs (S-HIDE-1: Discord then defers it ephemerally)?
    private_reply: Callable[[Any, str, Mapping[str, Any], str], bool] | None = None
    #: other export formats (``/fort export format:ccfolia``): name → (the state → the file's text)
    exporters: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)
    #: the state's document with each list of elements given by ``part(elements, make)`` (``make``: one
    #: element's document), so that ``bot.storage.docpatch`` makes and serialises only the elements a
    #: command changed (None: the rule set exports the whole state each time)
    export_parts: Callable[[Any, Callable[[Any, Callable[[Any], Any]], Any]], dict[str, Any]] | None = None
    #: the state of a document this program stored (checked when it was written), built without the
    #: import's checks; None: the import's own
    restorer: Callable[[Mapping[str, Any]], Any] | None = None
    #: how its battles read as text
    text: TextBinding = field(default_factory=TextBinding)
    #: the names its options complete from (None: none)
    names: Names | None = None
    #: its own answers to shared commands (``pc roll``: a PC's palette line, in the fort and the ordinary
    #: battle alike), by path; a shared command without one here is refused in its battles
    queries: Mapping[str, Query] = field(default_factory=dict)
    #: the palettes of a user's own characters in a battle (the state, the user's id and the names
    #: they go by), which ``/palette`` rolls from in its channel (None: its characters have none)
    palettes: Callable[[Any, str, tuple[str, ...]], list[OwnPalette]] | None = None
    #: the commands (paths) its replies offer as buttons: a button's id runs nothing else
    offered: frozenset[str] = frozenset()
    #: a refusal's key → the id of the rule behind it (``F-MAP-7``: the GM's detail in the command log)
    rule_ids: Mapping[str, str] = field(default_factory=dict)
    #: its battles in Discord (``bot.discord.presenter.Presenter``; None: the generic presenter)
    discord: Lazy[Presenter] | None = None
    #: its pictures (None: it has none, ``/… map`` is refused)
    pictures: Lazy[Pictures] | None = None
    #: makes its planner (``Kind.PLAN``; None: it has none)
    planner: Callable[[], Planner] | None = None
    #: the prep page's binding (``bot.prep``; None: no prep page)
    prep: Lazy[Any] | None = None
    #: its message catalogue folder (``ja/``, ``en/`` of TOML files), read beside the bot's own
    catalogues: Traversable | None = None

    def restore(self, document: Mapping[str, Any]) -> Any:
        """The state of a stored document (a battle loaded from the database, not a user's file)."""
        if self.restorer is not None:
            return self.restorer(document)
        return self.ruleset.import_(document)

    def export(self, state: Any) -> dict[str, Any]:
        """The state's document."""
        return self.ruleset.export(state)

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def export_format(self) -> str:
        return self.ruleset.export_format

    def help_groups(self) -> tuple[str, ...]:
        """Its command groups in the order ``/help`` lists them."""
        return self.groups or tuple(dict.fromkeys(s.group or s.name for s in self.commands))
