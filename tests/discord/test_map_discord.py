"""The battlefield picture through the real discord.py client: ``/fort map`` posts it as an attachment,
the live status message carries it as its embed's image (drawn again only when the battle changed,
at most once per edit interval), and the final summary shows the fort HP chart."""

from __future__ import annotations

import io

from discord_harness import ALICE, CHANNEL_ID, GM, Harness, Request
from PIL import Image

from bot.discord.buttons import REFRESH
from bot.discord.pictures import LIVE_FILE
from bot.rulesets.fort.pictures import geometry as g
from bot.rulesets.fort.pictures.binding import PICTURES


def picture(request: Request, filename: str) -> Image.Image:
    """The request's one file, named ``filename``, shown as the image of its last embed."""
    ((name, data),) = request.files
    assert name == filename
    assert request.embeds[-1]["image"]["url"] == f"attachment://{filename}"
    shown = Image.open(io.BytesIO(data))
    shown.load()
    return shown


def described(request: Request) -> str:
    (attachment,) = request.data["attachments"]
    return str(attachment.get("description") or "")


async def test_fort_map_posts_the_battlefield_as_a_png(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=3, title="北の砦")
    await harness.run(ALICE, "pc add", name="Alice", position="top", hp=40)
    result = await harness.run(ALICE, "fort map")
    assert not result.ephemeral
    filename = f"fort-map-{CHANNEL_ID}-1.png"
    assert picture(result.response, filename).size == (g.WIDTH, g.HEIGHT)
    assert result.embeds[0]["title"] == "[北の砦] Round 1/3, PC side's turn"
    # the words of the picture for those who cannot see it (ALICE reads English)
    assert (
        described(result.response)
        == "[北の砦] Round 1/3, PC side's turn\nFort HP [████████████████████] 300/300"
    )


async def test_the_live_status_carries_the_picture_and_an_unchanged_battle_is_not_redrawn(
    harness: Harness,
) -> None:
    pictures = harness.bot.live.pictures
    start = await harness.run(GM, "fort start", rounds=3, title="北の砦")
    (post,) = start.channel
    assert picture(post, LIVE_FILE).size == (g.WIDTH, g.HEIGHT)
    assert pictures.draws == 1
    # the battle changes: the next edit carries a new picture
    harness.clock.advance(10)
    changed = await harness.run(
        GM, "unit add", name="ゴブリン隊", type="normal", area="A1", hp=40, fort_damage=10
    )
    (edit,) = changed.channel
    assert edit.method == "PATCH" and pictures.draws == 2
    first = picture(edit, LIVE_FILE)
    # the new picture replaces the old one (an edit that kept it would show it beside the embed)
    assert [a["filename"] for a in edit.data["attachments"]] == [LIVE_FILE]
    # a change that leaves the battle as it was (a co-GM added): the message is edited, the picture
    # sent again as it was, not drawn again
    harness.clock.advance(10)
    noticed = await harness.run(GM, "gm add", user=ALICE)
    (again,) = noticed.channel
    assert again.method == "PATCH" and again.path == edit.path
    assert pictures.draws == 2
    assert again.files == edit.files and picture(again, LIVE_FILE).size == first.size
    # the refresh button edits the message in place, with its picture, not drawn again
    pressed = await harness.press(GM, REFRESH)
    assert pressed.response.type == 7 and pictures.draws == 2
    assert picture(pressed.response, LIVE_FILE).size == (g.WIDTH, g.HEIGHT)
    # a busy table: five changes in one interval are one edit and one drawing
    for name in "ABCDE":
        busy = await harness.run(GM, "unit add", name=name, type="normal", area="A2", hp=5, fort_damage=1)
        assert busy.channel == []
    (coalesced,) = await harness.flush_live()
    assert pictures.draws == 3
    assert picture(coalesced, LIVE_FILE).size == (g.WIDTH, g.HEIGHT)


async def test_the_final_summary_shows_the_fort_hp_chart(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=3, title="北の砦")
    ended = await harness.run(GM, "fort end", outcome="retreat")
    final = ended.response
    assert final.embeds[-1]["title"] == "戦闘の結果"
    assert picture(final, PICTURES.chart_file).size == (1200, 640)


async def test_a_deferred_map_keeps_its_picture(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=2, title="北")
    harness.bot.frontend.defer_after = 0  # the answer is late: "thinking ...", then the edit
    result = await harness.run(GM, "fort map")
    edit = result.requests[-1]
    assert result.response.type == 5 and edit.method == "PATCH"
    assert picture(edit, f"fort-map-{CHANNEL_ID}-1.png").size == (g.WIDTH, g.HEIGHT)


async def test_a_battle_without_a_map_has_no_picture(harness: Harness) -> None:
    start = await harness.run(GM, "sg start")
    (post,) = start.channel
    assert post.files == [] and "image" not in post.embeds[-1]


def test_the_bot_warms_the_pictures_up_at_start() -> None:
    """At start-up the font is loaded and the frame of the map drawn, in the drawing thread."""
    from bot.discord import pictures
    from bot.rulesets.fort.pictures import draw

    draw._background.cache_clear()
    pictures.warm_up(("en",))
    pictures._DRAWER.submit(lambda: None).result(timeout=30)  # one thread: the warm-up is done
    assert draw._background.cache_info().currsize == 1


def test_a_file_goes_with_the_message_whose_embed_shows_it() -> None:
    """A final summary split over several messages: the chart goes with the message that shows it."""
    import discord

    from bot.discord.embeds import Reply
    from bot.discord.pictures import attach
    from bot.discord.send import file_message as _file_message

    messages = [[discord.Embed(title="events")], [discord.Embed(title="戦闘の結果")]]
    chart = attach(messages[1], b"png", PICTURES.chart_file)
    assert _file_message(Reply(messages, file=chart)) == 1
    export = discord.File(io.BytesIO(b"{}"), filename="fort.json")  # shown by no embed: the first
    assert _file_message(Reply([[discord.Embed()]], file=export)) == 0
    assert _file_message(Reply([[discord.Embed()]])) == 0
