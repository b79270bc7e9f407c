"""B-INIT-1, B-INIT-2: 先制判定 and the first side, rounds and turns, who may act when, the end."""

from __future__ import annotations

from battle_helpers import GM, Run, battle, monster, pc

from engine.battle import BattleCommand
from engine.battle.commands import (
    MP,
    Act,
    Damage,
    EffectAdd,
    End,
    Heal,
    Initiative,
    Knowledge,
    Next,
    Start,
)
from engine.battle.state import Phase, Side
from engine.battle.turns import first_side
from engine.battle.visibility import status


def two_pcs_and_goblins(initiative: int = 11) -> list[BattleCommand]:
    return [
        pc("アル", owner="u1", initiative=5, mp=10),
        pc("ベル", owner="u2", initiative=3),
        monster("ゴブリン", count=2, initiative=initiative, reputation=6),
    ]


def running(first: str = "pc") -> Run:
    run = battle(*two_pcs_and_goblins(), first=first)
    run(Next(invoker=GM, gm=True))
    return run


# --- B-INIT-1 -------------------------------------------------------------------------------------


def test_b_init_1_the_pc_sides_best_total_against_the_highest_initiative_equal_is_pc_first() -> None:
    assert first_side(11, 11) is Side.PC
    assert first_side(12, 11) is Side.PC
    assert first_side(10, 11) is Side.ENEMY
    assert first_side(None, None) is Side.PC
    assert first_side(None, 11) is None


def test_b_init_1_each_pc_rolls_2d6_plus_its_initiative_once_and_the_best_decides() -> None:
    run = battle(*two_pcs_and_goblins(initiative=11))
    run(Initiative("アル", invoker="u1"), 3, 2)  # 5 + 5 = 10
    assert run.event("bt.initiative") == {
        "name": "アル",
        "total": 10,
        "roll": {
            "command": "2D6+5",
            "text": "(2D6+5) ＞ 5[3,2]+5 ＞ 10",
            "total": 10,
            "damage": 10,
            "critical": False,
            "fumble": False,
        },
        "best": 10,
        "best_name": "アル",
    }
    run(Initiative("ベル", "2d+3", invoker="u2"), 4, 4)  # 11: equal to the highest 先制値
    assert run.pc("ベル").initiative_total == 11
    error = run.refused(Initiative("アル", invoker="u1"), "bt.initiative_rolled")
    assert error.values == {"name": "アル", "total": 10}
    run.refused(Initiative("アル", 12, invoker="u2"), "bt.not_your_pc")
    run(Next(invoker=GM, gm=True))
    assert run.event("bt.first_decided") == {
        "first": "pc",
        "how": "initiative",
        "pc_best": 11,
        "pc_name": "ベル",
        "enemy_best": None,  # the table does not know ゴブリン's numbers yet
        "enemy_name": "ゴブリンA",
    }
    assert (run.s.phase, run.s.round, run.s.turn, run.s.first) == (Phase.RUNNING, 1, Side.PC, Side.PC)
    run.refused(Initiative("アル", 20, invoker=GM, gm=True), "bt.initiative_closed")


def test_b_init_1_lower_the_enemy_first_the_gm_may_set_the_first_side_instead() -> None:
    run = battle(*two_pcs_and_goblins(initiative=11))
    run(Knowledge("アル", "ゴブリン", 6, invoker="u1"))
    run(Initiative("アル", 10, invoker="u1"))
    run(Next(invoker=GM, gm=True))
    decided = run.event("bt.first_decided")
    assert (decided["first"], decided["enemy_best"]) == ("enemy", 11)
    assert run.event("bt.turn_started")["side"] == "enemy"
    gm_first = battle(*two_pcs_and_goblins(), first="enemy")
    gm_first(Initiative("アル", 30, invoker="u1"))
    gm_first(Next(invoker=GM, gm=True))
    assert (gm_first.event("bt.first_decided")["how"], gm_first.s.turn) == ("gm", Side.ENEMY)


