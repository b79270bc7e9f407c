"""Sheets and palettes in Discord: a palette line rolled, a palette shown, the ココフォリア export file."""

from __future__ import annotations

import io

import discord

from bot.discord import limits
from bot.discord.offers import offer_view
from bot.discord.presenter import NEUTRAL, ROLL, SECRET
from bot.discord.reply import Reply
from bot.discord.secrets import secret_notice
from bot.discord.text import md
from bot.i18n import t
from bot.render import secret_text
from bot.render.sheet_text import palette_lines
from bot.views import ExportView, PaletteRollView, PaletteView


def roll_reply(view: PaletteRollView, lang: str, user: str) -> Reply:
    """The line's label as the title, the expanded command and BCDice's text beside it."""
    name = user or view.actor
    embeds = limits.build(
        title=md(t("palette.roll_title", lang, pc=view.pc, label=view.label)),
        # in code, as typed (markdown is not read there; a backtick would end it)
        lines=[
            f"`{view.expanded.replace('`', chr(0x2018))}`",
            md(view.text),
            *(md(line) for line in secret_text.kept_lines(view, lang)),
        ],
        colour=SECRET if view.secret else ROLL,
        author=name,
    )
    buttons = offer_view(view.offers, lang) if view.offers else None
    if not view.secret:
        return Reply([embeds], view.ephemeral, view=buttons)
    return Reply([embeds], ephemeral=True, notice=secret_notice(view, lang, name), view=buttons)


def palette_reply(view: PaletteView, lang: str) -> Reply:
    title, *lines = palette_lines(view, lang)
    embeds = limits.build(title=md(title), lines=[md(line) for line in lines], colour=NEUTRAL)
    return Reply(limits.messages(embeds), view.ephemeral)


def export_reply(view: ExportView, lang: str) -> Reply:
    """A file of ココフォリア characters, one a line, with how to paste them."""
    data = (view.text or "").encode("utf-8")
    embeds = limits.build(
        lines=[t(f"export.{view.format}_done", lang, filename=md(view.filename))], colour=NEUTRAL
    )
    return Reply([embeds], view.ephemeral, file=discord.File(io.BytesIO(data), filename=view.filename))
