"""Storage: SQLAlchemy (async) tables, engine factory, alembic upgrades, repository.

``database_url`` loads nothing; the rest loads SQLAlchemy when first used (``bot.storage.db``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.storage.url import database_url

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from bot.storage.db import make_engine, upgrade


async def open_database(url: str | None = None, *, migrate: bool = True) -> AsyncEngine:
    """An engine for ``url`` (see ``database_url``), its schema brought up to date."""
    from bot.storage.db import make_engine, upgrade

    engine = make_engine(url)
    if migrate:
        await upgrade(engine)
    return engine


def __getattr__(name: str) -> Any:
    if name in ("make_engine", "upgrade"):
        from bot.storage import db

        return getattr(db, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["database_url", "make_engine", "open_database", "upgrade"]