def test_b_init_1_no_one_rolled_the_turns_wait_for_it_without_monsters_the_pcs_go_first() -> None:
    run = battle(*two_pcs_and_goblins())
    assert run.refused(Next(invoker=GM, gm=True), "bt.initiative_needed").values == {"enemy": "ゴブリンA"}
    alone = battle(pc("アル"))
    alone(Next(invoker=GM, gm=True))
    assert (alone.event("bt.first_decided")["how"], alone.s.turn) == ("no_monsters", Side.PC)


# --- B-INIT-2 -------------------------------------------------------------------------------------


def test_b_init_2_a_round_is_the_first_sides_turn_then_the_others() -> None:
    run = running(first="enemy")
    assert (run.s.round, run.s.turn) == (1, Side.ENEMY)
    assert run.event("bt.turn_started") == {
        "round": 1,
        "side": "enemy",
        "ended": [],
        "to_act": ["ゴブリンA", "ゴブリンB"],
    }
    run(Next(invoker=GM, gm=True))
    assert run.kinds() == ["bt.turn_ended", "bt.turn_started"]
    assert (run.s.round, run.s.turn) == (1, Side.PC)
    run(Next(invoker=GM, gm=True))
    assert run.kinds() == ["bt.turn_ended", "bt.round_ended", "bt.turn_started"]
    assert run.event("bt.turn_ended") == {"round": 1, "side": "pc", "not_acted": ["アル", "ベル"]}
    assert (run.s.round, run.s.turn) == (2, Side.ENEMY)


def test_b_init_2_a_players_action_in_the_enemys_turn_is_refused_the_gm_is_allowed() -> None:
    run = running(first="enemy")
    error = run.refused(Damage("ゴブリンA", 8, by="アル", invoker="u1"), "bt.not_your_turn")
    assert error.values == {"name": "アル", "turn": "enemy", "round": 1}
    # left without ``by``, the player's own PC deals it: the same refusal
    assert run.refused(Damage("ゴブリンA", 8, invoker="u1"), "bt.not_your_turn").values["name"] == "アル"
    run.refused(Knowledge("アル", "ゴブリン", 9, invoker="u1"), "bt.not_your_turn")
    run.refused(EffectAdd("アル", "【ファナティシズム】", 3, by="アル", invoker="u1"), "bt.not_your_turn")
    run.refused(Act("アル", invoker="u1"), "bt.not_your_turn")
    run(Damage("ゴブリンA", 8, by="アル", invoker=GM, gm=True))  # the GM may
    assert run.part("ゴブリンA").hp == 12


def test_b_init_2_reactions_belong_to_any_turn() -> None:
    """Damage taken (to a PC, by a monster or no one), healing and MP named by no actor, and effects
    made by no one named are no action of the PC side: a player records them in the enemy's turn."""
    run = running(first="enemy")
    run(Damage("アル", 7, by="ゴブリンA", invoker="u1"))
    run(Damage("アル", 3, invoker="u1"))
    run(Heal("アル", 2, invoker="u1"))
    run(MP("アル", -1, invoker="u1"))
    run(EffectAdd("アル", "【スリープ】抵抗", "end", invoker="u1"))
    assert run.pc("アル").hp == 30 - 7 - 3 + 2
    assert run.s.effects[0].made_side is Side.ENEMY  # made in the enemy's turn
    assert not run.pc("アル").acted


def test_b_init_2_each_action_marks_its_actor_and_the_last_pc_to_act_is_said() -> None:
    run = running(first="pc")
    run(Damage("ゴブリンA", 5, invoker="u1"))  # アル, the only PC of u1
    assert run.pc("アル").acted and run.kinds() == ["bt.damaged_rough", "bt.damaged"]
    error = run.refused(Next(invoker="u1"), "bt.turn_not_done")
    assert error.values == {"names": ["ベル"], "round": 1}
    run(Act("ベル", invoker="u2"))
    assert run.kinds() == ["bt.acted", "bt.side_done"]
    assert run.event("bt.acted") == {"name": "ベル", "acted": True, "not_acted": []}
    assert run.event("bt.side_done") == {"side": "pc", "round": 1}
    run(Next(invoker="u2"))  # every PC has acted: a player may end the turn
    assert run.s.turn is Side.ENEMY and not run.pc("アル").acted
    run.refused(Next(invoker="u2"), "bt.not_your_turn")


