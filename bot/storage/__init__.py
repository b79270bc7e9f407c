"""Storage: SQLAlchemy (async) tables, engine factory, alembic upgrades, repository."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.db import database_url, make_engine, upgrade


async def open_database(url: str | None = None, *, migrate: bool = True) -> AsyncEngine:
    """An engine for ``url`` (see ``database_url``), its schema brought up to date."""
    engine = make_engine(url)
    if migrate:
        await upgrade(engine)
    return engine


__all__ = ["database_url", "make_engine", "open_database", "upgrade"]
