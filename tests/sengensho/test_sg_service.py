"""``/sg`` through the service on a SQLite file: every command, permissions, refusals, undo, export/import."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.views import ErrorView, EventsView, ExportView, LogView, StatusView, UndoView, View
from engine.dice import ScriptedDice

HERE = Where("g1", "c1")
GM = Actor("gm")
ALICE = Actor("alice")


async def run(service: BattleService, actor: Actor, path: str, **options: Any) -> View:
    return await service.execute(HERE, actor, Invocation(path, options, f"/{path}"))


async def ok(service: BattleService, actor: Actor, path: str, **options: Any) -> EventsView:
    view = await run(service, actor, path, **options)
    assert isinstance(view, EventsView), (path, view)
    return view


async def refused(service: BattleService, actor: Actor, path: str, key: str, **options: Any) -> ErrorView:
    view = await run(service, actor, path, **options)
    assert isinstance(view, ErrorView) and view.key == key, (path, view)
    return view


async def document(service: BattleService) -> dict[str, Any]:
    view = await run(service, GM, "sg export")
    assert isinstance(view, ExportView) and view.ruleset == "sengensho"
    return view.document


def dp(doc: dict[str, Any]) -> dict[str, int]:
    return {c["name"]: c["dp"] for c in doc["characters"]}


async def version(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text("select max(version) from battles"))).scalar_one())


async def test_every_sg_command_through_the_service(sg_storage: Storage) -> None:
    service = BattleService(sg_storage, ScriptedDice([4, 5, 6, 3, 3, 2]))
    view = await ok(service, GM, "sg start", title="庭", ambush="true")  # the earlier spelling
    assert (view.ruleset, view.events[0].data) == (
        "sengensho",
        {"title": "庭", "opening": "ambush", "gm_fixed": "off"},
    )
    await ok(
        service,
        ALICE,
        "sg join",
        name="霊夢",
        body="3",
        endurance="2",
        intellect="4",
        sense="5",
        will="3",
        hp="20",
    )
    await ok(service, GM, "sg join", name="妖精", dp_max="12", recovery="3", hp="8", side="enemy")
    await ok(service, GM, "sg join", name="小傘", dp_max="14", recovery="3")
    hidden = await run(service, GM, "sg hide", name="妖精", base="6", dice="1")  # 4: 10
    assert isinstance(hidden, EventsView) and hidden.ephemeral  # S-HIDE-1: the GM's only
    await ok(service, GM, "sg spellcard", name="霊夢", declare="霊符「夢想封印」, 夢符「封魔陣」")
    await ok(service, GM, "sg turn")
    doc = await document(service)
    assert (doc["turn"], dp(doc)) == (1, {"霊夢": 18, "妖精": 11, "小傘": 14})  # ambush: no recovery
    view = await ok(service, GM, "sg search", name="霊夢", base="5", dice="1", target="妖精")  # 5 + 5 = 10
    assert ([e.kind for e in view.events], view.command) == (["sg.search_rolled"], "")  # the text names it
    assert view.private is not None and [e.kind for e in view.private.events] == ["sg.searched"]
    view = await ok(service, ALICE, "sg roll", name="霊夢", base="7", dice="2", kind="attack", label="射撃")
    assert (view.events[0].data["total"], view.events[0].dice) == (16, ((6, 6), (6, 3)))
    await ok(service, GM, "sg declare", name="小傘", dp="10")
    await ok(service, GM, "sg next")
    await ok(service, GM, "sg item", name="小傘", holder="霊夢")
    await ok(service, GM, "sg state", name="霊夢", unable="true")
    view = await ok(service, GM, "sg surprise", attacker="妖精", target="霊夢", distance="50")
    assert [e.kind for e in view.events] == ["sg.surprise"] and view.ephemeral  # S-SUR-5: still hidden
    view = await ok(service, GM, "sg roll", name="妖精", base="6", dice="2", kind="attack")
    # S-HIDE-1: it appears with its attack, and the surprise is told as it strikes
    assert [e.kind for e in view.events] == ["sg.revealed", "sg.surprise_struck", "sg.rolled"]
    assert view.events[2].data["total"] == 11
    assert view.events[2].data["out_of_step"] is None  # appeared at 10, the value now acting
    await refused(
        service, ALICE, "sg roll", "sg.evasion_refused", name="霊夢", base="8", dice="2", kind="evasion"
    )
    await ok(service, GM, "sg damage", name="霊夢", amount="6")
    view = await ok(service, GM, "sg damage", name="妖精", amount="9", mercy="hp1")
    assert view.events[1].data == {"name": "妖精", "mercy": "hp1", "hp": 1}
    await ok(service, GM, "sg item", name="小傘", release="true")
    await ok(service, GM, "gm set", target="霊夢.dp", value="4")
    doc = await document(service)
    assert dp(doc) == {"霊夢": 4, "妖精": 9, "小傘": 7}
    reimu = doc["characters"][0]
    assert (reimu["owner"], reimu["hp"], reimu["unable"], reimu["spell_cards"]) == (
        "alice",
        14,
        True,
        [{"name": "霊符「夢想封印」", "used": False}, {"name": "夢符「封魔陣」", "used": False}],
    )
    status = await run(service, ALICE, "sg status")
    assert isinstance(status, StatusView) and status.ruleset == "sengensho" and status.document == doc
    log = await run(service, GM, "sg log", last="2")
    assert isinstance(log, LogView) and [e.text for e in log.entries] == ["/sg item", "/gm set"]
    assert not log.ephemeral
    view = await ok(service, GM, "sg end")
    assert view.ended and [s.kind for s in view.summaries] == ["final"]
    assert [e.kind for e in view.summaries[0].events] == ["sg.ended"]
    assert service.dice_source().remaining == 0  # type: ignore[attr-defined]


async def test_players_run_their_own_characters_the_gm_the_rest(
    sg_storage: Storage, sg_db: AsyncEngine
) -> None:
    service = BattleService(sg_storage, ScriptedDice([]))
    await ok(service, GM, "sg start")
    await ok(service, GM, "sg join", name="妖精", dp_max="12", recovery="3", side="enemy")
    await ok(service, ALICE, "sg join", name="魔理沙", dp_max="16", recovery="4")
    before = await version(sg_db)
    await refused(service, ALICE, "sg turn", "service.gm_only")
    await refused(service, ALICE, "sg end", "service.gm_only")
    await refused(service, ALICE, "sg state", "service.gm_only", name="魔理沙", unable="true")
    await refused(service, ALICE, "sg roll", "service.enemy_gm_only", name="妖精", base="1", dice="0")
    await refused(
        service, ALICE, "sg surprise", "service.enemy_gm_only", attacker="妖精", target="魔理沙", distance="9"
    )
    await refused(
        service, ALICE, "sg join", "service.owner_gm_only", name="x", dp_max="5", recovery="2", owner="bob"
    )
    await refused(service, GM, "sg start", "service.battle_running")
    await refused(service, GM, "fort start", "service.battle_running", rounds="3")
    await refused(service, GM, "fort status", "service.wrong_ruleset")
    await refused(service, GM, "sg declare", "sg.no_turn", name="魔理沙", dp="3")
    await refused(
        service, GM, "sg roll", "command.not_choice", name="魔理沙", base="1", dice="1", kind="punch"
    )
    await refused(service, GM, "sg roll", "command.out_of_range", name="魔理沙", base="1", dice="31")
    await refused(service, GM, "sg damage", "sg.hp_untracked", name="魔理沙", amount="3")
    assert await version(sg_db) == before
    # players may deal damage and roll for their own character
    await ok(service, ALICE, "sg roll", name="魔理沙", base="3", dice="0")


async def test_undo_gives_back_dp_and_export_import_round_trips(sg_storage: Storage) -> None:
    service = BattleService(sg_storage, ScriptedDice([6, 6, 1, 1]))
    await ok(service, GM, "sg start", title="undo")
    await ok(service, GM, "sg join", name="A", dp_max="10", recovery="2")
    await ok(service, GM, "sg roll", name="A", base="0", dice="2")
    assert dp(await document(service)) == {"A": 8}
    undo = await run(service, GM, "gm undo")
    assert isinstance(undo, UndoView) and dp(undo.document) == {"A": 10}
    await ok(service, GM, "sg roll", name="A", base="0", dice="2")  # rolls the next dice: 1, 1
    exported = await document(service)
    assert exported["characters"][0]["last_roll"]["total"] == 2
    await ok(service, GM, "sg end")
    view = await run(service, GM, "sg import", file=exported)
    assert isinstance(view, EventsView) and view.events[0].kind == "service.imported"
    assert await document(service) == exported
    wrong = {**exported, "format": "toride.fort/1"}
    await ok(service, GM, "sg end")
    await refused(service, GM, "sg import", "service.import_format", file=wrong)
