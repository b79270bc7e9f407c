"""Rendering benchmark: a catalogue sentence filled in, and the live status message of a big battle.

Run: ``python benchmarks/render.py [--runs 7]``. Medians of ``--runs`` runs, each beside its baseline
measured in the same run:

- ``t()``: every sentence of the Japanese catalogue filled in, against ``string.Formatter().vformat``
  per call (how ``t()`` filled them before);
- the live status of a fort battle at COMMANDS.md's limits (200 units, 20 commanders, 20 PCs, names
  of 32 characters), against reading the full status first and then the compact form (what it did
  before the names floor let it skip the full status it cannot send).
"""

from __future__ import annotations

import argparse
import statistics
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "discord"))

from big_battles import fort_document

from bot.discord.live_layout import LiveMessage, fits, whole
from bot.i18n import catalogue, placeholders, t
from bot.rulesets.fort.discord import live as fort_live
from bot.rulesets.fort.discord import presenter as fort
from bot.views import StatusView


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _formatter_t(key: str, lang: str, **values: Any) -> str:
    """``t()`` as it was: a ``string.Formatter`` per call."""
    text = catalogue(lang)[key]
    return string.Formatter().vformat(text, (), _Missing(values))


def _live_before(view: StatusView, lang: str) -> LiveMessage:
    """The fort live status as it was: the full status read first, whatever the battle's size."""
    title, lines = fort.status_head(view, lang)
    room = fort_live.limits.TOTAL - len(title) - len("\n".join(lines))
    fields = whole(room, fort.status_sections(view, lang))
    if fields is not None:
        embeds = fort_live.limits.build(
            title=title, lines=lines, fields=fields, colour=fort.colour(view.document)
        )
        if fits(embeds):
            return LiveMessage(embeds)
    return LiveMessage(fort_live._compact(view, lang, title, lines), compact=True)


def _median_us(one: Callable[[], object], runs: int, per_run: int) -> float:
    one()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(per_run):
            one()
        times.append((time.perf_counter() - start) * 1e6 / per_run)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)

    calls = [(key, {name: 12 for name in placeholders(text)}) for key, text in catalogue("ja").items()]

    def fill_all(fill: Callable[..., str]) -> Callable[[], None]:
        def go() -> None:
            for key, values in calls:
                fill(key, "ja", **values)

        return go

    now_t = _median_us(fill_all(t), args.runs, 20) / len(calls)
    before_t = _median_us(fill_all(_formatter_t), args.runs, 20) / len(calls)

    view = StatusView(ruleset="fort", document=fort_document())
    assert _live_before(view, "ja").embeds == fort_live.live_embeds(view, "ja").embeds
    now_live = _median_us(lambda: fort_live.live_embeds(view, "ja"), args.runs, 50)
    before_live = _median_us(lambda: _live_before(view, "ja"), args.runs, 50)

    print(f"rendering, median of {args.runs} runs")
    print(f"{'what':<44} {'now µs':>10} {'before µs':>10}")
    label = f"t(): a catalogue sentence ({len(calls)} keys)"
    print(f"{label:<44} {now_t:>10.2f} {before_t:>10.2f}")
    print(f"{'live status, fort battle at the limits':<44} {now_live:>10.0f} {before_live:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
