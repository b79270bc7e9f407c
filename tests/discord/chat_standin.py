"""Chat dice through the stand-in for Discord (``fake_discord``): the bot as a process, channels that
allow chat dice (``/settings chat_dice:true`` over the gateway), messages sent as MESSAGE_CREATE
events, and the reply each got (found by its ``message_reference``). For the tests and
``benchmarks/chat_dice.py``."""

from __future__ import annotations

from typing import Any

from chat_payloads import chat_message
from discord_harness import MEMBER_PERMISSIONS, Member
from fake_discord import Call, FakeDiscord, Session

#: Manage Server
ADMIN = Member(980000000000000001, "Admin", permissions=MEMBER_PERMISSIONS | (1 << 5))
PLAYER = Member(980000000000000002, "ボブ")
#: the intents' bits (Discord's Gateway Intents)
GUILDS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 15


async def allow_chat_dice(fake: FakeDiscord, session: Session, guild: int, channel: int) -> Call:
    data = fake.command_data("settings", {"chat_dice": True})
    interaction = await fake.interact(session, ADMIN, guild, channel, 2, data)
    return await fake.callback(interaction)


async def say(
    fake: FakeDiscord, session: Session, guild: int, channel: int, text: str, member: Member = PLAYER
) -> dict[str, Any]:
    """Post ``text`` in the channel as ``member`` (a MESSAGE_CREATE event); the message."""
    message = chat_message(member, text, guild, channel)
    await fake.dispatch(session, "MESSAGE_CREATE", message)
    return message


def replies(fake: FakeDiscord, message: dict[str, Any], start: int = 0) -> list[Call]:
    """Every reply the bot sent to ``message`` (tried, 429s included)."""
    channel = int(message["channel_id"])
    return [
        c
        for c in fake.calls[start:]
        if c.method == "POST"
        and c.path == f"/channels/{channel}/messages"
        and str(((c.body or {}).get("message_reference") or {}).get("message_id")) == message["id"]
    ]
