"""The suite's process runs the built-in rule sets, as every entry point of the bot does
(``bot.rulesets.builtin.install_builtin``); a test that needs others installs its own registry with
``use_registry``, which puts the one before it back afterwards."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot.registry import Registry, rulesets, use
from bot.rulesets.builtin import install_builtin

install_builtin()


@pytest.fixture
def use_registry() -> Iterator[Callable[[Registry], Registry]]:
    """``use_registry(registry)`` installs ``registry`` for the test (and gives it back)."""
    previous = rulesets()

    def installed(registry: Registry) -> Registry:
        use(registry)
        return registry

    yield installed
    use(previous)
