"""The database a storage test runs on (tests/storage/conftest.py makes one per backend)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import make_engine


@dataclass
class Database:
    """One empty database (no schema yet): a SQLite file, or a PostgreSQL schema of its own."""

    url: str
    #: the PostgreSQL schema (search_path) to work in; None on SQLite
    schema: str | None = None
    made: list[AsyncEngine] = field(default_factory=list)

    def engine(self) -> AsyncEngine:
        """A new engine on the database (disposed of at the end of the test)."""
        if self.schema is None:
            self.made.append(make_engine(self.url))
        else:
            self.made.append(
                make_engine(self.url, connect_args={"server_settings": {"search_path": self.schema}})
            )
        return self.made[-1]
