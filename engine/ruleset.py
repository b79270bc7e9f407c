"""The contract between a rule set (engine/fort, later engine/sengensho) and the service.

A rule set is pure: ``apply(state, command, dice)`` gives a new state and the events of
that command, or raises a ``RuleError`` and changes nothing. States are immutable values,
so the service can keep the old one for undo and a refused command cannot leave a battle
half-changed. Everything crosses the storage boundary as JSON-ready dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine.dice.source import DiceSource
from engine.errors import EngineError


class RuleError(EngineError):
    """A command the rules refuse. ``key`` names the message; ``values`` fill it in."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, with every die rolled and every number used.

    ``kind`` names the event (``fort.damaged``, ``unit.destroyed`` ...) and doubles as the
    key of the sentence that describes it; ``data`` holds the numbers and names (JSON-ready);
    ``dice`` lists every die rolled for it as (sides, value), in order. ``audience`` marks a secret:
    None is for everyone at the table; a tuple is for the GM and those users only (the owner of a
    hidden character, S-HIDE-1). The service builds each reader's view from it.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    dice: tuple[tuple[int, int], ...] = ()
    audience: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "data": dict(self.data), "dice": [list(d) for d in self.dice]}
        if self.audience is not None:
            out["audience"] = list(self.audience)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        audience = raw.get("audience")
        return cls(
            kind=str(raw["kind"]),
            data=dict(raw.get("data", {})),
            dice=tuple((int(s), int(v)) for s, v in raw.get("dice", [])),
            audience=None if audience is None else tuple(str(a) for a in audience),
        )


S = TypeVar("S")
C = TypeVar("C", contravariant=True)


@dataclass(frozen=True, slots=True)
class Outcome(Generic[S]):
    """What applying one command gave: the new state and what happened."""

    state: S
    events: Sequence[Event]


class Ruleset(Protocol[S, C]):
    """What the service needs of a rule set."""

    #: short name stored with each battle: ``fort``, ``sengensho``
    name: str
    #: the ``format`` field of its export documents: ``toride.fort/1``
    export_format: str

    def apply(self, state: S, command: C, dice: DiceSource) -> Outcome[S]: ...

    def export(self, state: S) -> dict[str, Any]: ...

    def import_(self, document: Mapping[str, Any]) -> S: ...
