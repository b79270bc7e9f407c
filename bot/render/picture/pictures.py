"""The pictures each front-end shows, by rule set: the battlefield of a status view, and the chart of
a final summary. A front-end keeps its status pictures in a ``PictureCache`` by (battle, version,
language), so a battle that did not change is not drawn again (the live status message is edited
for other reasons too: a GM added, the refresh button).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from bot.views import StatusView, Summary


def _fort_map(document: Mapping[str, Any], lang: str) -> bytes:
    from bot.render.picture.draw import map_png  # the drawing code is imported when it draws

    return map_png(document, lang)


def _fort_chart(summary: Summary, lang: str) -> bytes:
    from bot.render.picture.chart import chart_png

    return chart_png(summary.history, summary.document, lang)


#: per rule set: its battlefield from the export document, and its chart from a final summary
MAPS: dict[str, Callable[[Mapping[str, Any], str], bytes]] = {"fort": _fort_map}
CHARTS: dict[str, Callable[[Summary, str], bytes]] = {"fort": _fort_chart}
#: how many pictures are kept (a few channels' battles, in each language)
KEEP = 32
#: one picture drawn at a time in a process: the fonts (FreeType faces) are not to be used by two
#: threads at once (the Discord bot draws in a worker thread, and a final chart in the event loop)
DRAWING = threading.Lock()


class PictureCache:
    def __init__(self, size: int = KEEP) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._lock = threading.Lock()  # the Discord bot draws in a worker thread
        #: how many pictures were drawn (for tests and logs)
        self.draws = 0

    def status_map(self, view: StatusView, lang: str) -> bytes | None:
        """The battlefield of ``view`` as a PNG (None: its rule set has no map)."""
        drawer = MAPS.get(view.ruleset)
        if drawer is None:
            return None
        key = None
        if view.battle_id is not None and view.version is not None:
            key = (view.ruleset, view.battle_id, view.version, lang)
            with self._lock:
                kept = self._kept.get(key)
                if kept is not None:
                    self._kept.move_to_end(key)
                    return kept
        with DRAWING:
            png = drawer(view.document, lang)
        with self._lock:
            self.draws += 1
            if key is not None:
                self._kept[key] = png
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return png


def has_map(ruleset: str) -> bool:
    return ruleset in MAPS


def final_chart(ruleset: str, summary: Summary, lang: str) -> bytes | None:
    """The chart of a final summary (None: not a final summary, or the rule set has no chart)."""
    drawer = CHARTS.get(ruleset)
    if drawer is None or summary.kind != "final":
        return None
    with DRAWING:
        return drawer(summary, lang)
