"""The registry of rule sets the service can run (``fort``; ``sengensho`` later).

A ``RulesetBinding`` joins a pure engine ``Ruleset`` to what the bot needs around it: how to
store its commands, when a battle is over, which events close a round (for summaries), and
builders for commands shared by every rule set (``/gm set``). Its command specs are
registered in ``bot.commands`` by the module that defines the binding.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.commands import BuildContext, Builder, CommandSpec, Kind, Option
from engine.ruleset import Ruleset

#: modules that define the built-in rule sets (imported on first use)
BUILTIN = ("bot.rulesets.fort", "bot.rulesets.fort_sheets", "bot.rulesets.sengensho")


@dataclass(frozen=True, slots=True)
class RulesetBinding:
    ruleset: Ruleset[Any, Any]
    #: the command group of its lifecycle commands (``fort``, ``sg``)
    group: str
    #: the engine command as JSON for the log
    command_to_json: Callable[[Any], dict[str, Any]]
    #: is the battle over (so the channel is free for a new one)? By default its state's ``ended``
    is_over: Callable[[Any], bool] = lambda state: bool(state.ended)
    #: the state a start command is applied to
    new_state: Callable[[], Any] = lambda: None
    #: refuses (raises) a command the invoker may not run on this state (another player's PC ...)
    authorize: Callable[[Any, Any, str, bool], None] | None = None
    #: builders for shared commands (``gm set``) by path
    builders: Mapping[str, Builder] = field(default_factory=dict)
    #: event kinds that close a round (a round summary follows) or the battle (the final summary)
    round_end_kinds: frozenset[str] = frozenset()
    battle_end_kinds: frozenset[str] = frozenset()
    #: which events a round summary lists (all when None)
    in_summary: Callable[[str], bool] | None = None
    #: a summary's report from the round's log (``engine.fort.report``: actions and undos, oldest first),
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


_REGISTRY: dict[str, RulesetBinding] = {}
_loaded = False


def register(binding: RulesetBinding) -> None:
    _REGISTRY[binding.name] = binding


def load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    try:
        for module in BUILTIN:
            # a rule set that fails to import is an error, never a silently missing set of commands
            importlib.import_module(module)
    except BaseException:
        _loaded = False
        raise


def get(name: str) -> RulesetBinding | None:
    load_builtin()
    return _REGISTRY.get(name)


def by_format(export_format: str) -> RulesetBinding | None:
    load_builtin()
    for binding in _REGISTRY.values():
        if binding.export_format == export_format:
            return binding
    return None


def all_bindings() -> Mapping[str, RulesetBinding]:
    load_builtin()
    return dict(_REGISTRY)


def engine_command(
    ruleset: str,
    group: str,
    name: str,
    cls: type[Any],
    *options: Option,
    kind: Kind = Kind.ENGINE,
    renames: Mapping[str, str] | None = None,
) -> CommandSpec:
    """The command ``/group name`` building the engine command class ``cls`` (a dataclass).

    Whether an option is required and its default come from ``cls``'s fields, the (GM) mark from its
    ``gm_only``, so the table cannot drift from the engine; a field ``invoker`` gets the invoking user.
    ``renames`` maps option names to field names where they differ (``from`` → ``from_``).
    """
    names = renames or {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    full: list[Option] = []
    for opt in options:
        f = fields[names.get(opt.name, opt.name)]
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        full.append(dataclasses.replace(opt, required=required, default=None if required else f.default))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        kwargs = {names.get(k, k): v for k, v in values.items()}
        if "invoker" in fields:
            kwargs["invoker"] = ctx.invoker
        return cls(**kwargs)

    return CommandSpec(group, name, kind, tuple(full), gm=bool(cls.gm_only), ruleset=ruleset, build=build)


def gm_set_builder(cls: type[Any]) -> Builder:
    """The ``/gm set`` builder of a rule set whose engine command ``cls`` takes ``target`` and ``value``."""

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        return cls(target=values["target"], value=values["value"])

    return build
