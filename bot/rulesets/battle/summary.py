"""B-VIEW-1: what a round's summary adds up after its events: the damage each character dealt and took
in the round, from the damage events the reader may read (an unknown monster's, shown by its rough
state only, is not counted: its numbers are not the table's)."""

from __future__ import annotations

from bot.i18n import t
from bot.views import Summary


def _line(key: str, totals: dict[str, int], lang: str) -> str:
    items = [t("bt.summary.item", lang, name=name, amount=amount) for name, amount in totals.items()]
    return "  " + t(key, lang, items=t("render.list_sep", lang).join(items))


def summary_extra(summary: Summary, lang: str) -> list[str]:
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    for event in summary.events:
        if event.kind != "bt.damaged":
            continue
        final = event.data.get("final")
        if not isinstance(final, int):
            continue
        by = event.data.get("by")
        if isinstance(by, str) and by:
            dealt[by] = dealt.get(by, 0) + final
        target = str(event.data.get("target"))
        taken[target] = taken.get(target, 0) + final
    lines = []
    if dealt:
        lines.append(_line("bt.summary.dealt", dealt, lang))
    if taken:
        lines.append(_line("bt.summary.taken", taken, lang))
    return lines
