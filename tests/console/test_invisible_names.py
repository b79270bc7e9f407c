"""Issue 27, names (COMMANDS.md, Conventions: names 1-32 characters): characters that show nothing
(Unicode format characters such as zero-width spaces and joiners, the word joiner, the soft hyphen;
the Hangul fillers) are taken out before a name is compared and stored, so ``Bob`` and ``Bob`` with a
zero-width space are one name, and a name made of nothing else is refused in words. The same holds in
both rule sets, and in an imported battle."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.i18n import t
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import ScriptedDice
from engine.limits import visible

INVISIBLE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u3164",
    "\u115f",
    "\u1160",
    "\uffa0",
]


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[ConsoleSession]:
    storage = await open_storage(str(tmp_path / "n.db"))
    session = ConsoleSession(BattleService(storage, ScriptedDice([])), lang="ja", base_dir=tmp_path)
    yield session
    await session.service.close()
    await storage.close()


async def lines(session: ConsoleSession, *commands: str) -> list[str]:
    out = []
    for command in commands:
        reply = await session.handle(command)
        assert reply is not None
        out.append(reply.text)
    return out


def refused(key: str, **values: object) -> str:
    return t("render.refused", "ja", reason=t(key, "ja", **values))


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
async def test_a_name_of_invisible_characters_only_is_refused(session: ConsoleSession, char: str) -> None:
    await lines(session, "/fort start rounds:3")
    (pc, unit) = await lines(
        session,
        f"/pc add name:{char * 3}",
        f"/unit add name:{char}{char} type:normal area:A2 hp:5 fort_damage:1",
    )
    assert pc == unit == refused("limits.name_invisible")
    assert "PC" not in (await lines(session, "/fort status"))[0].split("F0:")[1].split("\n")[0]


async def test_an_invisible_character_does_not_make_a_second_name(session: ConsoleSession) -> None:
    await lines(session, "/fort start rounds:3")
    added, twin, soft = await lines(
        session, "/pc add name:Bob", "/pc add name:Bob\u200b", "/pc add name:Al\u00adice\u2060"
    )
    assert "Bob" in added and twin == refused("fort.name_taken", name="Bob")
    assert "PC Aliceが" in soft  # stored without them
    # found by the name with invisible characters in it
    (moved,) = await lines(session, "/pc move name:B\u200bob area:A1")
    assert moved.startswith("Bobが移動: F0(砦上部) → A1"), moved


async def test_sengensho_names_too(session: ConsoleSession) -> None:
    await lines(session, "/sg start")
    added, twin, empty = await lines(
        session,
        "/sg join name:霊夢 hp:20 dp_max:10 recovery:3",
        "/sg join name:霊\u200d夢 hp:20 dp_max:10 recovery:3",
        "/sg join name:\u3164 hp:20 dp_max:10 recovery:3",
    )
    assert "霊夢" in added and "霊夢" in twin and twin.startswith("⚠")
    assert empty == refused("limits.name_invisible")


def test_an_emoji_sequence_keeps_its_joiners() -> None:
    family = "👨\u200d👩\u200d👧"
    assert visible(family) == family and visible("a\u200db") == "ab"
