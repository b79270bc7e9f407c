"""Chat dice with the bot as a real process against the stand-in (issue 35 item 2): the intents it
asks the gateway for (Message Content only with ``TORIDE_CHAT_DICE=1``), a dice message answered once
as a reply, and a channel's rate limit (429 with ``retry_after``) waited out by discord.py's HTTP
layer: the reply sent again after the wait, and arriving once; nothing dropped."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_process import BotProcess, fresh_database
from chat_standin import GUILD_MESSAGES, GUILDS, MESSAGE_CONTENT, allow_chat_dice, replies, say
from fake_discord import IDENTIFY, FakeDiscord, guild_on_shard

GUILD = guild_on_shard(0, 1)
CHANNEL = 990000000000000001
QUIET = 990000000000000002

pytestmark = pytest.mark.xdist_group("processes")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    stand_in = FakeDiscord([GUILD])
    await stand_in.start()
    yield stand_in
    await stand_in.stop()


async def run(fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess], **env: str) -> BotProcess:
    async with fresh_database(tmp_path, None) as database:
        log = tmp_path / f"bot-{len(processes)}.log"
        bot = BotProcess(fake, database, log, "--dev-guild", str(GUILD), env=env)
    processes.append(bot)
    await bot.start()
    await bot.ready()
    return bot


async def test_without_the_variable_no_message_intent(
    fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess]
) -> None:
    await run(fake, tmp_path, processes)
    ((op, identify),) = fake.gateway_ops
    assert op == IDENTIFY and identify["intents"] == GUILDS


async def test_a_reply_after_a_429_arrives_once(
    fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess]
) -> None:
    await run(fake, tmp_path, processes, TORIDE_CHAT_DICE="1")
    ((op, identify),) = fake.gateway_ops
    assert op == IDENTIFY and identify["intents"] == GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT
    session = fake.session(0)
    allowed = await allow_chat_dice(fake, session, GUILD, CHANNEL)
    assert allowed.type == 4 and not allowed.ephemeral and "チャットダイスをオン" in allowed.text()

    message = await say(fake, session, GUILD, CHANNEL, "2d6+5 命中")
    (reply,) = await fake.wait_for(lambda: replies(fake, message), "the reply")
    assert reply.status == 200 and "(2D6+5) ＞ " in reply.text() and "命中" in reply.text()

    # the channel's bucket is spent: Discord answers 429, the bot waits retry_after and sends again
    fake.rate_limit("POST", f"/channels/{CHANNEL}/messages", retry_after=0.5)
    mark = len(fake.calls)
    message = await say(fake, session, GUILD, CHANNEL, "K20+5@10 ハンマー")
    refused, sent = await fake.wait_for(
        lambda: (found := replies(fake, message, mark)) and len(found) >= 2 and found, "the reply sent again"
    )
    assert (refused.status, sent.status) == (429, 200)
    assert sent.at - refused.at >= 0.45 and "KeyNo.20" in sent.text()

    # a message that is no dice command, one in a channel without chat dice, the same event twice
    mark = len(fake.calls)
    plain = await say(fake, session, GUILD, CHANNEL, "こんにちは 2d6")
    elsewhere = await say(fake, session, GUILD, QUIET, "2d6")
    twice = await say(fake, session, GUILD, CHANNEL, "1d6")
    await fake.dispatch(session, "MESSAGE_CREATE", twice)
    await fake.wait_for(lambda: replies(fake, twice, mark), "the reply to 1d6")
    await asyncio.sleep(0.5)  # time for anything else the bot would (wrongly) send
    assert replies(fake, plain, mark) == [] and replies(fake, elsewhere, mark) == []
    assert len(replies(fake, twice, mark)) == 1
    posted = [c for c in fake.calls[mark:] if c.method == "POST" and "/messages" in c.path]
    assert len(posted) == 1
