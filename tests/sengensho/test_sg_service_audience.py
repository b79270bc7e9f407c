"""S-HIDE-1 through the service: each reader's view of the skirmish (``bot.service.audience``).

The table's part of every reply, the status, the log and the export never name the hidden ambusher
before it strikes; the GM (and a hidden character's owner) read the rest, to themselves only.
"""

from __future__ import annotations

import json
from typing import Any

from sg_skirmish import AMBUSHER, SKIRMISH, Step

from bot.render.text import render
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.views import ErrorView, EventsView, ExportView, LogView, StatusView, UndoView, View
from engine.dice import ScriptedDice

HERE = Where("g1", "c1")
GM = Actor("gm")


def actor(who: str) -> Actor:
    return Actor(who)


async def run(service: BattleService, who: str, path: str, **options: Any) -> View:
    return await service.execute(HERE, actor(who), Invocation(path, options, f"/{path}"))


def public_text(view: View) -> str:
    """What the channel would read of a reply: the view without its private part, rendered."""
    return render(view, "ja") if view.private is None else render(_without_private(view), "ja")


def _without_private(view: View) -> View:
    from dataclasses import replace

    return replace(view, private=None)


async def play(service: BattleService, until: str) -> list[tuple[Step, View]]:
    out = []
    for step in SKIRMISH:
        view = await service.execute(
            HERE, actor(step.who), Invocation(step.path, step.options, "/" + step.path)
        )
        if step.refused is not None:
            assert isinstance(view, ErrorView) and view.key == step.refused, (step.label, view)
        else:
            assert view.ok, (step.label, view)
        out.append((step, view))
        if step.label == until:
            return out
    raise AssertionError(until)


async def test_s_hide_1_each_reader_sees_what_they_may(sg_storage: Storage) -> None:
    dice = [d for step in SKIRMISH for d in step.dice]
    service = BattleService(sg_storage, ScriptedDice(dice))
    played = await play(service, "霊夢's damage dice")
    for step, view in played:
        if not view.ephemeral:
            assert AMBUSHER not in public_text(view), step.label
    replies = {step.label: view for step, view in played}
    # the ambusher's join and hiding: the GM's only, whole
    for label in ("ルーミア joins unseen", "ルーミア hides"):
        assert replies[label].ephemeral and isinstance(replies[label], EventsView), label
    # the turn: public recovery and order, and beside them for the GM the contests due
    turn = replies["turn 1"]
    assert isinstance(turn, EventsView) and not turn.ephemeral and turn.private is not None
    assert [e.kind for e in turn.private.events] == ["sg.hidden_turn"]
    assert "霊夢、小傘" in render(turn.private, "ja")
    # a player's search: the roll is public, the outcome secret (and not theirs to read)
    search = replies["霊夢 searches"]
    assert isinstance(search, EventsView) and (search.private, search.command) == (None, "/sg search")
    assert [e.kind for e in search.events] == ["sg.search_rolled"]

    # status: the table's, a player's own, the GM's with what is hidden
    public = await run(service, "u1", "sg status")
    assert isinstance(public, StatusView) and not public.ephemeral
    assert AMBUSHER not in render(public, "ja")
    own = await run(service, "u1", "sg status", gm=True)
    assert isinstance(own, StatusView) and own.ephemeral and AMBUSHER not in render(own, "ja")
    full = await run(service, "gm", "sg status", gm=True)
    assert isinstance(full, StatusView) and full.ephemeral
    lines = render(full, "ja").splitlines()
    assert "潜伏中(GMと持ち主だけに表示):" in lines
    assert any(line.startswith("18 ルーミア(敵側)") and "[潜伏中 隠密13]" in line for line in lines)
    live = await service.status(HERE)
    assert live is not None and AMBUSHER not in json.dumps(live.document, ensure_ascii=False)
    gm_names = await service.status(HERE, GM)  # autocomplete: the GM's names include it
    assert gm_names is not None and AMBUSHER in [c["name"] for c in gm_names.document["characters"]]

    # the log: secret actions withheld from the table, whole for the GM
    log = await run(service, "u1", "sg log", last=20)
    assert isinstance(log, LogView) and not log.ephemeral
    assert AMBUSHER not in render(log, "ja")
    # S-HIDE-1: only public actions, numbered as the table counts them: no gap, no placeholder
    assert "秘匿" not in render(log, "ja")
    assert [e.seq for e in log.entries] == list(range(1, len(log.entries) + 1))
    gm_log = await run(service, "gm", "sg log", last=20, gm=True)
    assert isinstance(gm_log, LogView) and gm_log.ephemeral and "/千幻抄 隠密" in render(gm_log, "ja")
    assert len(gm_log.entries) == len(log.entries) + 2  # the hidden join and the hiding, real numbers
    assert [e.seq for e in gm_log.entries] == list(range(1, len(gm_log.entries) + 1))
    short = await run(service, "u1", "sg log", last=3)
    assert isinstance(short, LogView) and [e.seq for e in short.entries] == [
        len(log.entries) - 2,
        len(log.entries) - 1,
        len(log.entries),
    ]

    # the export: the GM's whole, to the GM; a player's, what the table knows
    export = await run(service, "gm", "sg export")
    assert (
        isinstance(export, ExportView)
        and export.ephemeral
        and AMBUSHER in json.dumps(export.document, ensure_ascii=False)
    )
    player_export = await run(service, "u1", "sg export")
    assert isinstance(player_export, ExportView) and not player_export.ephemeral
    assert AMBUSHER not in json.dumps(player_export.document, ensure_ascii=False)

    # a player naming the hidden character finds no one there
    refused = await run(
        service, "u1", "sg roll", name="霊夢", dice=1, base=1, kind="resist", against=AMBUSHER
    )
    assert isinstance(refused, ErrorView) and refused.key == "sg.unknown_character"

    # the ambusher strikes: from then on the table reads of it
    played = await play_from(service, "妖精 is hit", "ルーミア attacks")
    named, strike = played[-2][1], played[-1][1]
    assert isinstance(named, EventsView) and named.ephemeral  # S-SUR-5: named before its attack, secret
    assert isinstance(strike, EventsView) and not strike.ephemeral and AMBUSHER in render(strike, "ja")


