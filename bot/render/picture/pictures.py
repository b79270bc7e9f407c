"""The pictures each front-end shows, by rule set (``RuleSet.pictures``): the battlefield of a status
view, and the chart of a final summary. A front-end keeps its status pictures in a ``PictureCache`` by
(battle, version, language), so a battle that did not change is not drawn again (the live status
message is edited for other reasons too: a GM added, the refresh button).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from bot.registry import rulesets
from bot.ruleset import Pictures
from bot.views import RulesetView, StatusView, Summary

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
        pictures = pictures_of(view.ruleset)
        if pictures is None:
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
            png = pictures.map(view.document, lang)
        with self._lock:
            self.draws += 1
            if key is not None:
                self._kept[key] = png
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return png


def pictures_of(ruleset: str) -> Pictures | None:
    """The pictures of the rule set named ``ruleset`` (None: it has none); its drawing code is
    imported now, the first time."""
    found = rulesets().get(ruleset)
    return None if found is None or found.pictures is None else found.pictures()


def has_map(ruleset: str) -> bool:
    found = rulesets().get(ruleset)
    return found is not None and found.pictures is not None


def final_chart(ruleset: str, summary: Summary, lang: str) -> bytes | None:
    """The chart of a final summary (None: not a final summary, or the rule set has no chart)."""
    pictures = pictures_of(ruleset) if summary.kind == "final" else None
    if pictures is None or pictures.chart is None:
        return None
    with DRAWING:
        return pictures.chart(summary, lang)


def view_picture(view: RulesetView, lang: str) -> tuple[bytes, str, str] | None:
    """The picture of one of a rule set's own views (``/fort odds``'s chart), its file's name and the
    sentence (its key) that says where the file was written; None: the view has none."""
    pictures = pictures_of(view.ruleset)
    if pictures is None or pictures.view_picture is None:
        return None
    drawn = pictures.view_picture(view, lang)  # it takes ``DRAWING`` itself (its picture may be kept)
    return None if drawn is None else (*drawn, pictures.view_picture_written)
