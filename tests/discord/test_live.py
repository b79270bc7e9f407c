"""The live status message: posted once, edited after changes, at most once every 2 s per channel."""

from __future__ import annotations

import asyncio

from discord_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GM,
    GUILD_ID,
    Dice,
    FakeClock,
    Harness,
    Request,
    message_payload,
    user_payload,
)

from bot.discord.coalesce import Coalescer
from bot.service import BattleService, Where
from bot.storage.interface import Storage

OTHER_CHANNEL = CHANNEL_ID + 1


async def test_coalescer_runs_the_latest_job_once_per_interval() -> None:
    clock = FakeClock()
    coalescer = Coalescer(2.0, clock=clock, sleep=clock.sleep)
    ran: list[str] = []

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            ran.append(f"{name}@{clock.now - 1000:g}")

        return run

    coalescer.submit("c1", job("a"))
    await asyncio.sleep(0)
    assert ran == ["a@0"]
    clock.advance(0.5)
    for name in "bcd":
        coalescer.submit("c1", job(name))
    coalescer.submit("c2", job("x"))  # another channel is not held back
    for _ in range(3):
        await asyncio.sleep(0)
    assert ran == ["a@0", "x@0.5"]
    assert clock.sleeps == [1.5]
    clock.advance(1.5)
    await coalescer.drain()
    assert ran == ["a@0", "x@0.5", "d@2"]
    assert coalescer.runs == 3

    # a failing job is logged, and the channel keeps working
    async def boom() -> None:
        raise RuntimeError("discord is down")

    clock.advance(5)
    coalescer.submit("c1", boom)
    await coalescer.drain()
    coalescer.submit("c1", job("e"))
    for _ in range(3):
        await asyncio.sleep(0)
    clock.advance(2)
    await coalescer.drain()
    assert ran[-1] == "e@9"


async def test_a_busy_table_costs_one_edit_per_two_seconds(harness: Harness, dice: Dice) -> None:
    start = await harness.run(GM, "fort start", rounds=3)
    (post,) = start.channel
    assert (post.method, post.path) == ("POST", f"/channels/{CHANNEL_ID}/messages")
    requests = list(harness.channel_requests())
    assert requests == [post]
    # five changes in the same instant: none edits at once, they wait for the interval
    for name in ("A", "B", "C", "D", "E"):
        result = await harness.run(GM, "unit add", name=name, type="normal", area="A2", hp=5, fort_damage=1)
        assert result.channel == []
    (edit,) = await harness.flush_live()
    assert edit.method == "PATCH"
    message_id = int(edit.path.split("/")[-1])
    assert edit.path == f"/channels/{CHANNEL_ID}/messages/{message_id}"
    # the edit shows the latest state: all five units
    assert edit.embeds[0]["fields"][0] == {
        "name": "A2",
        "value": "\n".join(f"• {n} HP 5/5 砦ダメージ1" for n in "ABCDE"),
        "inline": False,
    }
    assert harness.clock.sleeps == [2.0]
    # long after, a change edits at once (no wait), the same message
    harness.clock.advance(60)
    result = await harness.run(ALICE, "pc add", name="Alice")
    (edit2,) = result.channel
    assert edit2.path == edit.path and edit2.method == "PATCH"
    # a refused command does not touch the status message
    assert (await harness.run(BOB, "fort next")).channel == []
    assert await harness.flush_live() == []


async def test_each_channel_has_its_own_status_message(harness: Harness) -> None:
    first = await harness.run(GM, "fort start", rounds=1)
    second = await harness.run(GM, "fort start", channel_id=OTHER_CHANNEL, rounds=2)
    assert [r.path for r in first.channel] == [f"/channels/{CHANNEL_ID}/messages"]
    assert [r.path for r in second.channel] == [f"/channels/{OTHER_CHANNEL}/messages"]
    assert second.channel[0].embeds[0]["title"] == "【砦防衛戦】 第1/2ラウンド PC側の手番"


async def test_a_deleted_status_message_is_posted_again(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=1)
    harness.clock.advance(10)
    harness.http.fail[("PATCH", f"/channels/{CHANNEL_ID}/messages/")] = 404
    result = await harness.run(GM, "pc add", name="Alice")
    assert [(r.method, r.path.count("/")) for r in result.channel] == [("PATCH", 4), ("POST", 3)]
    assert not result.ephemeral


async def test_no_permission_to_post_is_not_the_users_problem(harness: Harness) -> None:
    harness.http.fail[("POST", f"/channels/{CHANNEL_ID}/messages")] = 403
    result = await harness.run(GM, "fort start", rounds=1)
    assert not result.ephemeral and result.embeds[0]["title"] == "/砦 開始 ラウンド数:1"
    assert [r.method for r in result.channel] == ["POST"]


