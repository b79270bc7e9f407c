"""The schema: alembic's revisions (``migrations/``), and the upgrade every start runs.

Every start checks the schema, so the check is cheap: a database already at ``SCHEMA_HEAD`` is told by
one plain ``SELECT`` of ``alembic_version``, and alembic (35-50 ms to import) is loaded only when there is
something to upgrade (a new, empty or older database). Several processes starting at once upgrade one
at a time, each in a write transaction under the family's upgrade lock; the later ones find the schema
up to date.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

if TYPE_CHECKING:
    from alembic.config import Config

#: execution option of a transaction that will write (SQLite's engines then take the write lock at
#: BEGIN: BEGIN IMMEDIATE)
WRITE_OPTION = "toride_write"
MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
#: the newest revision in ``MIGRATIONS`` (a test keeps it equal to alembic's head): a database whose
#: ``alembic_version`` says this needs no upgrade, and alembic is not even imported
SCHEMA_HEAD = "0010"
#: how long a process starting beside others waits its turn to upgrade (each wait is SQLite's busy
#: timeout; a slow machine with several processes upgrading may need more than one)
UPGRADE_WAIT_S = 120.0


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _upgrade_sync(connection: Connection, revision: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), revision)


async def schema_versions(engine: AsyncEngine) -> frozenset[str]:
    """The revisions ``alembic_version`` holds, by plain SQL (empty: no such table, a new database)."""
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT version_num FROM alembic_version"))
            return frozenset(str(row[0]) for row in rows)
    except DBAPIError:
        # no table (SQLite: OperationalError; PostgreSQL: ProgrammingError): nothing upgraded yet. A
        # database that is locked or cannot be opened at all is left to the upgrade, which waits its
        # turn or reports the error
        return frozenset()


async def upgrade(
    engine: AsyncEngine,
    revision: str,
    *,
    lock: Callable[[AsyncConnection], Awaitable[None]],
    waits: Callable[[BaseException], bool],
    waiting: Callable[[], object] | None = None,
) -> None:
    """Bring the schema up to ``revision`` in a write transaction that first takes the family's
    upgrade ``lock``; tried again while the failure ``waits`` for another process (its upgrade, or a
    program holding the file: ``waiting`` is told at each wait). A database already at
    ``SCHEMA_HEAD`` is left alone without loading alembic."""
    if revision == "head" and await schema_versions(engine) == {SCHEMA_HEAD}:
        return
    deadline = time.monotonic() + UPGRADE_WAIT_S
    while True:
        try:
            async with engine.connect() as conn:
                await conn.execution_options(**{WRITE_OPTION: True})
                async with conn.begin():
                    await lock(conn)
                    await conn.run_sync(_upgrade_sync, revision)
            return
        except OperationalError as error:
            if not waits(error) or time.monotonic() > deadline:
                raise
            if waiting is not None:
                waiting()
            await asyncio.sleep(0.05)
