"""Who may act as GM (COMMANDS.md, Conventions): every GM-only command, across channels and servers.

A GM of a battle is its starter (or importer), a co-GM a GM of *that battle* added, a member with
the server's GM role, or a member with Manage Channels in that channel. A GM of one battle is
nobody in another; a removed co-GM is nobody at once, in every process; co-GMs go with their battle.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.console.parser import parse_line
from bot.i18n.names import CommandName
from bot.registry import commands
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import open_storage
from bot.storage.interface import Storage
from bot.views import ErrorView, EventsView, ExportView, NoticeView, View
from engine.dice import SeededDice

FORT = Where("g1", "fort")  # the battle under test
SG = Where("g1", "sg")  # a 千幻抄 battle, same server
BT = Where("g1", "bt")  # an ordinary battle, same server
OTHER = Where("g1", "other")  # another battle on the same server
ABROAD = Where("g2", "fort")  # the same channel id on another server

GM = Actor("gm")
#: started the battle in OTHER, and made herself and a friend its co-GMs
MALLORY = Actor("mallory")
FRIEND = Actor("friend")
#: has role r2, the GM role of server g2 (not of g1); and role r1 on g1 once it is the GM role
ROLE2 = Actor("roley", roles=frozenset({"r2"}))
ROLE1 = Actor("roler", roles=frozenset({"r1"}))
ADMIN1 = Actor("admin1", manage_guild=True)
ADMIN2 = Actor("admin2", manage_guild=True)
CHANNEL_MOD = Actor("mod", manage_channels=True)
COGM = Actor("carol")

#: a valid line for every GM-only command (the table must name them all)
GM_LINES: dict[str, tuple[Where, str]] = {
    "commander add": (FORT, "/commander add name:副長 hp:10 area:A2"),
    "commander move": (FORT, "/commander move name:隊長 to:A1"),
    "fort end": (FORT, "/fort end"),
    "fort next": (FORT, "/fort next"),
    "fort siege": (FORT, "/fort siege effect:fixed amount:5"),
    "gm add": (FORT, "/gm add user:eve"),
    "gm redo": (FORT, "/gm redo"),
    "gm remove": (FORT, "/gm remove user:carol"),
    "gm set": (FORT, "/gm set target:fort.hp value:1"),
    "gm undo": (FORT, "/gm undo"),
    "unit add": (FORT, "/unit add name:X type:normal area:A2 hp:5 fort_damage:1"),
    "unit advance": (FORT, "/unit advance"),
    "unit barrage": (FORT, "/unit barrage unit:G"),
    "unit hp": (FORT, "/unit hp unit:G delta:-1"),
    "unit move": (FORT, "/unit move unit:G to:A1"),
    "unit remove": (FORT, "/unit remove unit:G"),
    "sg end": (SG, "/sg end"),
    "sg next": (SG, "/sg next"),
    "sg state": (SG, "/sg state name:霊夢 unable:true"),
    "sg turn": (SG, "/sg turn"),
    "battle monster": (BT, "/battle monster name:オーガ hp:40"),
    "battle extend": (BT, "/battle extend target:ガルド name:守り rounds:1"),
    "battle reveal": (BT, "/battle reveal monster:ゴブリン"),
    "battle end": (BT, "/battle end"),
}
#: what a player may do, but only a GM this way (the refusal each gets)
GM_USES: list[tuple[Where, str, str]] = [
    (FORT, "/pc add name:Z owner:someone", "service.owner_gm_only"),
    (FORT, "/unit attack attacker:G target:Sol", "service.enemy_unit_gm_only"),
    (SG, "/sg join name:鬼 dp_max:10 recovery:2 side:enemy", "sg.enemy_gm_only"),
    (BT, "/battle pc name:Z hp:5 owner:someone", "service.owner_gm_only"),
]
OUTSIDERS = [MALLORY, FRIEND, ROLE2, Actor("mod-elsewhere"), Actor("nobody"), CHANNEL_MOD]


async def run(service: BattleService, where: Where, actor: Actor, text: str) -> View:
    line = parse_line(text)
    assert line is not None
    return await service.execute(where, actor, Invocation(line.path, line.options, line.text))


async def ok(service: BattleService, where: Where, actor: Actor, text: str) -> View:
    view = await run(service, where, actor, text)
    assert not isinstance(view, ErrorView), (text, view)
    return view


async def exported(service: BattleService, where: Where) -> str:
    group = {SG: "sg", BT: "battle"}.get(where, "fort")
    view = await run(service, where, GM, f"/{group} export")
    assert isinstance(view, ExportView)
    return json.dumps(view.document, ensure_ascii=False, sort_keys=True)


async def _battles(service: BattleService) -> None:
    """The battle under test (units G and Sol, co-GM carol), a 千幻抄 one, and the outsiders'."""
    await ok(service, FORT, GM, "/fort start rounds:3")
    await ok(service, FORT, GM, "/unit add name:G type:normal area:A2 hp:30 fort_damage:5 strike:2d")
    await ok(service, FORT, GM, "/unit add name:Sol type:soldier area:F0 hp:30 fort_damage:0 strike:2d")
    await ok(service, FORT, GM, "/commander add name:隊長 hp:20 area:A2")
    await ok(service, FORT, GM, "/gm add user:carol")
    await ok(service, SG, GM, "/sg start title:庭")
    await ok(service, SG, GM, "/sg join name:霊夢 dp_max:10 recovery:2")
    await ok(service, BT, GM, "/battle start title:街道")
    await ok(service, BT, GM, "/battle pc name:ガルド hp:30")
    await ok(service, BT, GM, "/battle monster name:ゴブリン hp:16 reputation:5")
    await ok(service, BT, GM, "/battle effect target:ガルド name:守り rounds:3")
    await ok(service, OTHER, MALLORY, "/fort start rounds:3")
    await ok(service, OTHER, MALLORY, "/gm add user:mallory")
    await ok(service, OTHER, MALLORY, "/gm add user:friend")
    await ok(service, ABROAD, ROLE2, "/fort start rounds:3")
    await ok(service, ABROAD, ADMIN2, "/gm role role:r2")


