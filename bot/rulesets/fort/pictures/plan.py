"""What the map picture shows and where (``layout`` makes it, ``draw`` draws it): tokens in their
boxes, "more" rows, trap badges, arrivals, cannons, the header. Pure data, no pixels."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rulesets.fort.pictures.geometry import Box, EdgeStrip, Region

#: where a thing comes from in the document: (``"units"``, 3) is ``document["units"][3]``
Source = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Token:
    """One unit, commander or PC in its own row: its mark, name and HP (None: not tracked)."""

    box: Box
    mark: str
    side: str
    name: str
    hp: int | None
    max_hp: int | None
    source: Source
    weakness: str | None = None
    horn: str | None = None


@dataclass(frozen=True, slots=True)
class More:
    """The last row of a crowded region: how many more there are, counted by mark."""

    box: Box
    count: int
    marks: tuple[tuple[str, int], ...]
    sources: tuple[Source, ...]


@dataclass(frozen=True, slots=True)
class Badge:
    """A trap on its edge (F-TRAP-1): kind and uses left."""

    box: Box
    kind: str
    uses: int
    edge: str
    source: Source


@dataclass(frozen=True, slots=True)
class TrapMore:
    box: Box
    count: int
    edge: str
    sources: tuple[Source, ...]


@dataclass(frozen=True, slots=True)
class Arrival:
    """A reinforcement still to come (F-MAP-7): the round it arrives in and where."""

    box: Box
    mark: str
    name: str
    round: int | None
    area: str
    source: Source


@dataclass(frozen=True, slots=True)
class Cannon:
    """F-CAN-1: a cannon (numbered from 1) and its shells."""

    box: Box
    number: int
    shells: int
    source: Source


@dataclass(frozen=True, slots=True)
class Header:
    title: str
    round: int
    rounds: int
    turn: str
    outcome: str | None
    confused_round: int | None
    fort_hp: int
    fort_max_hp: int
    repaired: bool
    ballista_loaded: bool
    ballista_bolt: str | None
    magic_bolt_used: bool


@dataclass(frozen=True, slots=True)
class MapLayout:
    width: int
    height: int
    header: Header
    title_box: Box
    fort_bar: Box
    areas: tuple[Region, ...]
    sections: tuple[Region, ...]
    edges: tuple[EdgeStrip, ...]
    rows: tuple[Token | More, ...]
    traps: tuple[Badge | TrapMore, ...]
    reinforcements: Region
    arrivals: tuple[Arrival | More, ...]
    equipment: Region
    ballista: Box
    cannons: tuple[Cannon | More, ...]
    legend: Box


# --- what goes where ------------------------------------------------------------------------------
