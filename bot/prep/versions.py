"""Which version of FILE a page edits, and what to say when it is not the one on disk (issue 34, item 1).

A version is the SHA-256 of the file's bytes (``None``: no file yet). The page gets the version it
opened and sends it back with a save; the save goes ahead only when the file on disk is still that
version, or when the GM, told what changed, chose to replace the version now on disk. The server
remembers the documents of the versions it handed out or wrote, so it can name the other tab's change.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: the documents of this many versions are kept to name a change against
KEPT = 32


def version_of(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Known:
    """A version this server has seen: its document (None: unreadable) and, when this server wrote
    it, the time of that save (the page's other tab)."""

    document: Mapping[str, Any] | None
    saved_at: float | None = None


class Versions:
    """The versions of one FILE this server has read or written, newest last."""

    def __init__(self) -> None:
        self._known: OrderedDict[str | None, Known] = OrderedDict()

    def seen(self, version: str | None, document: Mapping[str, Any] | None) -> None:
        self._remember(version, Known(document, self._known.get(version, Known(None)).saved_at))

    def wrote(self, version: str | None, document: Mapping[str, Any]) -> None:
        self._remember(version, Known(document, time.time()))

    def _remember(self, version: str | None, known: Known) -> None:
        self._known.pop(version, None)
        self._known[version] = known
        while len(self._known) > KEPT:
            self._known.popitem(last=False)

    def get(self, version: str | None) -> Known | None:
        return self._known.get(version)
