"""The map and the chart as pictures: PNGs that open at their size, bars as long as the HP they show,
Japanese names drawn with the font's glyphs (not its empty .notdef box), files small enough for Discord."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pytest
from picture_helpers import battle, limits_battle
from PIL import Image

from bot.i18n import LANGUAGES, catalogue
from bot.render.picture import theme
from bot.render.picture.canvas import _glyph
from bot.render.picture.fonts import FONT_PACKAGE, font, font_path
from bot.rulesets.fort.pictures import geometry as g
from bot.rulesets.fort.pictures.chart import HEIGHT as CHART_H
from bot.rulesets.fort.pictures.chart import WIDTH as CHART_W
from bot.rulesets.fort.pictures.chart import chart_png
from bot.rulesets.fort.pictures.draw import HP_BAR, HP_Y, LEGEND, TEXT_X, map_png
from bot.rulesets.fort.pictures.layout import MARKS, Token, layout
from engine.ruleset import Event

ROOT = Path(__file__).resolve().parents[2]
#: a code point no font has: what the font draws for it is its .notdef glyph (the "tofu" box)
NO_SUCH_CHARACTER = "\U0010fffd"
FILL = {theme.GOOD, theme.WARN, theme.BAD}


def image(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png))
    picture.load()
    return picture.convert("RGB")


def filled(picture: Image.Image, box: g.Box) -> int:
    """How many pixels of the bar's middle row have a fill colour."""
    y = box.y + box.h // 2
    return sum(1 for x in range(box.x, box.right) if picture.getpixel((x, y)) in FILL)


def test_the_map_is_a_png_of_the_expected_size() -> None:
    png = map_png(battle(units=12, commanders=1, pcs=4, traps=5), "ja")
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG" and picture.size == (1200, g.HEIGHT) == (g.WIDTH, g.HEIGHT)
    assert picture.mode == "P"  # the theme's palette: small and quick to write
    assert len(png) <= 500_000


def test_a_battle_at_the_limits_stays_well_under_discords_size() -> None:
    png = map_png(limits_battle(), "ja")
    assert Image.open(io.BytesIO(png)).size == (g.WIDTH, g.HEIGHT)
    assert len(png) <= 500_000


@pytest.mark.parametrize(
    ("hp", "max_hp"), [(300, 300), (270, 300), (150, 300), (61, 300), (1, 300), (37, 99999)]
)
def test_the_fort_hp_bar_is_as_long_as_the_hp(hp: int, max_hp: int) -> None:
    doc = battle()
    doc["fort"] = {"hp": hp, "max_hp": max_hp, "repaired_round": None}
    picture = image(map_png(doc, "ja"))
    bar = g.FORT_HP_BAR
    expected = max(1, round(bar.w * hp / max_hp))
    assert abs(filled(picture, bar) - expected) <= 2
    # and the rest of the bar is its track
    y = bar.y + bar.h // 2
    assert picture.getpixel((bar.right - 1, y)) == (
        theme.TRACK if hp < max_hp else theme.hp_colour(hp, max_hp)
    )


def test_a_collapsed_fort_has_an_empty_bar() -> None:
    doc = battle()
    doc.update(turn="ended", outcome="collapse", fort={"hp": -12, "max_hp": 300, "repaired_round": None})
    assert filled(image(map_png(doc, "ja")), g.FORT_HP_BAR) == 0


