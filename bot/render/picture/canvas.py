"""Drawing helpers over Pillow shared by the map and the chart: cached text, bars, the PNG.

Text is the slow part of a picture (the font rasterises each glyph), so each character of each
size is drawn once into a mask and kept, and a line of text is its characters' masks put side by
side at their advances, as Pillow's basic layout places them (it does not kern); lines are kept
too, so a redraw of the same battle pastes its names whole. The PNG is written with the theme's
fixed palette (``theme.palette()``): a third of the bytes of full colour to compress, and no
filter to choose per row.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.render.picture import theme
from bot.render.picture.fonts import font
from bot.render.picture.theme import RGB

ELLIPSIS = "…"


@cache
def _line(size: int) -> tuple[int, int]:
    """Where the ink of a line of ``size`` px text sits below its top: (top, bottom) of ``あg``."""
    _, top, _, bottom = font(size).getbbox("あg")
    return int(top), int(bottom)


#: room each side of a glyph's advance for ink that overhangs it
_OVERHANG = 4


@lru_cache(maxsize=8192)
def _glyph(char: str, size: int) -> tuple[Image.Image, float]:
    """One character drawn once: its mask (with ``_OVERHANG`` px each side) and its advance."""
    f = font(size)
    advance = f.getlength(char)
    _, bottom = _line(size)
    mask = Image.new("L", (int(advance) + 2 * _OVERHANG + 1, bottom + size // 3))
    ImageDraw.Draw(mask).text((_OVERHANG, 0), char, font=f, fill=255)
    return mask, advance


@lru_cache(maxsize=2048)  # a few channels' names, in a few megabytes
def _mask(text: str, size: int) -> Image.Image:
    """A line of text as one mask: its characters' masks side by side at their advances."""
    _, bottom = _line(size)
    mask = Image.new("L", (width(text, size) + 2 * _OVERHANG, bottom + size // 3))
    pen = float(_OVERHANG)
    for char in text:
        glyph, advance = _glyph(char, size)
        if not char.isspace():
            mask.paste(glyph, (round(pen) - _OVERHANG, 0), glyph)
        pen += advance
    return mask


def width(text: str, size: int) -> int:
    """How wide ``text`` is: the sum of its characters' advances (the basic layout does not kern)."""
    return round(sum(_glyph(c, size)[1] for c in text))


@lru_cache(maxsize=4096)
def fit(text: str, size: int, room: int) -> str:
    """``text`` shortened with "…" to fit ``room`` px (the whole text if it fits)."""
    if width(text, size) <= room:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if width(text[:mid] + ELLIPSIS, size) <= room:
            low = mid
        else:
            high = mid - 1
    return text[:low] + ELLIPSIS if low else ""


class Canvas:
    """An RGB picture being drawn."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    @classmethod
    def blank(cls, width_: int, height: int, colour: RGB = theme.CANVAS) -> Canvas:
        return cls(Image.new("RGB", (width_, height), colour))

    def copy(self) -> Canvas:
        return Canvas(self.image.copy())

    def text(
        self, x: int, cy: int, text: str, size: int, colour: RGB = theme.TEXT, *, room: int | None = None,
        align: str = "left",
    ) -> int:  # fmt: skip
        """``text`` with its ink centred on the line ``cy``, from ``x`` (or ending at ``x`` when
        ``align="right"``), shortened to ``room`` px; returns the x where it ends (or begins)."""
        if room is not None:
            text = fit(text, size, room)
        if not text:
            return x
        top, bottom = _line(size)
        mask = _mask(text, size)
        w = mask.width - 2 * _OVERHANG
        left = x - w if align == "right" else x
        self.image.paste(colour, (left - _OVERHANG, cy - (top + bottom) // 2), mask)
        return left if align == "right" else left + w

    def box(
        self, box: tuple[int, int, int, int], fill: RGB, outline: RGB | None = None, radius: int = 6
    ) -> None:
        """A rounded rectangle (x0, y0, x1, y1), edges included."""
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=2 if outline else 0)

    def tile(
        self,
        box: tuple[int, int, int, int],
        fill: RGB,
        ground: RGB,
        outline: RGB | None = None,
        radius: int = 6,
    ) -> None:
        """``box`` as a rounded rectangle on a ``ground`` of one colour: drawn once per size and
        colours, then pasted (a battle has dozens of rows of a few sizes)."""
        x0, y0, x1, y1 = box
        self.image.paste(_tile(x1 - x0 + 1, y1 - y0 + 1, fill, ground, outline, radius), (x0, y0))

    def bar(self, x: int, y: int, w: int, h: int, value: int, full: int) -> None:
        """An HP bar: the filled part is ``value / full`` of ``w`` (at least 1 px while above 0)."""
        filled = filled_length(value, full, w)
        self.draw.rectangle((x, y, x + w - 1, y + h - 1), fill=theme.TRACK)
        if filled:
            self.draw.rectangle((x, y, x + filled - 1, y + h - 1), fill=theme.hp_colour(value, full))

    def png(self) -> bytes:
        """The picture as a PNG in the theme's palette (colours off the palette go to the nearest)."""
        indexed = self.image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        indexed.save(out, "PNG", compress_level=3)
        return out.getvalue()


@lru_cache(maxsize=256)
def _tile(w: int, h: int, fill: RGB, ground: RGB, outline: RGB | None, radius: int) -> Image.Image:
    canvas = Canvas.blank(w, h, ground)
    canvas.box((0, 0, w - 1, h - 1), fill, outline, radius)
    return canvas.image


def filled_length(value: int, full: int, w: int) -> int:
    if full <= 0 or value <= 0:
        return 0
    return max(1, min(w, round(w * value / full)))


@cache
def _palette_image() -> Image.Image:
    colours = theme.palette()
    flat = [c for colour in colours for c in colour]
    flat += list(colours[0]) * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image
