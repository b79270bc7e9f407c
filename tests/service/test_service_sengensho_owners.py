"""/sg: a player who names someone else's character hears whose it is (a PC of another player, or
an enemy the GM runs), and nothing changes."""

from __future__ import annotations

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage.interface import Storage
from engine.dice import ScriptedDice


async def test_a_player_cannot_act_as_an_enemy_or_another_players_pc(storage: Storage) -> None:
    session = ConsoleSession(BattleService(storage, ScriptedDice([3, 4])), lang="ja")
    for line in (
        "/sg start title:夜",
        "@alice /sg join name:アリス hp:30 dp_max:12 recovery:3",
        "@bob /sg join name:ボブ hp:30 dp_max:12 recovery:3",
        "/sg join name:盗賊 side:enemy hp:20 dp_max:12 recovery:3",
        "/sg turn",
    ):
        reply = await session.handle(line)
        assert reply is not None and reply.ok, reply
    enemy = await session.handle("@alice /sg roll name:盗賊 base:5 dice:2")
    assert enemy is not None and not enemy.ok
    assert enemy.text == (
        "⚠ 盗賊は敵側のキャラクターです。敵はGMが動かします。自分のキャラクターで行動してください。"
    )
    other = await session.handle("@alice /sg roll name:ボブ base:5 dice:2")
    assert other is not None
    assert other.text == "⚠ ボブは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。"
    # nothing was rolled or paid: the two dice are still there for Alice's own roll
    own = await session.handle("@alice /sg roll name:アリス base:5 dice:2")
    assert own is not None and own.ok
    assert "5+2D[3,4] = 12" in own.text
