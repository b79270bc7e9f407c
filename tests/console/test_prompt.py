"""The console as a terminal user meets it, driven through prompt_toolkit's own test input and output
(``create_pipe_input`` and ``DummyOutput``, the keys a user presses): Tab completes command words, option
names, and the battle's unit, PC and commander names, areas and edges; ``/help`` answers in the user's
language; Ctrl-C clears a half-typed line and Ctrl-D leaves."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from bot.console.app import CommandCompleter, play
from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import ScriptedDice

SETUP = (
    "/fort start rounds:2",
    "/pc add name:アリス position:top",
    '/unit add name:"ゴブリン 隊" type:normal area:A1 hp:20 fort_damage:10',
    "/unit add name:オーガ type:normal area:B2 hp:40 fort_damage:20",
    "/commander add name:隊長 hp:30 area:A2",
    "/trap set kind:mine edge:B1-B2 uses:1",
)

TAB, ENTER, CTRL_C, CTRL_D = "\t", "\r", "\x03", "\x04"


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[ConsoleSession]:
    storage = await open_storage(str(tmp_path / "p.db"))
    session = ConsoleSession(BattleService(storage, ScriptedDice([])), lang="ja", base_dir=tmp_path)
    for line in SETUP:
        reply = await session.handle(line)
        assert reply is not None and reply.ok, reply
    yield session
    await storage.close()


class Terminal:
    """The console's prompt loop on a pipe of keys: ``press`` sends keys and waits until the line being
    typed reads as expected (completion runs as a task of the loop, after the keys that started it)."""

    def __init__(self, session: ConsoleSession, pipe: PipeInput) -> None:
        self.pipe = pipe
        self.prompt: PromptSession[str] = PromptSession(
            input=pipe, output=DummyOutput(), completer=CommandCompleter(lambda: session.document)
        )
        self.task = asyncio.ensure_future(play(session, self.prompt, "> "))

    async def press(self, keys: str, line: str | None = None) -> None:
        """Send ``keys`` (text, then a Tab, Enter or Ctrl key alone: as a user types them, key by key)."""
        self.pipe.send_text(keys)
        for _ in range(500):
            await asyncio.sleep(0.01)
            if line is None or self.prompt.default_buffer.text == line:
                return
        raise AssertionError(f"the line reads {self.prompt.default_buffer.text!r}, not {line!r}")

    async def type(self, text: str, tab_to: str) -> None:
        """Type ``text``, then press Tab: the line then reads ``tab_to``."""
        before = self.prompt.default_buffer.text
        await self.press(text, before + text)
        await self.press(TAB, tab_to)


def complete(session: ConsoleSession, text: str) -> list[str]:
    completer = CommandCompleter(lambda: session.document)
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


async def test_tab_completes_the_battles_names(session: ConsoleSession) -> None:
    await session.refresh()
    assert complete(session, "/unit move unit:") == ['unit:"ゴブリン 隊"', "unit:オーガ"]
    assert complete(session, "/unit move unit:オ") == ["unit:オーガ"]
    assert complete(session, "/unit move unit:オーガ to:") == [
        f"to:{a}" for a in ("A2", "A1", "F0", "B1", "B2")
    ]
    assert complete(session, "/pc move name:") == ["name:アリス"]
    assert complete(session, "/commander hp name:") == ["name:隊長"]
    assert complete(session, "/trap remove kind:mine edge:") == ["edge:B1-B2"]
    assert complete(session, "/trap set kind:mine edge:B1") == ["edge:B1-B2"]
    assert complete(session, "/fort repair by:") == ["by:アリス"]
    assert complete(session, "/pc add position:o") == ["position:outside"]
    # with the Japanese names Discord shows
    assert complete(session, "/ユニット 移動 部隊:オ") == ["部隊:オーガ"]
    assert complete(session, "/罠 撤去 種類:mine 経路:") == ["経路:B1-B2"]


async def test_keys_through_the_prompt(session: ConsoleSession, capsys: pytest.CaptureFixture[str]) -> None:
    """Tab completes the line being typed; Enter runs it; the replies are the service's."""
    with create_pipe_input() as pipe:
        term = Terminal(session, pipe)
        await term.type("/unit mo", "/unit move ")
        await term.type("unit:ゴ", '/unit move unit:"ゴブリン 隊"')
        await term.type(" to:F", '/unit move unit:"ゴブリン 隊" to:F0')
        await term.press(ENTER, "")
        await term.press("/fort sta", "/fort sta")
        await term.press(CTRL_C, "")  # the half-typed line is cleared, nothing runs
        await term.press("/help unit list", "/help unit list")
        await term.press(ENTER, "")
        await term.press("/fort heal amount:x", "/fort heal amount:x")
        await term.press(ENTER, "")  # refused
        await term.press(CTRL_D)
        refused = await term.task
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ゴブリン 隊が移動: A1 → F0(10m)。 〔手番外: PC側の手番〕"
    assert not any(line.startswith("【") for line in out)  # /fort status never ran
    at = out.index("/ユニット 一覧 [エリア:<テキスト>]")  # the help in the reader's own words (issue 23)
    assert out[at + 1 : at + 4] == [
        "  ユニットの一覧: HP、砦ダメージ、打撃点、防護点、残りの移動、この手番の行動、増援",
        "    エリア: このエリアのユニットと指揮官だけ(A2 A1 F0 B1 B2)",
        "  例: /ユニット 一覧 エリア:F0",
    ]
    assert "⚠ 「量:」には整数を指定してください(「x」は整数ではありません)。" in out
    assert out[-1] == "終了します。"
    assert refused == 1


async def test_help_in_english_and_japanese_names(session: ConsoleSession) -> None:
    session.lang = "en"
    reply = await session.handle("/help")
    assert reply is not None and reply.ok
    lines = reply.text.splitlines()
    assert (
        lines[0]
        == "Commands ([ ] is optional). /help <group> shows their options and examples (e.g. /help /fort)."
    )
    assert (
        "  /unit list — The roster: HP, fort damage, strike, defence, move left, "
        "this turn's actions, reinforcements" in lines
    )
    topic = await session.handle("/help command:砦 開始")
    assert topic is not None
    assert topic.text.splitlines()[:4] == [
        "/fort start rounds:<1-99> [fort_hp:<int>] [cannons:<0-10>] [first:<pc|enemy>] [title:<text>]",
        "  Start a fort-defense battle in this channel (you are its GM).",
        "    rounds (required): How many rounds to hold (1-99)",
        "    fort_hp: The fort's maximum HP (default 300)",
    ]
    unknown = await session.handle("/help zz")
    assert unknown is not None and not unknown.ok
    # (a test rule set of another test module may follow the built-in ones)
    assert unknown.text.startswith(
        "⚠ There is no group or command “zz”. Known: /fort, /pc, /unit, /commander, /attack, /trap, /cannon, "
        "/ballista, /gm, /roll, /palette, /settings, /help, /sg"
    )
    # the Japanese command and option names Discord shows, as commands
    session.lang = "ja"
    status = await session.handle("/砦 状況")
    assert status is not None and status.text.startswith("【砦防衛戦】 第1/2ラウンド PC側の手番")
    moved = await session.handle("/pc 移動 名前:アリス 位置:砦外部")
    assert moved is not None and moved.ok and moved.view is not None
    assert [e.data["to_position"] for e in moved.view.events] == ["outside"]  # type: ignore[attr-defined]
    listed = await session.handle("/ユニット 一覧 エリア:B2")
    assert listed is not None and listed.text.splitlines()[1] == "  オーガ(通常・敵側) B2 HP 40/40"