@pytest.fixture
async def service(storage: Storage) -> BattleService:
    service = BattleService(storage, SeededDice(7))
    await _battles(service)
    return service


def test_the_table_names_every_gm_only_command() -> None:
    assert set(GM_LINES) == {
        path for path, spec in commands().items() if spec.gm and spec.ruleset != "counter"
    }


async def test_anyone_becomes_gm_of_every_battle_on_the_server(service: BattleService) -> None:
    """The issue's case: start a battle anywhere, /gm add yourself, and the other channels were yours."""
    before = await exported(service, FORT)
    for text in ("/gm set target:fort.hp value:1", "/gm undo", "/fort end", "/gm add user:mallory"):
        view = await run(service, FORT, MALLORY, text)
        assert isinstance(view, ErrorView) and view.key == "service.gm_only", text
    assert await exported(service, FORT) == before


@pytest.mark.parametrize("path", sorted(GM_LINES))
async def test_every_gm_only_command_is_refused_to_a_gm_of_another_battle(
    service: BattleService, path: str
) -> None:
    where, text = GM_LINES[path]
    before = await exported(service, where)
    for outsider in OUTSIDERS:
        view = await run(service, where, outsider, text)
        assert isinstance(view, ErrorView) and view.key == "service.gm_only", (outsider, view)
        assert view.values["command"] == CommandName(path)
        assert str(view.values["gms"]).startswith("gm")  # the refusal names this battle's GMs (issue 23)
        assert await exported(service, where) == before
    for where_, text_, key in GM_USES:
        view = await run(service, where_, MALLORY, text_)
        assert isinstance(view, ErrorView) and view.key == key, (text_, view)


@pytest.mark.parametrize("path", sorted(GM_LINES))
async def test_every_gm_only_command_is_open_to_each_kind_of_gm(service: BattleService, path: str) -> None:
    await ok(service, FORT, ADMIN1, "/gm role role:r1")
    where, text = GM_LINES[path]
    for gm in (GM, COGM, ROLE1, CHANNEL_MOD):
        if where in (SG, BT) and gm is COGM:
            continue  # carol is a co-GM of the fort battle only
        if gm is CHANNEL_MOD:  # Manage Channels alone is no GM: they take the battle over first
            await ok(service, where, gm, "/gm takeover")
        view = await run(service, where, gm, text)
        # the rules may still refuse (nothing to redo ...), the rights never do
        assert not (isinstance(view, ErrorView) and view.key == "service.gm_only"), (gm, view)
        # back to the battle as it was, for the next GM
        if isinstance(view, EventsView) and path != "gm undo":
            await ok(service, where, GM, "/gm undo")
        if isinstance(view, NoticeView):
            await ok(service, where, GM, "/gm remove user:eve" if path == "gm add" else "/gm add user:carol")
    for where_, text_, key in GM_USES:
        view = await run(service, where_, ROLE1, text_)
        assert not (isinstance(view, ErrorView) and view.key == key), (text_, view)


