"""``/fort odds`` through the real discord.py client: the reply defers at once, then carries the
answer and its chart (an attachment shown as the embed's image); while a plan runs, commands in other
channels and in the same one go on."""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import AsyncIterator

import pytest
from discord_harness import ALICE, APPLICATION_ID, BOB, CHANNEL_ID, GM, Dice, Harness, Request
from odds_gate import gated
from PIL import Image

from bot.rulesets.fort.pictures import odds_chart
from bot.rulesets.fort.planner.runner import OddsRunner
from bot.service import BattleService
from bot.storage.interface import Storage

OTHER_CHANNEL = CHANNEL_ID + 1


async def setup(harness: Harness, channel: int = CHANNEL_ID) -> None:
    await harness.run(GM, "fort start", channel_id=channel, rounds=2, fort_hp=40, title="北の砦")
    await harness.run(
        GM, "unit add", channel_id=channel, name="破城槌", type="ram", area="A1", hp=15, fort_damage=0,
        strike="2d+10",
    )  # fmt: skip


def edit_of(requests: list[Request]) -> Request:
    (edit,) = [r for r in requests if r.method == "PATCH" and r.path.endswith("/messages/@original")]
    assert edit.path.startswith(f"/webhooks/{APPLICATION_ID}/")
    return edit


def chart(edit: Request) -> Image.Image:
    ((name, data),) = edit.files
    assert name.startswith(f"fort-odds-{CHANNEL_ID}-1-") and name.endswith(".png")
    assert edit.embeds[-1]["image"]["url"] == f"attachment://{name}"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


async def test_the_reply_defers_then_carries_the_answer_and_its_chart(harness: Harness) -> None:
    await setup(harness)
    result = await harness.run(ALICE, "fort odds", runs=2000, seed=3, pc_damage="Alice=2d+4")
    assert result.response.type == 5 and not result.response.ephemeral  # "thinking ..." at once
    edit = edit_of(result.requests)
    assert chart(edit).size == (odds_chart.WIDTH, odds_chart.HEIGHT)
    embed = edit.embeds[0]
    assert embed["title"] == "Will the fort hold? 北の砦"  # ALICE reads English
    assert embed["description"].splitlines()[0].startswith("The defence holds: ")
    assert "Alice=2d+4 (physical)" in embed["description"]
    assert "2,000 battles, seed 3, from now (round 1 of 2)." in embed["description"]
    assert edit.payload is not None and edit.payload["allowed_mentions"] == {"parse": []}
    (attachment,) = edit.data["attachments"]
    assert attachment["description"].startswith("The defence holds: ")


async def test_a_refusal_after_the_deferral_is_shown_only_to_the_user(harness: Harness) -> None:
    await setup(harness)
    result = await harness.run(BOB, "fort odds", pc_damage="2d:holy")
    deferred, deleted, followup = [r for r in result.requests if r.via == "webhook"]
    assert deferred.type == 5
    assert (deleted.method, deleted.path.endswith("/messages/@original")) == ("DELETE", True)
    assert followup.ephemeral and "種類「holy」は使えません" in followup.text()


@pytest.fixture
async def gated_harness(storage: Storage, dice: Dice) -> AsyncIterator[tuple[Harness, object, object]]:
    runner = OddsRunner()
    started, gate = runner.context.Event(), runner.context.Event()
    runner.target = functools.partial(gated, started, gate)
    h = await Harness.create(BattleService(storage, dice, planners={"fort": runner}), defer_after=None)
    yield h, started, gate
    gate.set()
    await h.bot.coalescer.close()


async def test_a_long_plan_delays_no_command_here_or_in_another_channel(
    gated_harness: tuple[Harness, object, object],
) -> None:
    harness, started, gate = gated_harness
    await setup(harness)
    await setup(harness, OTHER_CHANNEL)
    payload = harness._base(GM, 2, harness.command_data("fort odds", {"runs": 1000, "seed": 1}))
    before = asyncio.all_tasks()
    start = len(harness.recorder.requests)
    harness.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    planning = asyncio.all_tasks() - before
    # the plan is running in its worker (and held there until the gate opens)
    assert await asyncio.to_thread(started.wait, 60)  # type: ignore[attr-defined]
    other = await harness.run(BOB, "fort status", channel_id=OTHER_CHANNEL)
    assert other.response.type == 4 and "北の砦" in other.text()
    here = await harness.run(
        GM, "unit add", name="ゴブリン隊", type="normal", area="A2", hp=12, fort_damage=8
    )  # the same channel: the planner read the battle, it does not hold the channel
    assert here.response.type == 4 and not here.ephemeral
    again = await harness.run(BOB, "fort odds")  # one plan per channel at a time
    assert again.response.type == 5
    refused = again.followups[-1]
    busy = "このチャンネルの防衛予測がまだ計算中です(1000回中0回まで)。"
    assert refused.ephemeral and busy in refused.text()
    assert not any(t.done() for t in planning)
    assert next(r for r in harness.recorder.requests[start:] if r.path.endswith("/callback")).type == 5
    assert not [r for r in harness.recorder.requests[start:] if r.method == "PATCH"]
    gate.set()  # type: ignore[attr-defined]
    await harness.settle()
    edit = edit_of(harness.recorder.requests[start:])
    assert chart(edit).size == (odds_chart.WIDTH, odds_chart.HEIGHT)
    # it answered for the battle it read: the ram alone
    assert "破城槌" in edit.embeds[0]["description"] and "ゴブリン隊" not in edit.embeds[0]["description"]
