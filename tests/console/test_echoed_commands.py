"""Issue 23, item 8: a command the bot shows back — a log entry, a round's actions, an undo, an embed's
title — is in the reader's own words (COMMANDS.md, "The reader's own words"), not the text as it was
typed: a Japanese reader reads ``/ユニット hp ユニット:u1 増減:-1`` though the GM typed it in English,
an English one ``/unit hp unit:u1 delta:-1`` though it was typed in Japanese (or under an earlier name)."""

from __future__ import annotations

from pathlib import Path

from console_run import console

from bot.discord.embeds import events_embeds
from bot.render.command_line import shown, typed
from bot.views import EventsView

SCRIPT = (
    "/fort start rounds:2 first:enemy\n"
    '/部隊 追加 名前:"ゴブリン 隊" タイプ:ラム エリア:A1 hp:10 砦ダメージ:5 打撃点:2d\n'
    '/unit hp unit:"ゴブリン 隊" delta:-1\n'
    "/roll expr:2d6+5 命中:ゴブリンへ\n"
    "/gm undo\n"
    "/fort log\n"
)


def test_the_log_shows_each_command_in_the_japanese_readers_words(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", SCRIPT, "--dice", "3,4", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    heads = [line for line in done.stdout.splitlines() if line.startswith("#")]
    assert heads == [
        "#1 gm: /砦 開始 ラウンド数:2 先攻:敵側",
        '#2 gm: /ユニット 追加 名前:"ゴブリン 隊" タイプ:破城槌 エリア:A1 hp:10 砦ダメージ:5 打撃点:2d',
        '#3 gm: /ユニット hp ユニット:"ゴブリン 隊" 増減:-1 (取り消し済み)',
        "#4 gm: /gm 取り消し",
    ]


def test_the_log_shows_each_command_in_the_english_readers_words(tmp_path: Path) -> None:
    script = SCRIPT.replace("/fort start rounds:2 first:enemy", "/砦 開始 ラウンド数:2 先攻:敵")
    done = console(tmp_path / "b.db", script, "--dice", "3,4", "--lang", "en")
    assert done.returncode == 0, done.stderr
    heads = [line for line in done.stdout.splitlines() if line.startswith("#")]
    assert heads == [
        "#1 gm: /fort start rounds:2 first:enemy",
        '#2 gm: /unit add name:"ゴブリン 隊" type:ram area:A1 hp:10 fort_damage:5 strike:2d',
        '#3 gm: /unit hp unit:"ゴブリン 隊" delta:-1 (undone)',
        "#4 gm: /gm undo",
    ]


def test_a_logged_command_in_either_language_reads_in_the_readers() -> None:
    logged = typed("unit hp", {"unit": "u1", "delta": -1})
    assert logged == "/unit hp unit:u1 delta:-1"
    assert shown(logged, "ja") == "/ユニット hp ユニット:u1 増減:-1"
    assert shown(logged, "en") == logged
    assert shown("/ユニット hp ユニット:u1 増減:-1", "en") == logged
    # a choice by its word, a renamed word under its new name, a dice comment as given
    assert (
        shown("/attack area unit:槌 damage:3 radius:1 kind:固定値", "ja")
        == "/攻撃 範囲 ユニット:槌 ダメージ:3 半径:1 種類:確定ダメージ"
    )
    assert shown("/千幻抄 奇襲 攻撃側:a 対象:b 距離:10", "ja") == "/千幻抄 不意打ち 攻撃側:a 対象:b 距離:10"
    assert shown("/ロール 式:2d6+5 命中:ゴブリンへ", "en") == "/roll expr:2d6+5 命中:ゴブリンへ"
    # the earlier Japanese names (bot/i18n/ja/renamed.toml) are still read: 奇襲 and 情け of issue 23, item 7
    assert (
        shown("/千幻抄 ダメージ 名前:a 量:3 情け:HP1で行動不能", "en")
        == "/sg damage name:a amount:3 mercy:hp1"
    )
    assert (
        shown("/千幻抄 奇襲 攻撃側:a 対象:b 距離:10", "en") == "/sg surprise attacker:a target:b distance:10"
    )
    assert shown("/fort heal amount:12", "ja") == "/砦 回復 量:12"
    # what names no command (a text cut at the log's limit, say) is shown as it is
    assert shown("/nonsense x:1", "ja") == "/nonsense x:1"
    assert shown('/unit add name:"ゴブリン…', "ja") == '/unit add name:"ゴブリン…'


def test_an_embeds_title_is_the_command_in_the_readers_words() -> None:
    view = EventsView(ruleset="fort", command="/unit hp unit:u1 delta:-1", actor="1", seq=3)
    assert events_embeds(view, "ja")[0].title == "/ユニット hp ユニット:u1 増減:-1"
    assert events_embeds(view, "en")[0].title == "/unit hp unit:u1 delta:-1"