async def _forget_stored_status_message(harness: Harness) -> None:
    """A battle from before revision 0002: no status message id stored with it."""
    view = await harness.bot.service.status(Where(str(GUILD_ID), str(CHANNEL_ID)))
    assert view is not None and view.battle_id is not None
    await harness.bot.service.set_status_message(view.battle_id, None)


async def test_a_battle_without_a_stored_id_finds_its_status_message_in_the_history(
    harness: Harness,
) -> None:
    start = await harness.run(GM, "fort start", rounds=2)
    (post,) = start.channel
    assert post.payload is not None
    status_message = message_payload(777000000000000001, CHANNEL_ID, post.payload)
    someone = {
        **message_payload(777000000000000002, CHANNEL_ID, {"content": "hi"}),
        "author": user_payload(5, "x"),
    }
    old_result = message_payload(777000000000000003, CHANNEL_ID, {"embeds": post.payload["embeds"]})
    harness.http.history[CHANNEL_ID] = [someone, old_result, status_message]
    # a new process, and a battle that has no status message id stored
    await _forget_stored_status_message(harness)
    harness.bot.live.messages.clear()
    harness.bot.live._searched.clear()
    harness.clock.advance(10)
    result = await harness.run(GM, "pc add", name="Alice")
    assert [(r.method, r.path) for r in result.channel] == [
        ("GET", f"/channels/{CHANNEL_ID}/messages"),
        ("PATCH", f"/channels/{CHANNEL_ID}/messages/777000000000000001"),
    ]
    # found once, and stored: the next change edits without searching, also after another restart
    harness.clock.advance(10)
    result = await harness.run(GM, "pc add", name="Bob")
    assert [r.method for r in result.channel] == ["PATCH"]
    harness.bot.live.messages.clear()
    harness.bot.live._searched.clear()
    harness.clock.advance(10)
    result = await harness.run(GM, "pc add", name="Carol")
    assert [(r.method, r.path) for r in result.channel] == [
        ("PATCH", f"/channels/{CHANNEL_ID}/messages/777000000000000001")
    ]


async def test_no_status_message_in_the_history_posts_a_new_one(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=2)
    await _forget_stored_status_message(harness)
    harness.bot.live.messages.clear()
    harness.bot.live._searched.clear()
    harness.clock.advance(10)
    result = await harness.run(GM, "pc add", name="Alice")
    assert [r.method for r in result.channel] == ["GET", "POST"]
    posted = message_id_of(result.channel[1])
    # the new message is stored with the battle
    view = await harness.bot.service.status(Where(str(GUILD_ID), str(CHANNEL_ID)))
    assert view is not None and view.battle_id is not None
    assert await harness.bot.service.status_message(view.battle_id) == posted


def message_id_of(request: Request) -> int:
    """The id the recording HTTP client gave the message a POST created."""
    assert request.reply is not None
    return int(request.reply["id"])


async def test_after_a_restart_the_same_status_message_is_edited(
    storage: Storage, harness: Harness, dice: Dice
) -> None:
    start = await harness.run(GM, "fort start", rounds=2)
    (post,) = start.channel
    message_id = message_id_of(post)
    await harness.bot.coalescer.close()
    # a new process on the same database: a new service and client, which never saw the message
    restarted = await Harness.create(BattleService(storage, dice), defer_after=None)
    try:
        restarted.clock.advance(10)
        result = await restarted.run(GM, "pc add", name="Alice")
        assert [(r.method, r.path) for r in result.channel] == [
            ("PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}")
        ]
        assert result.channel[0].embeds[0]["title"] == "【砦防衛戦】 第1/2ラウンド PC側の手番"
        # the end of the battle edits it one last time (no buttons) and lets it go
        restarted.clock.advance(10)
        end = await restarted.run(GM, "fort end")
        (final,) = end.channel
        assert (final.method, final.path) == ("PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}")
        assert final.data["components"] == []
        view = await restarted.bot.service.status(Where(str(GUILD_ID), str(CHANNEL_ID)))
        assert view is not None and view.battle_id is not None and view.ended
        assert await restarted.bot.service.status_message(view.battle_id) is None
    finally:
        await restarted.bot.coalescer.close()


async def test_a_new_battle_gets_its_own_status_message(harness: Harness) -> None:
    first = await harness.run(GM, "fort start", rounds=1)
    await harness.run(GM, "fort end")
    (final,) = await harness.flush_live()
    assert final.method == "PATCH" and final.path.endswith(f"/{message_id_of(first.channel[0])}")
    harness.clock.advance(10)
    second = await harness.run(GM, "fort start", rounds=2)
    (post,) = second.channel
    assert post.method == "POST" and message_id_of(post) != message_id_of(first.channel[0])
