"""Chat dice (issue 35 item 2; COMMANDS.md ``/settings chat_dice:``): in a channel that allows it, a
message that begins with a dice command is answered once, as a reply, with ``/roll``'s text.

Messages enter as the MESSAGE_CREATE (MESSAGE_UPDATE) payloads Discord's gateway sends, through the
client's connection state, so discord.py builds the ``Message`` and dispatches ``on_message`` itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from chat_payloads import chat_message
from discord_harness import (
    BOB,
    CHANNEL_ID,
    DM_CHANNEL_BASE,
    MEMBER_PERMISSIONS,
    Dice,
    Harness,
    Member,
    Request,
    Role,
)

from bot.discord.client import TorideBot
from bot.discord.settings import ENV_CHAT_DICE
from bot.i18n import t
from bot.service import BattleService
from bot.storage.interface import Storage

MANAGE_SERVER = 1 << 5
ADMIN = Member(400000000000000021, "Admin", permissions=MEMBER_PERMISSIONS | MANAGE_SERVER)
GM_ROLE = Role(500000000000000021, "GM")
ROLE_MEMBER = Member(400000000000000022, "Rolf", roles=(GM_ROLE.id,))
OTHER_CHANNEL = CHANNEL_ID + 7


@pytest.fixture
async def chat(storage: Storage, dice: Dice) -> AsyncIterator[Harness]:
    h = await Harness.create(BattleService(storage, dice), defer_after=None, chat_dice=True)
    yield h
    await h.bot.coalescer.close()


async def post(h: Harness, payload: dict[str, Any], event: str = "MESSAGE_CREATE") -> list[Request]:
    start = len(h.recorder.requests)
    before = asyncio.all_tasks()
    state = h.bot._connection
    parse = state.parse_message_create if event == "MESSAGE_CREATE" else state.parse_message_update
    parse(payload)  # type: ignore[arg-type]
    await h.settle(before)
    return h.recorder.requests[start:]


async def enable(h: Harness, channel: int = CHANNEL_ID) -> None:
    result = await h.run(ADMIN, "settings", channel_id=channel, chat_dice=True)
    assert not result.ephemeral, result.text()
    assert result.text() == t("settings.chat_dice_on", "ja")


async def test_a_dice_message_is_answered_once_as_a_reply_with_the_roll_text(
    chat: Harness, dice: Dice
) -> None:
    await enable(chat)
    dice.feed(3, 4)
    message = chat_message(BOB, "2d6+5 命中", chat.guild_id, CHANNEL_ID)
    sent = await post(chat, message)
    (reply,) = sent
    assert (reply.method, reply.path) == ("POST", f"/channels/{CHANNEL_ID}/messages")
    assert str(reply.data["message_reference"]["message_id"]) == message["id"]
    assert reply.data["allowed_mentions"]["parse"] == []
    (embed,) = reply.embeds
    assert embed["description"] == "(2D6+5) ＞ 7[3,4]+5 ＞ 12"  # the text /ダイス gives
    assert embed["title"] == "🎲 ダイス" and embed["author"] == {"name": "ボブ"}
    assert embed["fields"] == [{"name": "コメント", "value": "命中", "inline": False}]
    # the same event again (a gateway replay after a RESUME): never a second reply
    assert await post(chat, message) == []


async def test_never_answered(chat: Harness, dice: Dice) -> None:
    await enable(chat)
    dice.feed(*[1] * 20)
    guild = chat.guild_id
    # a channel that did not allow chat dice
    assert await post(chat, chat_message(BOB, "2d6+5 命中", guild, OTHER_CHANNEL)) == []
    # a leading space: not a command (BCDice: the command starts the message)
    assert await post(chat, chat_message(BOB, " 2d6+5", guild, CHANNEL_ID)) == []
    assert await post(chat, chat_message(BOB, "\u30002d6", guild, CHANNEL_ID)) == []
    # a bot's message (the bot's own replies included)
    assert await post(chat, chat_message(BOB, "2d6", guild, CHANNEL_ID, bot=True)) == []
    # an edit, even of a message never rolled
    edit = chat_message(BOB, "2d6+5", guild, CHANNEL_ID, edited=True)
    assert await post(chat, edit, "MESSAGE_UPDATE") == []
    # the first word is not a dice command: silent, whatever follows
    for text in ("こんにちは 2d6", "xyz", "2d6は振った", "http://example.com 2d6", ""):
        assert await post(chat, chat_message(BOB, text, guild, CHANNEL_ID)) == []


async def test_a_refused_roll_of_a_dice_command_is_answered_in_words(chat: Harness) -> None:
    await enable(chat)
    # a dice command the script cannot roll: the refusal, as /ダイス gives it
    (reply,) = await post(chat, chat_message(BOB, "2d6", chat.guild_id, CHANNEL_ID))
    assert str(reply.data["message_reference"]["channel_id"]) == str(CHANNEL_ID)
    assert "台本のダイス" in reply.text()


async def test_off_again_stops_answering(chat: Harness, dice: Dice) -> None:
    await enable(chat)
    result = await chat.run(ADMIN, "settings", chat_dice=False)
    assert result.text() == t("settings.chat_dice_off", "ja")
    dice.feed(1, 1)
    assert await post(chat, chat_message(BOB, "2d6", chat.guild_id, CHANNEL_ID)) == []


async def test_settings_refused_to_a_player_in_words_and_allowed_to_the_gm_role(
    chat: Harness, storage: Storage
) -> None:
    result = await chat.run(BOB, "settings", chat_dice=True)
    assert result.ephemeral
    assert result.text() == "⚠ " + t("settings.not_allowed", "ja").replace("[[/settings]]", "/設定")
    assert not await storage.chat_dice(str(chat.guild_id), str(CHANNEL_ID))
    await chat.run(ADMIN, "gm role", role=GM_ROLE)
    result = await chat.run(ROLE_MEMBER, "settings", chat_dice=True)
    assert not result.ephemeral and result.text() == t("settings.chat_dice_on", "ja")
    assert await storage.chat_dice(str(chat.guild_id), str(CHANNEL_ID))


async def test_settings_without_the_intent_says_what_to_enable_and_still_stores_it(
    harness: Harness, storage: Storage
) -> None:
    assert not harness.bot.chat_dice
    result = await harness.run(ADMIN, "settings", chat_dice=True)
    assert "Message Content Intent" in result.text() and "TORIDE_CHAT_DICE=1" in result.text()
    assert "Developer Portal" in result.text()
    assert await storage.chat_dice(str(harness.guild_id), str(CHANNEL_ID))
    english = Member(ADMIN.id, "Admin", locale="en-US", permissions=ADMIN.permissions)
    text = (await harness.run(english, "settings", chat_dice=True)).text()
    assert text.startswith("Chat dice are on in this channel, but") and "Developer Portal" in text


async def test_the_message_content_intent_only_with_the_environment_variable(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = BattleService(storage)
    monkeypatch.delenv(ENV_CHAT_DICE, raising=False)
    plain = TorideBot(service)
    assert plain.intents.value == 1  # guilds only
    assert not plain.intents.message_content and not plain.intents.guild_messages
    monkeypatch.setenv(ENV_CHAT_DICE, "1")
    chat = TorideBot(service)
    assert chat.intents.guilds and chat.intents.guild_messages and chat.intents.message_content
    assert not chat.intents.members and not chat.intents.dm_messages


async def test_a_secret_command_is_announced_and_its_result_sent_by_dm(chat: Harness, dice: Dice) -> None:
    await enable(chat)
    dice.feed(6, 5)
    message = chat_message(BOB, "S2d6+5 隠れて", chat.guild_id, CHANNEL_ID)
    sent = await post(chat, message)
    public = [r for r in sent if r.path == f"/channels/{CHANNEL_ID}/messages"]
    (notice,) = public
    assert str(notice.data["message_reference"]["message_id"]) == message["id"]
    assert "シークレットダイス" in notice.text() and "16" not in notice.text()
    dm = [r for r in sent if r.path == f"/channels/{DM_CHANNEL_BASE + BOB.id % 1000}/messages"]
    (result,) = dm
    assert "(2D6+5) ＞ 11[6,5]+5 ＞ 16" in result.text()
    assert [r.path for r in sent if r.path == "/users/@me/channels"] == ["/users/@me/channels"]


async def test_a_refused_secret_command_is_for_the_roller_alone(chat: Harness) -> None:
    await enable(chat)
    message = chat_message(BOB, "S2d6", chat.guild_id, CHANNEL_ID)
    sent = await post(chat, message)
    (notice,) = [r for r in sent if r.path == f"/channels/{CHANNEL_ID}/messages"]
    assert notice.embeds[0]["description"] == "ボブがシークレットダイスを振りました。"
    assert "台本" not in notice.text()
    (refusal,) = [r for r in sent if r.path == f"/channels/{DM_CHANNEL_BASE + BOB.id % 1000}/messages"]
    assert "台本のダイス" in refusal.text()


@pytest.mark.parametrize(
    ("message", "line"),
    [
        ("2d6+5 命中", "2d6+5 命中"),
        ("x3 2d6 攻撃", "x3 2d6 攻撃"),  # a repeat's command is past its first space
        ("choice 東 西 南", "choice 東 西 南"),
        ("S2d6 こっそり\n二行目", "S2d6 こっそり"),
        (" 2d6", None),  # a leading space: not a command (BCDice)
        ("hello 2d6", None),
        ("こんにちは", None),
    ],
)
def test_the_command_line_a_message_begins_with(message: str, line: str | None) -> None:
    from bot.service.chat import command_line

    assert command_line(message) == line
