"""The live status renders what it sends: a battle whose names alone pass one message goes to the
compact form without reading its full status, and the compact form makes only the lines it sends
(and one a part that did not fit). The floor never sends a battle to the compact form whose full
status fits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from big_battles import AREAS, fort_document

from bot.discord.live_layout import whole
from bot.rulesets.fort.discord import live as fort_live
from bot.rulesets.fort.discord import presenter as fort_presenter
from bot.views import StatusView

MORE = {"ja": re.compile(r"^…ほか (\d+) 件$"), "en": re.compile(r"^… and (\d+) more$")}


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    for name in ("unit_line", "pc_line", "commander_line"):
        original = getattr(fort_presenter, name)

        def counted(thing: Any, lang: str, original: Any = original) -> str:
            line: str = original(thing, lang)
            made.append(line)
            return line

        for module in (fort_presenter, fort_live):
            monkeypatch.setattr(module, name, counted)
    return made


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_big_battle_makes_only_the_lines_it_sends(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    made = _counting(monkeypatch)
    doc = fort_document()
    live = fort_live.live_embeds(StatusView(ruleset="fort", document=doc), lang)
    assert live.compact
    entries = [
        line
        for e in live.embeds
        for f in e.fields
        if f.name in AREAS
        for line in (f.value or "").split("\n")[1:]  # an area's first line counts what is there
        if not MORE[lang].match(line)
    ]
    # the lines sent, and at most one per area that did not fit
    assert len(entries) <= len(made) <= len(entries) + len(AREAS)
    assert len(made) < len(doc["units"]) // 2


def _full_fits(view: StatusView, lang: str) -> bool:
    title, lines = fort_presenter.status_head(view, lang)
    room = fort_live.limits.TOTAL - len(title) - len("\n".join(lines))
    return whole(room, fort_presenter.status_sections(view, lang)) is not None


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name_length", [1, 8, 32])
def test_the_floor_never_hides_a_full_status_that_fits(lang: str, name_length: int) -> None:
    seen = set()
    for units in range(0, 201, 5):
        doc = fort_document(
            units=units, commanders=units // 10, pcs=min(20, units // 5), name_length=name_length
        )
        view = StatusView(ruleset="fort", document=doc)
        fits = _full_fits(view, lang)
        title, lines = fort_presenter.status_head(view, lang)
        room = fort_live.limits.TOTAL - len(title) - len("\n".join(lines))
        if fits:
            assert fort_live.names_floor(doc) <= room, units
            assert not fort_live.live_embeds(view, lang).compact
        seen.add(fits)
    assert seen == {True, False}
