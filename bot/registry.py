"""The registry: the rule sets a process runs, found by name (``get("fort")``), by export format or by
command group, and the one command table they make with the generic commands.

It is filled explicitly, in one place: a process's entry point installs the built-in rule sets
(``bot.rulesets.builtin.ensure_builtin``, one line per rule set), a test may install others beside
them (``use``). Nothing registers itself when imported. Every generic layer (the service, Discord,
the console, the renderers, the tools) asks the installed registry (``rulesets()``) and imports no
rule set.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import TypeVar

from bot import gm_targets
from bot.commands.generic import GENERIC, GENERIC_GROUPS
from bot.commands.model import CommandSpec, Option
from bot.commands.table import CommandTable
from bot.i18n.catalogue import use_folders
from bot.ruleset import EventValues, RuleSet

V = TypeVar("V")


class NotInstalled(RuntimeError):
    """No registry was installed before the rule sets were asked for (an entry point's bug)."""


class Registry:
    """Rule sets by name, and the command table of their commands and the generic ones."""

    def __init__(self, rulesets: Iterable[RuleSet], generic: Iterable[CommandSpec] = GENERIC) -> None:
        self._rulesets: dict[str, RuleSet] = {}
        for ruleset in rulesets:
            self._add(ruleset)
        listed = list(self._rulesets.values())
        specs = [*generic, *(spec for ruleset in listed for spec in ruleset.commands)]
        # /help: the first rule set's groups (the one the bot is named for), the shared commands,
        # then the other rule sets' groups
        order = [g for ruleset in listed[:1] for g in ruleset.help_groups()]
        order += [*GENERIC_GROUPS, *(g for ruleset in listed[1:] for g in ruleset.help_groups())]
        self.table = CommandTable(specs, order)
        self.event_values: Mapping[str, EventValues] = MappingProxyType(
            self._merged("event value", {r.name: r.text.event_values for r in listed})
        )
        self.rule_ids: Mapping[str, str] = MappingProxyType(
            self._merged("rule id", {r.name: r.rule_ids for r in listed})
        )
        #: the commands a reply's button may run (``RuleSet.offered``)
        self.offered: frozenset[str] = frozenset(path for r in listed for path in r.offered)

    def _add(self, ruleset: RuleSet) -> None:
        for other in self._rulesets.values():
            for what, mine, theirs in (
                ("name", ruleset.name, other.name),
                ("export format", ruleset.export_format, other.export_format),
                ("group", ruleset.group, other.group),
            ):
                if mine == theirs:
                    raise ValueError(f"two rule sets have the {what} {mine!r}")
        self._rulesets[ruleset.name] = ruleset

    @staticmethod
    def _merged(what: str, parts: Mapping[str, Mapping[str, V]]) -> dict[str, V]:
        """The rule sets' tables (by rule set name) as one; a key two rule sets give is an error."""
        out: dict[str, V] = {}
        owner: dict[str, str] = {}
        for name, part in parts.items():
            for key, value in part.items():
                if key in out:
                    raise ValueError(f"the {what} {key!r} is both {owner[key]}'s and {name}'s")
                out[key], owner[key] = value, name
        return out

    def __iter__(self) -> Iterator[RuleSet]:
        return iter(self._rulesets.values())

    def get(self, name: str) -> RuleSet | None:
        return self._rulesets.get(name)

    def by_format(self, export_format: str) -> RuleSet | None:
        """The rule set whose export documents name ``export_format`` (``toride.fort/1``)."""
        for ruleset in self._rulesets.values():
            if ruleset.export_format == export_format:
                return ruleset
        return None

    @property
    def commands(self) -> Mapping[str, CommandSpec]:
        """Every command by path (``fort start``)."""
        return MappingProxyType(self.table.specs)

    def lookup(self, path: str) -> CommandSpec:
        """The command ``path`` names; ``UserError`` (with a suggestion) if none."""
        return self.table.lookup(path)

    def completion_kind(self, spec: CommandSpec, opt: Option) -> str | None:
        """The names ``opt`` of ``spec`` completes from: its rule set's, or for a generic command
        (``/gm set``) the first rule set's that completes it (its target: ``bot.gm_targets``)."""
        if gm_targets.completes(spec.path, opt.name):
            return "gm_target"
        if spec.ruleset is not None:
            owner = self.get(spec.ruleset)
            return owner.names.completion(spec, opt) if owner is not None and owner.names else None
        for ruleset in self:
            kind = ruleset.names.completion(spec, opt) if ruleset.names is not None else None
            if kind is not None:
                return kind
        return None


_installed: Registry | None = None


def use(registry: Registry | None) -> Registry | None:
    """Make ``registry`` the process's (None: none), its rule sets' catalogues read from now on; the
    one it replaces, for a test to put back."""
    global _installed
    previous, _installed = _installed, registry
    use_folders(() if registry is None else (r.catalogues for r in registry if r.catalogues is not None))
    return previous


def install(*rulesets: RuleSet) -> Registry:
    """Install a registry of ``rulesets`` (and the generic commands) as the process's."""
    registry = Registry(rulesets)
    use(registry)
    return registry


def installed() -> Registry | None:
    """The process's registry, None before one is installed."""
    return _installed


def rulesets() -> Registry:
    """The process's registry."""
    if _installed is None:
        raise NotInstalled("no rule sets are installed: an entry point calls ensure_builtin() first")
    return _installed


def lookup(path: str) -> CommandSpec:
    """The command ``path`` names in the process's table (``Registry.lookup``)."""
    return rulesets().lookup(path)


def commands() -> Mapping[str, CommandSpec]:
    """Every command of the process's table, by path."""
    return rulesets().commands
