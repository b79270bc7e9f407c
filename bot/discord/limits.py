"""Discord's embed limits, kept by splitting and shortening (never by an error).

Each function takes plain text pieces and gives pieces that fit: a description of at most 4096
characters, fields of at most 1024 with names of 256, 25 fields an embed, 6000 characters and 10
embeds a message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

TITLE = 256
DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FIELDS = 25
FOOTER = 2048
AUTHOR = 256
TOTAL = 6000
EMBEDS = 10
ELLIPSIS = "…"
#: what an empty field holds (Discord refuses an empty value): a zero-width space, nothing to read
BLANK = "\u200b"
#: the footer we write is kept short, so title + description + author + footer always fit in TOTAL
FOOTER_USED = 512


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def chunks(lines: Iterable[str], limit: int) -> list[str]:
    """Join lines with newlines into pieces of at most ``limit`` characters (a longer line is shortened)."""
    pieces: list[str] = []
    current = ""
    for raw in lines:
        line = shorten(raw, limit)
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit:
            current = candidate
            continue
        pieces.append(current)
        current = line
    if current:
        pieces.append(current)
    return pieces


def embed_size(embed: discord.Embed) -> int:
    return len(embed)


def fields_of(name: str, lines: Sequence[str], *, inline: bool = False) -> list[tuple[str, str, bool]]:
    """One field, or several (``name``, ``name (2)``, ...) when the lines do not fit in 1024 characters."""
    pieces = chunks(lines, FIELD_VALUE) or [BLANK]
    out = []
    for i, piece in enumerate(pieces):
        title = name if i == 0 else f"{name} ({i + 1})"
        out.append((shorten(title, FIELD_NAME), piece, inline))
    return out


def build(
    *,
    title: str | None = None,
    lines: Sequence[str] = (),
    fields: Sequence[tuple[str, str, bool]] = (),
    colour: int | None = None,
    footer: str | None = None,
    author: str | None = None,
) -> list[discord.Embed]:
    """Embeds for a title, description lines and fields, split so that each embed fits."""
    footer = shorten(footer, FOOTER_USED) if footer else None
    author = shorten(author, AUTHOR) if author else None
    reserve = len(footer or "") + len(author or "")
    descriptions = chunks(lines, DESCRIPTION) or [""]
    embeds: list[discord.Embed] = []
    for i, description in enumerate(descriptions):
        embed = discord.Embed(
            title=shorten(title, TITLE) if title and i == 0 else None,
            description=description or None,
            colour=colour,
        )
        embeds.append(embed)
    current = embeds[-1]
    for name, value, inline in fields:
        name, value = shorten(name or BLANK, FIELD_NAME), shorten(value or BLANK, FIELD_VALUE)
        if len(current.fields) >= FIELDS or len(current) + len(name) + len(value) > TOTAL - reserve:
            current = discord.Embed(colour=colour)
            embeds.append(current)
        current.add_field(name=name, value=value, inline=inline)
    if author:
        embeds[0].set_author(name=author)
    if footer:
        embeds[-1].set_footer(text=footer)
    return embeds


def messages(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Group embeds into messages of at most 10 embeds and 6000 characters."""
    out: list[list[discord.Embed]] = []
    current: list[discord.Embed] = []
    size = 0
    for embed in embeds:
        length = len(embed)
        if current and (len(current) >= EMBEDS or size + length > TOTAL):
            out.append(current)
            current, size = [], 0
        current.append(embed)
        size += length
    if current:
        out.append(current)
    return out