def test_a_units_hp_bar_is_as_long_as_its_hp() -> None:
    doc = battle()
    doc["units"] = [{"name": "ゴブリン隊", "type": "normal", "area": "A1", "hp": 10, "max_hp": 40}]
    (token,) = layout(doc).rows
    assert isinstance(token, Token)
    picture = image(map_png(doc, "ja"))
    w, h = HP_BAR
    bar = g.Box(token.box.x + TEXT_X, token.box.y + HP_Y - h // 2, w, h)
    assert abs(filled(picture, bar) - round(w * 10 / 40)) <= 1


def _mask_bytes(char: str, size: int) -> bytes:
    mask, _ = _glyph(char, size)
    return mask.tobytes()


def test_japanese_names_are_drawn_with_real_glyphs_not_tofu() -> None:
    name = "ゴブリンロード砦上部増援〈魔力の太矢〉"
    tofu = _mask_bytes(NO_SUCH_CHARACTER, theme.NAME)
    assert any(tofu)  # the font's .notdef is a visible box: what a missing glyph would look like
    for char in name:
        mask = _mask_bytes(char, theme.NAME)
        assert any(mask), char
        assert mask != tofu, char
    assert font(theme.NAME).getname() == ("Noto Sans CJK JP", "Regular")


def test_a_japanese_name_leaves_ink_where_it_is_written() -> None:
    doc = battle()
    doc["commanders"] = [{"name": "ゴブリンロード", "area": "A2", "hp": 60, "max_hp": 90}]
    (token,) = layout(doc).rows
    picture = image(map_png(doc, "ja"))
    name_area = picture.crop((token.box.x + 40, token.box.y + 4, token.box.x + 240, token.box.y + 36))
    assert theme.TEXT in {colour for _, colour in name_area.getcolors(4096) or []}


def test_the_font_comes_with_the_project_from_pypi() -> None:
    """No system font is assumed (the Docker image installs the project's dependencies, nothing else)."""
    assert font_path().is_file() and FONT_PACKAGE in str(font_path())
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]
    assert any(d.startswith("noto-cjk-sans-jp-regular") for d in dependencies)
    assert any(d.startswith("Pillow") for d in dependencies)


def test_every_word_of_the_picture_is_in_both_catalogues() -> None:
    keys = [f"map.legend.{k}" for k in LEGEND] + [f"map.area.{a}" for a in g.AREAS]
    keys += [f"chart.cause.{k}" for k in ("unit", "siege", "siege_effect", "repair", "heal", "gm")]
    assert set(LEGEND) >= set(MARKS)
    for lang in LANGUAGES:
        assert [k for k in keys if k not in catalogue(lang)] == []


def test_the_map_in_english() -> None:
    doc = battle(units=6, pcs=2, traps=2)
    doc["title"] = ""
    picture = Image.open(io.BytesIO(map_png(doc, "en")))
    assert picture.size == (g.WIDTH, g.HEIGHT)


def test_the_fort_hp_chart_is_a_png() -> None:
    history = [
        Event(
            "battle.started", {"title": "北の砦", "rounds": 2, "fort_hp": 300, "cannons": 2, "first": "pc"}
        ),
        Event("battle.turn_started", {"round": 1, "side": "enemy"}),
        Event(
            "fort.damaged", {"source": "enter", "unit": "破城槌", "amount": 30, "before": 300, "after": 270}
        ),
        Event("battle.round_summary", {"round": 1, "fort_hp": 270, "fort_max_hp": 300}),
    ]
    doc = {**battle(), "outcome": "success", "fort": {"hp": 270, "max_hp": 300}}
    for lang in LANGUAGES:
        picture = Image.open(io.BytesIO(chart_png(history, doc, lang)))
        assert picture.format == "PNG" and picture.size == (CHART_W, CHART_H)
    quiet = Image.open(io.BytesIO(chart_png([], battle(), "ja")))
    assert quiet.size == (CHART_W, CHART_H)


def test_the_themes_colours_survive_the_palette_exactly() -> None:
    """The PNG's fixed palette keeps every colour of the theme as it is (blends are kept apart from them)."""
    from bot.render.picture.canvas import _palette_image

    colours = {c for inks, grounds, _ in theme.BLENDS for c in (*inks, *grounds)}
    assert len(theme.palette()) <= 256
    for colour in colours:
        pixel = Image.new("RGB", (1, 1), colour).quantize(palette=_palette_image(), dither=Image.Dither.NONE)
        assert pixel.convert("RGB").getpixel((0, 0)) == colour
