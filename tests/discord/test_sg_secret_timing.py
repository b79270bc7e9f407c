"""S-HIDE-1 in time: a secret action leaves no public trace in *when* things happen either.

A command whose reply will be secret defers ephemerally, so the channel never sees a "thinking ..."
appear and vanish; the live status message is edited only when what the table sees changed, so no
edit follows a secret action. The database is held back by a gate (never a timer): the deferral
deadline is 0, so the reply is late the moment the command starts, whatever the machine's speed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord_harness import ALICE, GM, Dice, Gate, Harness, Request, Result

#: the ambusher no public message may name
AMBUSHER = "ルーミア"


async def _held_back(h: Harness, gate: Gate, payload: dict[str, Any]) -> tuple[list[Request], Result]:
    """Send ``payload`` while the gate holds the service: what was sent meanwhile, then everything."""
    start = len(h.recorder.requests)
    before = asyncio.all_tasks()
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    for _ in range(10000):  # bounded: until the deferral was sent while the gate holds
        if len(h.recorder.requests) > start:
            break
        await asyncio.sleep(0)
    assert gate.held == 1 and not gate.opened.is_set()
    meanwhile = list(h.recorder.requests[start:])
    gate.opened.set()
    await h.settle(before)
    await h.live_quiet()
    return meanwhile, Result(h.recorder.requests[start:])


async def _battle(h: Harness) -> None:
    await h.run(GM, "sg start", title="庭", gm_fixed="checks")
    await h.run(ALICE, "sg join", name="霊夢", dp_max=18, recovery=3, hp=20)
    await h.run(GM, "sg join", name=AMBUSHER, dp_max=16, recovery=4, side="enemy", hidden=True)
    await h.flush_live()


@pytest.mark.parametrize(
    ("path", "options"),
    [
        ("sg hide", {"name": AMBUSHER, "base": 6, "dice": 2}),
        ("sg declare", {"name": AMBUSHER, "dp": 10}),
        ("sg surprise", {"attacker": AMBUSHER, "target": "霊夢", "distance": 50}),
        ("sg join", {"name": "大妖精", "dp_max": 12, "recovery": 3, "side": "enemy", "hidden": True}),
    ],
)
async def test_s_hide_1_a_slow_secret_command_never_shows_a_public_placeholder(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, path: str, options: dict[str, Any]
) -> None:
    h = harness
    await _battle(h)
    if path == "sg declare":
        await h.run(GM, "sg turn")
        await h.flush_live()
    h.bot.frontend.defer_after = 0.0  # the reply is late as soon as the command starts
    gate = Gate()
    monkeypatch.setattr(h.bot.service, "execute", gate.hold(h.bot.service.execute))
    payload = h._base(GM, 2, h.command_data(path, options))
    meanwhile, result = await _held_back(h, gate, payload)
    (deferral,) = meanwhile
    assert deferral.type == 5 and deferral.ephemeral  # "thinking ..." for the GM alone
    later = result.requests[1:]
    assert [(r.method, r.path.rsplit("/", 1)[-1]) for r in later] == [("PATCH", "@original")]
    assert AMBUSHER in later[0].text() or "大妖精" in later[0].text()  # the GM's answer, in the same message
    assert all(r.method != "DELETE" for r in result.requests)  # nothing appeared and vanished
    assert [r for r in result.requests if r.via == "http"] == []  # no edit of the public status


async def test_s_hide_1_a_slow_public_command_still_defers_publicly(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: what the table may read is deferred in the channel, as before."""
    h = harness
    await _battle(h)
    h.bot.frontend.defer_after = 0.0
    gate = Gate()
    monkeypatch.setattr(h.bot.service, "execute", gate.hold(h.bot.service.execute))
    payload = h._base(GM, 2, h.command_data("sg join", {"name": "妖精", "dp_max": 12, "recovery": 3}))
    meanwhile, result = await _held_back(h, gate, payload)
    (deferral,) = meanwhile
    assert deferral.type == 5 and not deferral.ephemeral
    assert [r.method for r in result.requests if r.via == "webhook"][-1] == "PATCH"


async def test_s_hide_1_the_live_status_is_not_edited_after_a_secret_action(harness: Harness) -> None:
    h = harness
    await _battle(h)
    edits = [r for r in await h.flush_live() if r.via == "http"]
    assert edits == []  # the hidden join changed nothing the table sees
    for path, options in (
        ("sg hide", {"name": AMBUSHER, "base": 6, "dice": 2}),
        ("gm set", {"target": f"{AMBUSHER}.dp", "value": "9"}),
    ):
        result = await h.run(GM, path, **options)
        assert result.ephemeral, path
        assert [r for r in await h.flush_live() if r.via == "http"] == [], path
    await h.run(ALICE, "sg spellcard", name="霊夢", declare="霊符「夢想封印」")  # a public change
    (edit,) = [r for r in await h.flush_live() if r.via == "http"]
    assert edit.method == "PATCH" and "夢想封印" in edit.text() and AMBUSHER not in edit.text()


async def test_s_hide_1_a_slow_secret_command_that_turns_out_public_still_reaches_the_channel(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, dice: Dice
) -> None:
    """A hidden searcher's search is deferred for the GM alone; when it finds a hidden PC, that one
    appears to everyone: the GM's answer fills the deferred message, the channel gets it besides."""
    h = harness
    await _battle(h)
    await h.run(ALICE, "sg join", name="射命丸文", dp_max=15, recovery=3, hidden=True)
    dice.feed(1)
    await h.run(ALICE, "sg hide", name="射命丸文", base=2, dice=1)  # 3
    await h.flush_live()
    h.bot.frontend.defer_after = 0.0
    gate = Gate()
    monkeypatch.setattr(h.bot.service, "execute", gate.hold(h.bot.service.execute))
    payload = h._base(GM, 2, h.command_data("sg search", {"name": AMBUSHER, "base": 9, "dice": 0}))
    meanwhile, result = await _held_back(h, gate, payload)
    (deferral,) = meanwhile
    assert deferral.type == 5 and deferral.ephemeral
    webhook = [r for r in result.requests if r.via == "webhook"][1:]
    edit, shown = webhook[0], webhook[1]
    assert (edit.method, edit.path.rsplit("/", 1)[-1]) == ("PATCH", "@original")
    assert shown.method == "POST" and not shown.ephemeral and "射命丸文" in shown.text()
    assert AMBUSHER not in shown.text()  # the searcher stays hidden


async def test_s_hide_1_a_slow_export_with_what_is_hidden_defers_for_the_gm_alone(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await _battle(h)
    h.bot.frontend.defer_after = 0.0
    gate = Gate()
    monkeypatch.setattr(h.bot.service, "execute", gate.hold(h.bot.service.execute))
    meanwhile, result = await _held_back(h, gate, h._base(GM, 2, h.command_data("sg export", {})))
    (deferral,) = meanwhile
    assert deferral.type == 5 and deferral.ephemeral
    (edit,) = result.requests[1:]
    assert (edit.method, edit.path.rsplit("/", 1)[-1]) == ("PATCH", "@original")
    ((_, content),) = edit.files
    assert AMBUSHER in content.decode("utf-8")  # the GM's whole battle, to the GM
    gate.held = 0
    gate.opened.clear()
    meanwhile, _ = await _held_back(h, gate, h._base(ALICE, 2, h.command_data("sg export", {})))
    assert [r.ephemeral for r in meanwhile] == [False]  # a player's: the table's battle, in the channel
