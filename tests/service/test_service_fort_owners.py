"""Fort PCs and their players through the service (issue 34, item 4): an imported battle gives each PC
to the player its file names, a player is refused in words on another's PC (COMMANDS.md, Conventions:
"Anyone may add and run their own PCs"), a PC without an owner is claimed once with ``/pc claim``, in the
log and undone like any action, and the GM sees whose each PC is in the status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.console.session import ConsoleSession, Reply
from bot.render.text import render
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from engine.dice import ScriptedDice

#: a Discord user's PC (its id), a player's by name (``@はなこ``, as a file may write it), the GM's
#: NPC, and a PC nobody has taken yet
DOC: dict[str, Any] = {
    "format": "toride.fort/1",
    "title": "北の砦",
    "rounds": 3,
    "fort": {"hp": 280, "max_hp": 300},
    "pcs": [
        {"name": "ガルド", "area": "F0", "position": "top", "hp": 40, "owner": "123"},
        {"name": "リナ", "area": "F0", "position": "top", "hp": 30, "owner": "@はなこ"},
        {"name": "ボス", "area": "F0", "position": "inside", "hp": 50, "owner": "GM"},
        {"name": "ノラ", "area": "F0", "position": "outside", "hp": 25},
    ],
}
HERE = Where("guild", "fort-channel")


async def said(session: ConsoleSession, line: str) -> str:
    reply = await session.handle(line)
    assert isinstance(reply, Reply), line
    return reply.text


async def imported(storage: Storage, tmp_path: Path, lang: str = "ja") -> ConsoleSession:
    (tmp_path / "b.json").write_text(json.dumps(DOC, ensure_ascii=False), encoding="utf-8")
    service = BattleService(storage, ScriptedDice([]))
    session = ConsoleSession(service, lang=lang, base_dir=tmp_path)
    done = {"ja": "戦闘を読み込みました(toride.fort/1)。", "en": "Battle imported (toride.fort/1)."}
    assert await said(session, "/fort import file:b.json") == done[lang]
    return session


async def owners(session: ConsoleSession) -> dict[str, str | None]:
    view = await session.service.status(session.where)
    assert view is not None
    return {p["name"]: p.get("owner") for p in view.document["pcs"]}


async def test_an_imported_battle_gives_each_pc_to_its_player(storage: Storage, tmp_path: Path) -> None:
    session = await imported(storage, tmp_path)
    assert await owners(session) == {"ガルド": "123", "リナ": "@はなこ", "ボス": "GM", "ノラ": None}
    # the owner acts for their PC; another player is refused in words, and nothing changes
    assert await said(session, "@123 /pc hp 名前:ガルド 増減:-5") == "ガルドのHP: 40→35。"
    other = "⚠ ガルドは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。"
    assert await said(session, "@はなこ /pc 削除 名前:ガルド") == other
    assert await said(session, "@はなこ /pc 移動 名前:ガルド 位置:砦内部") == other
    assert await said(session, "@はなこ /pc hp 名前:ガルド 増減:-5") == other
    # by: another's PC is refused as well (F-CAN-2: a PC at the top loads a cannon)
    assert await said(session, "@はなこ /大砲 装填 砲番号:1 判定値:15 行動者:ガルド") == other
    # @はなこ is the console's user はなこ; the GM's NPC is only the GM's
    assert await said(session, "@はなこ /pc hp 名前:リナ 増減:-3") == "リナのHP: 30→27。"
    assert await said(session, "@123 /pc hp 名前:リナ 増減:-3") == (
        "⚠ リナは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。"
    )
    assert await said(session, "@はなこ /pc hp 名前:ボス 増減:-1") == (
        "⚠ ボスはGMのPCです。操作できるのはGMだけです。"
    )
    assert await said(session, "/pc hp 名前:ボス 増減:-1") == "ボスのHP: 50→49。"
    assert await said(session, "/pc 削除 名前:ガルド") == "PC ガルドが外れました。"  # the GM may
    assert (await owners(session))["リナ"] == "@はなこ"


async def test_a_discord_user_runs_the_pc_an_at_name_gives_them(storage: Storage, tmp_path: Path) -> None:
    """On Discord an owner given as a name is the member of that username or display name
    (``Actor.names``)."""
    await imported(storage, tmp_path)
    service = BattleService(storage, ScriptedDice([]))

    async def run(actor: Actor, path: str, **options: Any) -> str:
        where = Where("console", "console")  # the console session's channel
        return render(await service.execute(where, actor, Invocation(path, options)), "en")

    hanako = Actor("555", names=("hanako_99", "はなこ"))
    assert await run(hanako, "pc hp", name="リナ", delta=-3) == "リナ's HP: 30 → 27."
    taro = Actor("777", names=("taro", "たろう"))
    assert await run(taro, "pc hp", name="リナ", delta=-3) == (
        "⚠ リナ is another player's PC. Only its owner or a GM may run it."
    )
    assert await run(taro, "pc hp", name="ボス", delta=-1) == (
        "⚠ ボス is the GM's character. Only a GM may run it."
    )
    assert await run(Actor("123"), "pc hp", name="ガルド", set=20) == "ガルド's HP: 40 → 20."


async def test_a_pc_without_an_owner_is_claimed_once_and_the_claim_undone(
    storage: Storage, tmp_path: Path
) -> None:
    session = await imported(storage, tmp_path)
    # before it is claimed any player may run it (as a PC without an owner always could)
    assert await said(session, "@たろう /pc hp 名前:ノラ 増減:-1") == "ノラのHP: 25→24。"
    assert await said(session, "@はなこ /pc 引き継ぐ 名前:ノラ") == "はなこがPC ノラを引き継ぎました。"
    assert (await owners(session))["ノラ"] == "はなこ"
    # a second claim, by anyone, says whose it is
    assert await said(session, "@たろう /pc 引き継ぐ 名前:ノラ") == (
        "⚠ PC ノラはすでにはなこのPCです。持ち主を変えられるのはGMだけです(/gm 上書き)。"
    )
    assert await said(session, "@はなこ /pc claim name:ノラ") == (
        "⚠ PC ノラはすでにはなこのPCです。持ち主を変えられるのはGMだけです(/gm 上書き)。"
    )
    assert await said(session, "@たろう /pc 引き継ぐ 名前:ガルド") == (
        "⚠ PC ガルドはすでに123のPCです。持ち主を変えられるのはGMだけです(/gm 上書き)。"
    )
    # now it is hers: another player is refused on it
    assert await said(session, "@たろう /pc hp 名前:ノラ 増減:-1") == (
        "⚠ ノラは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。"
    )
    # the GM sees whose each PC is, and the claim in the log
    status = await said(session, "/砦 状況")
    f0 = (
        "F0: 砦上部: ガルド 40/40(123)、リナ 30/30(@はなこ) / 砦内部: ボス 50/50(GM) / "
        "砦外部: ノラ 24/25(はなこ)"
    )
    assert f0 in status.splitlines()
    assert (await said(session, "/砦 記録 件数:1")).splitlines() == [
        "直近 1件の記録:",
        "#3 はなこ: /pc 引き継ぐ 名前:ノラ",
        "    はなこがPC ノラを引き継ぎました。",
    ]
    # the claim is undone like any action: the PC is nobody's again, and the next claim takes it
    undone = "1件の操作を取り消しました。\n  #3 はなこ: /pc 引き継ぐ 名前:ノラ"
    assert await said(session, "/gm 取り消し") == undone
    assert (await owners(session))["ノラ"] is None
    assert await said(session, "@たろう /pc 引き継ぐ 名前:ノラ") == "たろうがPC ノラを引き継ぎました。"
    # the GM gives it to another with /gm set, as before
    assert await said(session, "/gm 上書き 対象:pc.ノラ.owner 値:はなこ") == (
        "GMがノラの持ち主をたろうからはなこに変更しました。"
    )
    assert (await owners(session))["ノラ"] == "はなこ"


async def test_the_claim_in_english(storage: Storage, tmp_path: Path) -> None:
    session = await imported(storage, tmp_path, "en")
    assert await said(session, "@hanako /pc claim name:ノラ") == "hanako claims PC ノラ."
    assert await said(session, "@taro /pc claim name:ノラ") == (
        "⚠ PC ノラ is already hanako's. Only a GM may give it to another player (/gm set)."
    )
    status = (await said(session, "/fort status")).splitlines()
    f0 = (
        "F0: top: ガルド 40/40 (123), リナ 30/30 (@はなこ) / inside: ボス 50/50 (GM) / "
        "outside: ノラ 25/25 (hanako)"
    )
    assert f0 in status
