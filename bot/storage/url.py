"""Which database: the URL from the command line, the environment or the default file (no SQLAlchemy
here, so the console can name its database before the database library has loaded)."""

from __future__ import annotations

import os

ENV_URL = "TORIDE_DATABASE_URL"
DEFAULT_FILE = "toride.db"


def database_url(explicit: str | None = None) -> str:
    """``explicit``, else ``TORIDE_DATABASE_URL``, else a SQLite file in the working directory.

    A bare path (``battles.db``) is taken as a SQLite file.
    """
    url = explicit or os.environ.get(ENV_URL) or DEFAULT_FILE
    if "://" not in url:
        url = f"sqlite+aiosqlite:///{url}"
    return url