async def test_a_removed_co_gm_is_nobody_at_once_in_every_process(storage: Storage, db_path: Any) -> None:
    other_storage = await open_storage(str(db_path))
    try:
        one, two = BattleService(storage, SeededDice(1)), BattleService(other_storage, SeededDice(2))
        await ok(one, FORT, GM, "/fort start rounds:3")
        await ok(one, FORT, GM, "/gm add user:carol")
        await ok(two, FORT, COGM, "/fort next")  # the other process has carol as a GM now
        await ok(one, FORT, GM, "/gm remove user:carol")
        view = await run(two, FORT, COGM, "/fort next")
        assert isinstance(view, ErrorView) and view.key == "service.gm_only"
        view = await run(two, FORT, COGM, "/gm add user:carol")
        assert isinstance(view, ErrorView) and view.key == "service.gm_only"
    finally:
        await other_storage.close()


async def test_co_gms_belong_to_their_battle_and_go_with_it(service: BattleService) -> None:
    status = await ok(service, FORT, GM, "/fort status")
    assert status.gms == ("gm", "carol")  # type: ignore[attr-defined]
    await ok(service, FORT, COGM, "/fort next")
    await ok(service, FORT, GM, "/fort end")
    await ok(service, FORT, MALLORY, "/fort start rounds:2")  # a new battle here: mallory's
    status = await ok(service, FORT, GM, "/fort status")
    assert status.gms == ("mallory",)  # type: ignore[attr-defined]
    for actor in (GM, COGM):
        view = await run(service, FORT, actor, "/fort next")
        assert isinstance(view, ErrorView) and view.key == "service.gm_only"


async def test_the_gm_role_is_set_with_manage_server_and_counts_on_its_server_only(
    service: BattleService,
) -> None:
    for actor in (GM, CHANNEL_MOD, ROLE1):
        view = await run(service, FORT, actor, "/gm role role:r1")
        assert isinstance(view, ErrorView) and view.key == "gm.role_manage_server"
    view = await run(service, FORT, ROLE2, "/fort next")  # r2 is the GM role of g2, not g1
    assert isinstance(view, ErrorView) and view.key == "service.gm_only"
    assert await run(service, ABROAD, ROLE2, "/fort next") is not None
    notice = await ok(service, FORT, ADMIN1, "/gm role role:@r1")
    assert isinstance(notice, NoticeView) and (notice.key, notice.values) == ("gm.role_set", {"role": "r1"})
    await ok(service, FORT, ROLE1, "/fort next")
    notice = await ok(service, FORT, ADMIN1, "/gm role")
    assert isinstance(notice, NoticeView) and notice.key == "gm.role_removed"
    view = await run(service, FORT, ROLE1, "/fort next")
    assert isinstance(view, ErrorView) and view.key == "service.gm_only"


async def test_manage_channels_is_no_gm_until_it_takes_the_battle_over(service: BattleService) -> None:
    """COMMANDS.md: on a friends' server everyone may have Manage Channels; it lets a member take a
    battle over with /gm takeover, which the channel reads and the log keeps, and nothing more."""
    view = await run(service, FORT, CHANNEL_MOD, "/gm set target:fort.hp value:1")
    assert isinstance(view, ErrorView) and view.key == "service.gm_only"
    refused = await run(service, FORT, MALLORY, "/gm takeover")
    assert isinstance(refused, ErrorView) and refused.key == "gm.takeover_not_allowed"
    already = await run(service, FORT, GM, "/gm takeover")
    assert isinstance(already, ErrorView) and already.key == "gm.takeover_already"
    took = await ok(service, FORT, CHANNEL_MOD, "/gm takeover")
    assert isinstance(took, NoticeView) and took.key == "gm.took_over" and not took.ephemeral
    await ok(service, FORT, CHANNEL_MOD, "/gm set target:fort.hp value:1")
    log = await ok(service, FORT, GM, "/fort log last:3")
    kinds = [e.kind for entry in log.entries for e in entry.events]  # type: ignore[attr-defined]
    assert "gm.took_over" in kinds
    # the note is no action: undo takes back the /gm set, not the takeover
    await ok(service, FORT, GM, "/gm undo")
    again = await run(service, FORT, CHANNEL_MOD, "/gm takeover")
    assert isinstance(again, ErrorView) and again.key == "gm.takeover_already"
