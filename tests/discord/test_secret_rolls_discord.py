"""Issue 35, item 3: secret rolls the GM sees and the table can see later (COMMANDS.md, ``/roll``).

Three users through Discord's payloads: ボブ rolls ``S2d6+5`` (slash and chat), a second player (Alice)
and the GM read ``/ダイス 秘密一覧``; only ボブ and a GM see its result until it is revealed with
``/ダイス 公開 番号:1``, which posts the original text with its time (a Discord timestamp)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from chat_payloads import chat_message
from discord_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    DM_CHANNEL_BASE,
    GM,
    MEMBER_PERMISSIONS,
    Dice,
    Harness,
    Member,
    Request,
    Role,
)

from bot.i18n import t
from bot.service import BattleService
from bot.service.secret_rolls import request
from bot.service.types import Refused
from bot.storage.interface import Storage

ROLLED = "(2D6+5) ＞ 11[6,5]+5 ＞ 16"
MANAGE_SERVER = 1 << 5
ADMIN = Member(400000000000000041, "Admin", permissions=MEMBER_PERMISSIONS | MANAGE_SERVER)
GM_ROLE = Role(500000000000000041, "GM")
ROLE_GM = Member(400000000000000042, "ロールGM", roles=(GM_ROLE.id,))


@pytest.fixture
async def table(storage: Storage, dice: Dice) -> AsyncIterator[Harness]:
    h = await Harness.create(BattleService(storage, dice), defer_after=None, chat_dice=True)
    yield h
    await h.bot.coalescer.close()


async def start_battle(h: Harness) -> None:
    """GM太郎 starts a fort battle here: he is its GM (the others are players)."""
    result = await h.run(GM, "fort start", rounds=3)
    assert not result.response.ephemeral, result.text()


async def set_role(h: Harness) -> None:
    result = await h.run(ADMIN, "gm role", role=GM_ROLE)
    assert not result.response.ephemeral, result.text()


async def secret_roll(h: Harness, dice: Dice) -> None:
    dice.feed(6, 5)
    result = await h.run(BOB, "roll", expr="S2d6+5 隠密")
    assert result.response.ephemeral
    mine = result.response.text()
    assert ROLLED in mine and "#1" in mine and "/ダイス 公開 番号:1" in mine
    (note,) = result.followups
    assert not note.ephemeral
    assert note.text() == "ボブがシークレットダイス#1を振りました。"


def everything_public(h: Harness, start: int) -> str:
    """Every message any member can read that the bot sent since ``start``: not ephemeral ones."""
    out = []
    for r in h.recorder.requests[start:]:
        if r.data.get("flags", 0) & 64 or (r.path.endswith("/callback") and r.ephemeral):
            continue
        out.append(r.text())
    return "\n".join(out)


async def test_a_secret_roll_is_seen_by_its_roller_and_a_gm_not_by_another_player(
    table: Harness, dice: Dice
) -> None:
    await start_battle(table)
    start = len(table.recorder.requests)
    await secret_roll(table, dice)
    # another player: only their own (none), nothing of ボブ's
    other = await table.run(ALICE, "roll", expr="secrets")
    assert other.response.ephemeral
    assert other.response.text() == t("secrets.empty_own", "en")
    refused = await table.run(ALICE, "roll", expr="reveal number:1")
    assert refused.response.ephemeral and "16" not in refused.text()
    assert refused.response.text() == "⚠ " + t("secrets.none_to_reveal", "en", number=1)
    # the battle's GM: every roller's, with the result
    gm = await table.run(GM, "roll", expr="秘密一覧")
    assert gm.response.ephemeral
    listed = gm.response.text()
    assert t("secrets.header_all", "ja", count=1) in listed
    assert "#1 <t:" in listed and f"<@{BOB.id}>: {ROLLED}  隠密" in listed.replace("\\", "")
    # the server's GM role too, with no battle's rights
    await set_role(table)
    role = await table.run(ROLE_GM, "roll", expr="秘密一覧")
    assert ROLLED in role.response.text().replace("\\", "")
    # nothing public held the result until now
    assert "16" not in everything_public(table, start).replace("<@", "")


async def test_the_roller_reveals_the_original_text_with_its_time(table: Harness, dice: Dice) -> None:
    await secret_roll(table, dice)
    before = datetime.now(UTC) - timedelta(seconds=5)
    shown = await table.run(BOB, "roll", expr="公開 番号:1")
    assert not shown.response.ephemeral
    text = shown.response.text().replace("\\", "")
    assert text.startswith(f"<@{BOB.id}>がシークレットダイス#1を公開しました(<t:")
    assert f"{ROLLED}  隠密" in text
    stamp = int(text.split("<t:")[1].split(":")[0])
    assert before.timestamp() <= stamp <= datetime.now(UTC).timestamp()


async def test_a_gm_reveals_a_players_roll_and_says_whose(table: Harness, dice: Dice) -> None:
    await start_battle(table)
    await secret_roll(table, dice)
    shown = await table.run(GM, "roll", expr="reveal 1")
    assert not shown.response.ephemeral
    text = shown.response.text().replace("\\", "")
    assert text.startswith(f"<@{GM.id}>がシークレットダイス#1を公開しました(<@{BOB.id}>が<t:")
    assert ROLLED in text


async def test_a_chat_secret_roll_is_kept_and_listed_to_the_gm(table: Harness, dice: Dice) -> None:
    enabled = await table.run(ADMIN, "settings", chat_dice=True)
    assert not enabled.response.ephemeral
    dice.feed(6, 5)
    start = len(table.recorder.requests)
    before = asyncio.all_tasks()
    table.bot._connection.parse_message_create(chat_message(BOB, "S2d6+5 隠密", table.guild_id, CHANNEL_ID))  # type: ignore[arg-type]
    await table.settle(before)
    sent: list[Request] = table.recorder.requests[start:]
    (notice,) = [r for r in sent if r.path == f"/channels/{CHANNEL_ID}/messages"]
    assert notice.text() == "ボブがシークレットダイス#1を振りました。"
    (dm,) = [r for r in sent if r.path == f"/channels/{DM_CHANNEL_BASE + BOB.id % 1000}/messages"]
    assert ROLLED in dm.text() and "#1" in dm.text()
    await set_role(table)
    listed = await table.run(ROLE_GM, "roll", expr="秘密一覧")
    assert ROLLED in listed.response.text().replace("\\", "")


async def test_mistakes_are_refused_in_the_readers_words(table: Harness, dice: Dice) -> None:
    await secret_roll(table, dice)
    cases: list[tuple[Member, str, str]] = [
        (BOB, "公開", t("secrets.reveal_number", "ja", given="")),
        (BOB, "公開 番号:十", t("secrets.reveal_number", "ja", given="番号:十")),
        (BOB, "公開 7", t("secrets.no_such_one", "ja", number=7, only=1)),
        (BOB, "秘密一覧 全部", t("secrets.list_extra", "ja", extra="全部")),
        (ALICE, "reveal", t("secrets.reveal_number", "en", given="")),
    ]
    for member, expr, said in cases:
        result = await table.run(member, "roll", expr=expr)
        assert result.response.ephemeral
        assert result.response.text() == "⚠ " + said, (expr, result.text())
    assert "/ダイス 公開 番号:3" in t("secrets.reveal_number", "ja", given="")
    assert "/roll reveal number:3" in t("secrets.reveal_number", "en", given="")


@pytest.mark.parametrize(
    ("expr", "asked"),
    [
        ("secrets", ("list", None)),
        ("秘密一覧", ("list", None)),
        ("SECRETS", ("list", None)),
        ("reveal 3", ("reveal", 3)),
        ("reveal number:12", ("reveal", 12)),
        ("公開 番号：３", ("reveal", 3)),
        ("公開 #4", ("reveal", 4)),
        ("S2d6+5 秘密一覧", None),
        ("2d6", None),
        ("choice[secrets,reveal]", None),
    ],
)
def test_the_words_of_roll_that_are_no_dice(expr: str, asked: Any) -> None:
    assert request(expr) == asked


def test_a_reveal_without_a_number_is_refused() -> None:
    with pytest.raises(Refused):
        request("reveal me")
