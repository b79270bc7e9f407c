"""The prep page: its HTML, its fields (from the commands' options) and the map's marks.

Every word on the page is the catalogue's: a field is labelled with its option's description in the
page's language (``opt.<name>.desc``, or ``cmd.<path>.opt.<name>.desc`` where a command has its own),
a choice with its choice's name (``choice.<option>.<value>``), and the page's own words are in
``prep.toml``. The choices of an area or an edge are the engine's own. The script renders the rows
from ``fields()``.
"""

from __future__ import annotations

import html
import io
import json
from functools import cache
from typing import Any

from bot.commands import Option, OptType
from bot.i18n import has, t
from bot.rulesets.fort.prep import build
from engine.fort.map import AREAS, EDGES, edge_text

#: the map's marks a row shows (``bot.rulesets.fort.pictures.marks``)
MARK_KINDS = ("normal", "ram", "flying", "commander", "pc", "soldier", "barricade", "mine")
MARK_PX = 48
#: the page's own words the script uses (``prep.<key>``)
SCRIPT_WORDS = (
    "duplicate", "duplicate_count", "remove", "unnamed", "not_saved", "saved", "running", "checking",
    "sheet_added", "opened",
)  # fmt: skip


def _option_words(path: str, name: str, lang: str) -> str:
    special = f"cmd.{path.replace(' ', '.')}.opt.{name}.desc"
    key = special if has(special, lang) else f"opt.{name}.desc"
    return t(key, lang) if has(key, lang) else name


def _choices(option: Option, name: str, lang: str) -> list[list[str]] | None:
    if name == "area":
        return [[a.value, a.value] for a in AREAS]
    if name == "edge":
        return [[edge_text(e), edge_text(e)] for e in EDGES]
    if option.type is not OptType.CHOICE:
        return None
    words = []
    for value in option.choices:
        key = f"choice.{option.name}.{value}"
        words.append([value, t(key, lang) if has(key, lang) else value])
    return words


def _field(path: str, name: str, required: bool, lang: str) -> dict[str, Any]:
    option = build.spec(path).option(name)
    assert option is not None, f"/{path} has no option {name}"
    return {
        "name": name,
        "label": _option_words(path, name, lang),
        "choices": _choices(option, name, lang),
        "numeric": option.type is OptType.INT,
        "check": option.type is OptType.BOOL,
        "required": required,
        "default": option.default if option.default is not None and option.type is not OptType.INT else None,
    }


@cache
def fields(lang: str) -> dict[str, list[dict[str, Any]]]:
    """Each form's fields: name, label, choices (value, words) or None, numeric, required."""
    out: dict[str, list[dict[str, Any]]] = {}
    for kind, form in (("settings", build.SETTINGS), *build.FORMS.items()):
        needed = build.required(form)
        out[kind] = [_field(form.path, name, name in needed, lang) for name in form.fields]
    units = {f["name"]: f for f in out["units"]}
    out["sheet"] = [{**units[name], "required": False} for name in build.SHEET_FIELDS]
    from bot.rulesets.fort.commands import ODDS

    out["odds"] = [_field(ODDS.path, o.name, False, lang) for o in ODDS.options]
    return out


def _words(lang: str) -> dict[str, str]:
    return {key: t(f"prep.{key}", lang) for key in SCRIPT_WORDS}


def _section(kind: str, lang: str) -> str:
    title = html.escape(t(f"prep.section.{kind}", lang))
    add = html.escape(t(f"prep.add.{kind}", lang))
    return (
        f'<section id="{kind}" aria-labelledby="h-{kind}"><h2 id="h-{kind}">{title}</h2>'
        f'<div class="rows" data-kind="{kind}"></div>'
        f'<button type="button" class="add" data-kind="{kind}">{add}</button></section>'
    )


def html_page(lang: str) -> str:
    e = html.escape

    def w(key: str) -> str:
        return e(t(f"prep.{key}", lang))

    data = json.dumps({"fields": fields(lang), "words": _words(lang), "lang": lang}, ensure_ascii=False)
    data = data.replace("</", "<\\/")
    return f"""<!doctype html>
<html lang="{e(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{w("page_title")}</title>
<link rel="stylesheet" href="/static/prep.css">
<link rel="icon" href="data:,">
</head>
<body>
<header>
<h1>{w("page_title")}</h1>
<div class="tools">
<label class="file">{w("open")} <input type="file" id="open-file" accept=".json,application/json"></label>
<button type="button" id="save">{w("save")}</button>
</div>
<p id="status" role="status" aria-live="polite"></p>
<p class="refusal" data-place="$" role="alert"></p>
</header>
<main>
<div class="build">
<section id="settings" aria-labelledby="h-settings"><h2 id="h-settings">{w("section.battle")}</h2>
<div class="rows" data-kind="settings"></div></section>
{_section("pcs", lang)}
{_section("units", lang)}
<section id="sheet" aria-labelledby="h-sheet"><h2 id="h-sheet">{w("section.sheet")}</h2>
<div class="row"><div class="fields">
<div class="field"><label for="sheet-file">{w("sheet_file")}</label>
<input type="file" id="sheet-file" accept=".json,application/json"></div>
<div class="field"><label for="sheet-url">{w("sheet_url")}</label>
<input type="url" id="sheet-url" inputmode="url"></div>
<div id="sheet-fields" class="contents"></div>
</div>
<p class="refusal" data-place="$.sheet" role="alert"></p>
<button type="button" id="sheet-add">{w("sheet_add")}</button></div></section>
{_section("commanders", lang)}
{_section("traps", lang)}
</div>
<div class="view">
<section id="map" aria-labelledby="h-map"><h2 id="h-map">{w("section.map")}</h2>
<img id="map-picture" alt="{w("map_alt")}" hidden></section>
<section id="odds" aria-labelledby="h-odds"><h2 id="h-odds">{w("section.odds")}</h2>
<div class="row"><div id="odds-fields" class="fields"></div>
<p class="refusal" data-place="$.odds" role="alert"></p>
<button type="button" id="odds-run">{w("odds_run")}</button></div>
<pre id="odds-text" aria-live="polite"></pre>
<img id="odds-chart" alt="{w("chart_alt")}" hidden></section>
</div>
</main>
<script id="prep-data" type="application/json">{data}</script>
<script src="/static/prep.js"></script>
</body>
</html>
"""


@cache
def mark_png(kind: str) -> bytes | None:
    """The map's mark of ``kind`` on a chip, as the picture draws it (None: no such mark)."""
    if kind not in MARK_KINDS:
        return None
    from PIL import Image, ImageDraw

    from bot.render.picture import theme
    from bot.rulesets.fort.pictures.marks import draw_mark

    image = Image.new("RGB", (MARK_PX, MARK_PX), theme.CHIP)
    draw_mark(ImageDraw.Draw(image), kind, MARK_PX / 2, MARK_PX / 2, MARK_PX * 0.7)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