def test_b_init_2_those_down_are_not_waited_for_and_cannot_act() -> None:
    run = running(first="pc")
    run(Damage("ベル", 40, kind="fixed", invoker=GM, gm=True))
    run.refused(Act("ベル", invoker="u2"), "bt.actor_down")
    run(Act("アル", invoker="u1"))
    assert run.kinds() == ["bt.acted", "bt.side_done"]
    run(Act("アル", acted=False, invoker="u1"))
    assert run.event("bt.acted")["not_acted"] == ["アル"]


def test_b_init_2_a_knowledge_check_in_the_turns_is_the_pcs_action() -> None:
    run = running(first="pc")
    run(Knowledge("アル", "ゴブリン", 9, invoker="u1"))
    assert run.pc("アル").acted


def test_b_init_2_the_turns_are_started_by_the_gm() -> None:
    run = battle(*two_pcs_and_goblins())
    run.refused(Next(invoker="u1"), "bt.turns_gm_only")
    run.refused(Act("アル", invoker="u1"), "bt.no_turn")


def test_b_init_2_the_end_and_a_new_battle() -> None:
    run = running(first="pc")
    run(Damage("ゴブリンA", 40, kind="fixed", invoker=GM, gm=True))
    run(End())
    assert run.event("bt.ended") == {
        "title": "街道の戦い",
        "round": 1,
        "pcs": [
            {"name": "アル", "hp": 30, "max_hp": 30, "down": False},
            {"name": "ベル", "hp": 30, "max_hp": 30, "down": False},
        ],
        "monsters": [
            {"name": "ゴブリンA", "down": True, "parts": [{"name": "", "state": "dying"}]},
            {"name": "ゴブリンB", "down": False, "parts": [{"name": "", "state": "unhurt"}]},
        ],
    }
    assert run.s.ended
    run.refused(Next(invoker=GM, gm=True), "bt.battle_over")
    run(Start("次の戦い"))
    assert run.s.title == "次の戦い" and run.s.pcs == ()


def test_b_init_2_one_battle_at_a_time() -> None:
    run = battle()
    run.refused(Start("また"), "bt.already_running")
    none = Run()
    none.refused(Next(invoker=GM, gm=True), "bt.no_battle")
    none.refused(Start("また", first="both"), "bt.side_invalid")
    none(Start("また", first="敵"))
    assert none.s.first is Side.ENEMY


# --- B-VIEW-1 -------------------------------------------------------------------------------------


def test_b_view_1_the_status_the_round_and_whose_turn_who_has_not_acted_and_monsters_as_known() -> None:
    run = running(first="pc")
    run(Damage("ゴブリンA", 9, invoker="u1"))
    run(EffectAdd("ベル", "【ブレス】", 3, invoker="u2"))
    shown = status(run.s)
    assert (shown["round"], shown["turn"], shown["phase"], shown["not_acted"]) == (
        1,
        "pc",
        "running",
        ["ベル"],
    )
    assert [p["name"] for p in shown["pcs"]] == ["アル", "ベル"] and shown["pcs"][0]["acted"] is True
    goblin = shown["monsters"][0]
    assert (
        goblin["parts"] == [{"name": "", "state": "light", "destroyed": False}] and "reputation" not in goblin
    )
    assert status(run.s, gm=True)["monsters"][0]["parts"][0]["hp"] == 11
    assert [(e["name"], e["target"], e["left"]) for e in shown["effects"]] == [("【ブレス】", "ベル", 3)]


def test_b_char_1_a_player_deals_damage_as_their_own_pc_only() -> None:
    """B-CHAR-1: ``by`` another player's PC is refused, a monster as the source only of damage to the
    player's own PCs; the GM may name anyone."""
    run = running(first="pc")
    run.refused(Damage("ゴブリンA", 5, by="ベル", invoker="u1"), "bt.not_your_pc")
    run.refused(Damage("ベル", 5, by="ゴブリンA", invoker="u1"), "bt.enemy_gm_only")
    run.refused(Heal("ベル", 2, by="ベル", invoker="u1"), "bt.not_your_pc")
    run(Damage("ゴブリンA", 5, by="ベル", gm=True))
    assert run.event("bt.damaged")["by"] == "ベル"
