"""The built-in rule sets, one line each, and ``install_builtin``: what a process's entry point (the
console, the Discord bot, the tools, the test suite) installs as its registry (``bot.registry``)."""

from __future__ import annotations

from bot.registry import Registry, install, installed
from bot.ruleset import RuleSet
from bot.rulesets.battle.ruleset import RULESET as BATTLE
from bot.rulesets.fort.ruleset import RULESET as FORT
from bot.rulesets.sengensho.ruleset import RULESET as SENGENSHO

#: the order ``/help`` lists their commands in (the fort's first: the bot is named for it)
BUILTIN: tuple[RuleSet, ...] = (
    FORT,
    SENGENSHO,
    BATTLE,
)


def install_builtin() -> Registry:
    """Install the built-in rule sets as the process's registry."""
    return install(*BUILTIN)


def ensure_builtin() -> Registry:
    """The process's registry: the one installed (a test's, or a program's that runs the bot's parts
    with rule sets of its own), else the built-in rule sets, installed now (an entry point's start)."""
    return installed() or install_builtin()
