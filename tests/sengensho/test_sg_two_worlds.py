"""S-HIDE-1 (issue 37, item 3) as a player probes it: two battles that differ only in a secret — a
hidden enemy (of random numbers) joined, hidden by a stealth roll, with a surprise or a disguised
ability waiting on a PC — read byte for byte the same to the players: each reply a player gets, and
everything the channel reads (the public replies, the status, the log), over random probes.

The probes are what a player may try to learn what hides: a free roll labelled with a guessed name,
a resistance roll, a search, joining under the hidden one's name, an attack or damage aimed at it,
taking a card from it, answering an attack, and reading the status and the log.
"""

from __future__ import annotations

import asyncio
import dataclasses
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render.text import render
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import open_storage
from bot.views import View

HERE = Where("g1", "c1")
GM, P1, P2 = "gm", "p1", "p2"
#: the hidden enemy's name, and the names a player guesses
HIDDEN = "ルーミア"
GUESSES = (HIDDEN, "ルーミヤ", "妖精", "霊夢")


class ThreeDice:
    """Every die a 3: the two worlds spend different dice on their secrets, the players' dice stay alike."""

    def roll(self, sides: int) -> int:
        return min(3, sides)


def _probe(kind: str, guess: str) -> tuple[str, str, dict[str, Any]]:
    """One thing a player tries, as (who, path, options)."""
    probes: dict[str, tuple[str, str, dict[str, Any]]] = {
        "label": (P1, "sg roll", {"name": "霊夢", "dice": 0, "base": 1, "label": guess}),
        "resist": (P1, "sg roll", {"name": "霊夢", "dice": 0, "base": 1, "kind": "resist"}),
        "search": (P2, "sg search", {"name": "魔理沙", "dice": 0, "base": 2}),
        "search_named": (P2, "sg search", {"name": "魔理沙", "dice": 0, "base": 2, "target": guess}),
        "join": (P2, "sg join", {"name": guess, "dp_max": 10, "recovery": 2, "hp": 8}),
        "attack": (P1, "sg attack", {"target": guess, "dice": 0, "base": 3, "damage": "1d"}),
        "damage": (P1, "sg damage", {"name": guess, "amount": 1}),
        "card": (P2, "sg spellcard", {"name": "魔理沙", "take_from": guess, "card": "月符「ムーンライト」"}),
        "answer": (P1, "sg answer", {"defence": "take"}),
        "declare": (P2, "sg declare", {"name": "魔理沙", "dp": 5}),
        "status": (P1, "sg status", {}),
        "log": (P2, "sg log", {}),
    }
    return probes[kind]


KINDS = ("label", "resist", "search", "search_named", "join", "attack", "damage", "card", "answer")
KINDS += ("declare", "status", "log")
PROBES = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.sampled_from(GUESSES),
    ),
    min_size=1,
    max_size=7,
)


@dataclasses.dataclass(frozen=True)
class Secret:
    """What the GM does unseen in the first world (the second has none of it)."""

    dp: int
    hp: int
    hides: bool
    surprise: bool
    ability: bool
    cards: bool


SECRETS = st.builds(
    Secret,
    dp=st.integers(4, 30),
    hp=st.integers(1, 40),
    hides=st.booleans(),
    surprise=st.booleans(),
    ability=st.booleans(),
    cards=st.booleans(),
)


def _secret_steps(s: Secret) -> list[tuple[str, str, dict[str, Any]]]:
    steps: list[tuple[str, str, dict[str, Any]]] = [
        (
            GM,
            "sg join",
            {"name": HIDDEN, "side": "enemy", "dp_max": s.dp, "recovery": 3, "hp": s.hp, "hidden": True},
        )
    ]
    if s.cards:
        steps.append((GM, "sg spellcard", {"name": HIDDEN, "declare": "闇符「ディマーケイション」"}))
    if s.hides:
        steps.append((GM, "sg hide", {"name": HIDDEN, "dice": 1, "base": 4}))
    if s.surprise:
        steps.append((GM, "sg surprise", {"attacker": HIDDEN, "target": "霊夢", "distance": 10}))
    return steps


def _after_turn(s: Secret) -> list[tuple[str, str, dict[str, Any]]]:
    """A disguised ability aimed at 霊夢 (an undisguised one its target notices by S-SUR-6: no secret)."""
    if not s.ability:
        return []
    return [
        (
            GM,
            "sg surprise",
            {"attacker": HIDDEN, "target": "霊夢", "distance": 5, "ability": True, "disguised": True},
        ),
        (GM, "sg roll", {"name": HIDDEN, "dice": 1, "base": 3, "kind": "ability", "at": "霊夢"}),
    ]


SETUP: list[tuple[str, str, dict[str, Any]]] = [
    (GM, "sg start", {"title": "紅魔館"}),
    (P1, "sg join", {"name": "霊夢", "dp_max": 12, "recovery": 3, "hp": 10}),
    (P2, "sg join", {"name": "魔理沙", "dp_max": 12, "recovery": 3, "hp": 10}),
    (P2, "sg spellcard", {"name": "魔理沙", "declare": "恋符「マスタースパーク」"}),
    (GM, "sg join", {"name": "妖精", "side": "enemy", "dp_max": 8, "recovery": 2, "hp": 6}),
]


def _shown(view: View) -> str:
    """The reply as its reader reads it (the console's words: what Discord shows, without markup)."""
    return render(view, "ja")


def _public(view: View) -> str | None:
    """What the channel reads of a reply (None: nothing, it was for its reader alone)."""
    if view.ephemeral:
        return None
    return render(dataclasses.replace(view, private=None), "ja")


async def _world(secret: Secret | None, probes: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The players' replies and the channel's text in one world."""
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(str(Path(tmp) / "world.db"))
        service = BattleService(storage, ThreeDice())
        replies: list[str] = []
        channel: list[str] = []

        async def run(who: str, path: str, options: dict[str, Any]) -> None:
            view = await service.execute(HERE, Actor(who), Invocation(path, dict(options), "/" + path))
            if who != GM:
                replies.append(_shown(view))
            shown = _public(view)
            if shown is not None:
                channel.append(shown)

        try:
            for step in SETUP:
                await run(*step)
            for step in _secret_steps(secret) if secret is not None else []:
                await run(*step)
            await run(GM, "sg turn", {})
            for step in _after_turn(secret) if secret is not None else []:
                await run(*step)
            for kind, guess in probes:
                await run(*_probe(kind, guess))
            for who in (P1, P2):
                for path in ("sg status", "sg log"):
                    await run(who, path, {})
        finally:
            await storage.close()
        return replies, channel


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(secret=SECRETS, probes=PROBES)
def test_s_hide_1_two_worlds_differing_only_in_a_secret_read_the_same_to_the_players(
    secret: Secret, probes: list[tuple[str, str]]
) -> None:
    with_secret = asyncio.run(_world(secret, probes))
    without = asyncio.run(_world(None, probes))
    assert with_secret[0] == without[0]  # every reply a player got
    assert with_secret[1] == without[1]  # everything the channel read
