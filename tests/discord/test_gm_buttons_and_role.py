"""GM rights through Discord: the status buttons are checked like the commands, Manage Channels counts
in its own channel only, the server's GM role (``/gm role``, Manage Server) on its own server only.

Interactions carry what Discord resolved for the member *in that channel* (``member.permissions``)
and the member's role ids; the bot hands both to the service, which decides.
"""

from __future__ import annotations

import json

from discord_harness import (
    BOB,
    CHANNEL_ID,
    GM,
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    Attachment,
    Harness,
    Member,
    Result,
    Role,
)

from bot.discord.buttons import NEXT, UNDO
from bot.i18n import t
from bot.i18n.names import CommandName
from bot.service import Where
from bot.views import StatusView

OTHER_CHANNEL = CHANNEL_ID + 1
MANAGE_SERVER = 1 << 5
GM_ROLE = Role(500000000000000001, "GM")
#: Manage Channels in OTHER_CHANNEL only: Discord resolves the member's permissions per channel
KEEPER_HERE = Member(400000000000000010, "Keeper", permissions=MEMBER_PERMISSIONS)
KEEPER_THERE = Member(400000000000000010, "Keeper", permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
ADMIN = Member(400000000000000011, "Admin", permissions=MEMBER_PERMISSIONS | MANAGE_SERVER)
ROLE_MEMBER = Member(400000000000000012, "Rolf", roles=(GM_ROLE.id,))


async def document(h: Harness, channel: int = CHANNEL_ID) -> str:
    view = await h.bot.service.status(Where(str(h.guild_id), str(channel)))
    assert isinstance(view, StatusView)
    return json.dumps(view.document, sort_keys=True)


def gm_only(result: Result, command: str) -> None:
    assert result.ephemeral, result.text()
    assert result.text() == "⚠ " + t(
        "service.gm_only", "ja", command=CommandName(command.removeprefix("/")), gms="<@400000000000000001>"
    )


async def test_the_status_buttons_are_checked_like_the_commands_in_every_channel(harness: Harness) -> None:
    h = harness
    await h.run(GM, "fort start", rounds=3)
    await h.run(GM, "unit add", name="G", type="normal", area="A2", hp=10, fort_damage=1)
    # Bob is the GM of a battle of his own next door, and made himself its co-GM
    await h.run(BOB, "fort start", channel_id=OTHER_CHANNEL, rounds=3)
    await h.run(BOB, "gm add", channel_id=OTHER_CHANNEL, user=BOB)
    before = await document(h)
    gm_only(await h.press(BOB, NEXT), "/fort next")
    gm_only(await h.press(BOB, UNDO), "/gm undo")
    gm_only(await h.run(BOB, "fort next"), "/fort next")
    # Manage Channels in the other channel is nothing here
    gm_only(await h.press(KEEPER_HERE, NEXT), "/fort next")
    assert await document(h) == before
    assert not (await h.press(GM, UNDO)).ephemeral  # the GM's press runs (the unit add is undone)
    h.channel_id = OTHER_CHANNEL
    try:
        # Manage Channels there: a GM there once they took that battle over
        assert (await h.press(KEEPER_THERE, NEXT)).ephemeral
        assert not (await h.run(KEEPER_THERE, "gm takeover")).ephemeral
        pressed = await h.press(KEEPER_THERE, NEXT)
        assert not pressed.ephemeral and pressed.embeds[0]["title"] == "/砦 次へ"
    finally:
        h.channel_id = CHANNEL_ID


async def test_the_servers_gm_role_set_with_manage_server_counts_on_its_server_only(harness: Harness) -> None:
    h = harness
    await h.run(GM, "fort start", rounds=3)
    refused = await h.run(GM, "gm role", role=GM_ROLE)  # the battle's GM is no server admin
    assert refused.ephemeral and refused.text() == "⚠ " + t("gm.role_manage_server", "ja")
    gm_only(await h.press(ROLE_MEMBER, NEXT), "/fort next")
    result = await h.run(ADMIN, "gm role", role=GM_ROLE)
    assert not result.ephemeral
    assert result.embeds[0]["description"] == t("gm.role_set", "ja", role=f"<@&{GM_ROLE.id}>")
    assert result.response.data["allowed_mentions"] == {"parse": []}
    pressed = await h.press(ROLE_MEMBER, NEXT)
    assert not pressed.ephemeral and pressed.embeds[0]["title"] == "/砦 次へ"
    # the same role id on another server is nothing there
    h.guild_id += 1
    try:
        await h.run(GM, "fort start", rounds=3)
        gm_only(await h.press(ROLE_MEMBER, NEXT), "/fort next")
    finally:
        h.guild_id -= 1
    removed = await h.run(ADMIN, "gm role")
    assert removed.embeds[0]["description"] == t("gm.role_removed", "ja")
    gm_only(await h.press(ROLE_MEMBER, UNDO), "/gm undo")


async def test_a_utf8_bom_in_an_attachment_is_accepted(harness: Harness) -> None:
    battle = {"format": "toride.fort/1", "title": "BOM", "rounds": 2}
    file = Attachment("battle.json", b"\xef\xbb\xbf" + json.dumps(battle).encode("utf-8"))
    result = await harness.run(GM, "fort import", file=file)
    assert not result.ephemeral, result.text()
    assert json.loads(await document(harness))["title"] == "BOM"
