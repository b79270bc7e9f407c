"""Storage: battles, their event log, rights, settings and status message ids, behind one interface
(``bot.storage.interface.Storage``), opened by ``open_storage``.

``database_url`` loads nothing; the rest loads SQLAlchemy when first used (``bot.storage.backends``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.storage.url import database_url

if TYPE_CHECKING:
    from bot.storage.backends import make_engine, open_storage
    from bot.storage.interface import Storage


def __getattr__(name: str) -> Any:
    if name in ("make_engine", "open_storage"):
        from bot.storage import backends

        return getattr(backends, name)
    if name == "Storage":
        from bot.storage.interface import Storage

        return Storage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Storage", "database_url", "make_engine", "open_storage"]