async def play_from(service: BattleService, after: str, until: str) -> list[tuple[Step, View]]:
    steps = SKIRMISH[[s.label for s in SKIRMISH].index(after) + 1 :]
    out = []
    for step in steps:
        view = await service.execute(
            HERE, actor(step.who), Invocation(step.path, step.options, "/" + step.path)
        )
        out.append((step, view))
        if step.label == until:
            return out
    raise AssertionError(until)


async def test_s_hide_1_undoing_a_secret_action_tells_the_table_nothing(sg_storage: Storage) -> None:
    service = BattleService(sg_storage, ScriptedDice([]))
    await run(service, "gm", "sg start", gm_fixed="checks")
    await run(service, "gm", "sg join", name="ルーミア", dp_max=16, recovery=4, side="enemy", hidden=True)
    await run(service, "gm", "sg hide", name="ルーミア", base=6, dice=2)
    undo = await run(service, "gm", "gm undo", steps=2)
    assert isinstance(undo, UndoView) and undo.ephemeral and undo.private is None  # the GM's alone
    assert "/千幻抄 隠密" in render(undo, "ja") and [e.seq for e in undo.entries] == [3, 2]
    log = await run(service, "u1", "sg log", last=20)
    assert isinstance(log, LogView) and [e.seq for e in log.entries] == [1]  # the start, nothing else
    assert AMBUSHER not in render(log, "ja") and "取り消" not in render(log, "ja")


async def test_s_hide_1_undo_of_public_and_secret_actions_counts_the_public_ones(sg_storage: Storage) -> None:
    service = BattleService(sg_storage, ScriptedDice([]))
    await run(service, "gm", "sg start", gm_fixed="checks")
    await run(service, "gm", "sg join", name="ルーミア", dp_max=16, recovery=4, side="enemy", hidden=True)
    await run(service, "gm", "sg join", name="妖精", dp_max=12, recovery=3, side="enemy")
    joined = await run(service, "gm", "sg join", name="チルノ", dp_max=12, recovery=3, side="enemy")
    assert isinstance(joined, EventsView) and joined.seq == 3  # the table's third action (the log's #4)
    undo = await run(service, "gm", "gm undo", steps=3)
    assert isinstance(undo, UndoView) and not undo.ephemeral
    assert [e.seq for e in undo.entries] == [3, 2] and undo.requested == 2
    assert AMBUSHER not in render(_without_private(undo), "ja")
    assert "2件の操作を取り消しました" in render(_without_private(undo), "ja")
    assert isinstance(undo.private, UndoView) and [e.seq for e in undo.private.entries] == [4, 3, 2]
    log = await run(service, "u1", "sg log", last=20)
    assert isinstance(log, LogView) and [e.seq for e in log.entries] == [1, 2, 3, 4]
    assert "2件の操作を取り消しました(#3、2)" in render(log, "ja")
    gm_log = await run(service, "gm", "sg log", last=20, gm=True)
    assert isinstance(gm_log, LogView) and "3件の操作を取り消しました(#4、3、2)" in render(gm_log, "ja")
