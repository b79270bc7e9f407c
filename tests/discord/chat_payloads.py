"""Chat messages as Discord's gateway sends them (MESSAGE_CREATE, MESSAGE_UPDATE): a real message
object's fields, with the guild's ``guild_id`` and the author's ``member``."""

from __future__ import annotations

from typing import Any

from discord_harness import TIMESTAMP, Member, snowflake, user_payload


def chat_message(
    member: Member,
    content: str,
    guild_id: int,
    channel_id: int,
    *,
    bot: bool = False,
    message_id: int | None = None,
    edited: bool = False,
) -> dict[str, Any]:
    author = {**user_payload(member.id, member.name), "public_flags": 0}
    if bot:
        author["bot"] = True
    payload: dict[str, Any] = {
        "id": str(message_id if message_id is not None else snowflake()),
        "type": 0,
        "channel_id": str(channel_id),
        "guild_id": str(guild_id),
        "author": author,
        "member": {
            "roles": [str(r) for r in member.roles],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
            "premium_since": None,
        },
        "content": content,
        "timestamp": TIMESTAMP,
        "edited_timestamp": TIMESTAMP if edited else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "flags": 0,
        "components": [],
        "nonce": str(snowflake()),
    }
    return payload
