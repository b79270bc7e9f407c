"""The Japanese font of the pictures: Noto Sans CJK JP, installed from PyPI with the project.

The font file comes with the ``noto-cjk-sans-jp-regular`` package (SIL Open Font License 1.1) and
is found through ``importlib.resources``, so no system font is assumed (the Docker image included).
Fonts are loaded once per size; text is laid out with Pillow's basic engine (Japanese needs no
shaping, and it is the faster one).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from PIL import ImageFont

#: the package that carries the font file, and the file's name in it
FONT_PACKAGE = "noto_cjk_sans_jp_regular"
FONT_FILE = "NotoSansCJKjp-Regular.otf"


@cache
def font_path() -> Path:
    """The installed font file (a real file: the package is installed unzipped)."""
    path = resources.files(FONT_PACKAGE).joinpath(FONT_FILE)
    return Path(str(path))


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path()), size, layout_engine=ImageFont.Layout.BASIC)
