"""Pictures in Discord messages: a rule set's battlefield in ``/fort map`` and in the live status
message, its chart in the final summary, each an attachment shown as its embed's image
(``RuleSet.pictures``).

A picture is drawn in one worker thread (drawing takes tens of milliseconds: not on the event loop,
and one at a time, as a font is not to be shared between threads), and kept by battle and version
(``bot.render.picture.pictures.PictureCache``), so a status message edited for another reason is
not redrawn.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

from bot.discord import limits
from bot.i18n import LANGUAGES
from bot.registry import rulesets
from bot.render.picture.pictures import PictureCache, has_map, pictures_of
from bot.views import StatusView

#: the attachment's name in the live status message (``/fort map`` names its file after the battle)
LIVE_FILE = "battlefield.png"
#: Discord's limit for an attachment's description (alt text)
ALT_MAX = 1024

log = logging.getLogger(__name__)
_DRAWER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toride-picture")


async def in_picture_thread(draw: Callable[..., bytes], *args: Any) -> bytes:
    """``draw(*args)`` in the pictures' worker thread (one at a time, off the event loop)."""
    return await asyncio.get_running_loop().run_in_executor(_DRAWER, draw, *args)


async def status_picture(view: StatusView, lang: str, pictures: PictureCache) -> bytes | None:
    """The battlefield of ``view`` as a PNG, drawn off the event loop (None: no map for its rule set)."""
    if not has_map(view.ruleset):
        return None
    return await asyncio.get_running_loop().run_in_executor(_DRAWER, pictures.status_map, view, lang)


def warm_up(langs: tuple[str, ...] = LANGUAGES) -> None:
    """Load the fonts and draw what every map shares, in the background, so that the first map a
    channel asks for costs what the next ones do (called once at start-up)."""
    samples = [(r.name, pictures_of(r.name)) for r in rulesets() if r.pictures is not None]

    def draw() -> None:
        try:
            for name, pictures in samples:
                for lang in langs:
                    sample = StatusView(ruleset=name, document=dict(pictures.sample) if pictures else {})
                    PictureCache().status_map(sample, lang)
        except Exception:  # the pictures will be drawn (or fail, and say so) when asked for
            log.exception("warming up the pictures failed")

    _DRAWER.submit(draw)


def alt_text(view: StatusView, lang: str) -> str:
    """What the picture shows, for those who cannot see it: its rule set's words for it, else the text
    status's first lines."""
    pictures = pictures_of(view.ruleset)
    if pictures is not None and pictures.alt is not None:
        return limits.shorten(pictures.alt(view, lang), ALT_MAX)
    found = rulesets().get(view.ruleset)
    renderer = found.text.status if found is not None else None
    if renderer is None:
        return ""
    return limits.shorten("\n".join(renderer(view, lang).split("\n")[:2]), ALT_MAX)


def attach(embeds: list[discord.Embed], png: bytes, filename: str, alt: str = "") -> discord.File:
    """``png`` as a file shown as the image of the last of ``embeds``."""
    embeds[-1].set_image(url=f"attachment://{filename}")
    return discord.File(io.BytesIO(png), filename=filename, description=alt or None)


async def status_files(
    view: StatusView, lang: str, embeds: list[discord.Embed], pictures: PictureCache
) -> list[discord.File]:
    """The live status message's picture, set into its embeds (none for a rule set without a map)."""
    png = await status_picture(view, lang, pictures)
    if png is None:
        return []
    return [attach(embeds, png, LIVE_FILE, alt_text(view, lang))]
