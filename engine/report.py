"""A battle's log as a rule set's summary report reads it: each action with who ran it, its text and its
events (with their dice), and each undo or redo of the GM, in order (``engine.fort.report`` writes the
fort's round summary from them)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.ruleset import Event


@dataclass(frozen=True, slots=True)
class Action:
    """One command of the round as the log keeps it: who ran it, what they typed, what happened."""

    seq: int
    actor: str
    text: str
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Undo:
    """The GM's ``/gm undo`` (``redo`` False) or ``/gm redo`` of the commands numbered ``seqs`` (taken back
    or put back), ``texts`` their text, one each ("" where the log read does not reach it)."""

    seq: int
    actor: str
    redo: bool
    seqs: tuple[int, ...]
    texts: tuple[str, ...]


Entry = Action | Undo
