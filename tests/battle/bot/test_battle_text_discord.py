"""The ordinary battle in Discord (``bot.rulesets.battle.discord.PRESENTER``): the status embed is the
console's status, and the live status message (B-VIEW-1) fits one Discord message: the whole status when
it does, else a compact form keeping every list's heading, the header, whose turn and the GMs."""

from __future__ import annotations

from typing import Any

from battle_text_helpers import Run, battle, gm_status, goblins, pc

from bot.discord.live_layout import fits
from bot.discord.presenters import live_message
from bot.rulesets.battle.discord import PRESENTER, status_embeds
from bot.views import StatusView
from engine.battle import BATTLE
from engine.battle.commands import AddMonster, EffectAdd, Next, PartSpec
from engine.battle.visibility import visible

DESCRIPTION = 4096


def _big() -> Run:
    """50 characters (the limit) of long names: 10 PCs, 40 monsters of 3 parts each, effects on many."""
    long = "とても長い名前の冒険者"
    run = battle(*(pc(f"{long}{n:02}{'あ' * 19}", owner=f"u{n}") for n in range(10)), first="pc")
    parts = tuple(
        PartSpec(hp=50, name=f"部位{p}の長い名前", defense=5, hit=15, strike="2d+10", evasion=14)
        for p in range(3)
    )
    for k in range(4):
        run(
            AddMonster(
                f"{'ドラゴン' * 7}{k}", parts=parts, core=0, count=10, reputation=30, weakness_value=35
            )
        )
    for n in range(10):
        run(
            EffectAdd(
                f"{long}{n:02}{'あ' * 19}", "プロテクションの長い効果名", 3, mod="防護点+1 回避力+1", gm=True
            )
        )
    run(Next(gm=True))
    return run


def _view(document: dict[str, Any]) -> StatusView:
    return StatusView(ruleset="battle", document=document, gms=("400000000000000001",))


def test_the_presenter_is_the_rule_sets() -> None:
    assert PRESENTER.ruleset == "battle" and PRESENTER.next_path == "battle next"


def test_the_status_embed_is_the_consoles_status() -> None:
    run = battle(pc("ガルド"), goblins(), first="pc")
    view = _view(BATTLE.export(run.s))
    embeds = status_embeds(view, "ja")
    text = gm_status(run, "ja", gms=("<@400000000000000001>",))
    assert embeds[0].title == text.splitlines()[0]
    assert (embeds[0].description or "").splitlines() == text.splitlines()[1:]


def test_b_view_1_a_small_battle_is_shown_whole_in_the_live_message() -> None:
    run = battle(pc("ガルド"), goblins(), first="pc")
    run(Next(gm=True))
    for lang in ("ja", "en"):
        live = live_message(_view(visible(BATTLE.export(run.s), None)), lang)
        assert not live.compact and fits(live.embeds) and len(live.embeds) == 1
    shown = live_message(_view(visible(BATTLE.export(run.s), None)), "ja").embeds[0]
    assert shown.title == "【街道の戦い】 第1ラウンド PC側の手番"
    assert (shown.description or "").splitlines()[0] == "▶ PC側の手番 — 未行動: ガルド"


def test_b_view_1_a_battle_too_long_for_one_message_is_compact_and_keeps_every_list() -> None:
    run = _big()
    for document in (BATTLE.export(run.s), visible(BATTLE.export(run.s), None)):
        for lang, headings, more in (
            ("ja", ("PC側(10):", "敵側(40):", "効果:", "魔物知識:"), "…ほか"),
            ("en", ("PC side (10):", "Enemy side (40):", "Effects:", "Monster knowledge:"), "… and "),
        ):
            live = live_message(_view(document), lang)
            assert live.compact and fits(live.embeds) and len(live.embeds) == 1
            text = live.embeds[0].description or ""
            assert len(text) <= DESCRIPTION
            shown = text.splitlines()
            assert all(h in shown for h in headings), shown
            assert shown[-1] == "GM: <@400000000000000001>"
            assert any(line.startswith(more) for line in shown)
