"""Issue 22's proofs, on each backend (a SQLite file; PostgreSQL when TORIDE_TEST_DATABASE_URL is set),
with every call into the database drivers watched, and the thread it ran on: SQLite's own
(``sqlite3.connect`` made to give a connection that records each call: aiosqlite's thread uses it too),
psycopg's (its cursors' statements, its connections' commits and rollbacks, each connect) and
asyncpg's (each connect, and every method of its connections, statements and transactions):

- no database call of a command runs on the event loop's thread, whatever the command (actions,
  refusals, start, import, undo, redo, co-GM changes, reads, a battle loaded by a second service,
  settings, status message ids): the actions' writes and the jobs' run on the storage writer's
  thread, the reads on the storage reader's, and no other thread touches the database (no async
  engine is used once the storage is open);
- a refused command issues no statement at all, on any connection.
"""

from __future__ import annotations

import sqlite3
import sqlite3.dbapi2
import threading
from collections.abc import Callable, Iterator
from typing import Any

import asyncpg
import asyncpg.connection
import asyncpg.prepared_stmt
import asyncpg.transaction
import psycopg
import pytest
from db_under_test import Database
from service_lines import GM, HERE, ok, run

from bot.service import Actor, BattleService, Invocation
from bot.views import ErrorView
from engine.dice import ScriptedDice

CO = Actor("co")
BATTLE = {
    "format": "toride.fort/1",
    "title": "watched",
    "rounds": 9,
    "pcs": [{"name": "Alice", "position": "outside"}],
    "units": [{"name": "u0", "type": "normal", "area": "A1", "hp": 500, "fort_damage": 1, "strike": "2d+3"}],
}

Calls = list[tuple[threading.Thread, str]]
#: (thread, what was called) of every call into a watched driver
CALLS: Calls = []


def _record(what: str) -> None:
    CALLS.append((threading.current_thread(), what))


class _Cursor(sqlite3.Cursor):
    def execute(self, sql: str, *args: Any) -> Any:
        _record(sql)
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        _record(sql)
        return super().executemany(sql, *args)


class _Connection(sqlite3.Connection):
    def cursor(self, *args: Any, **kwargs: Any) -> Any:
        if not args and "factory" not in kwargs:
            kwargs["factory"] = _Cursor
        return super().cursor(*args, **kwargs)

    def execute(self, sql: str, *args: Any) -> Any:
        _record(sql)
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        _record(sql)
        return super().executemany(sql, *args)

    def commit(self) -> None:
        _record("commit")
        super().commit()

    def rollback(self) -> None:
        _record("rollback")
        super().rollback()


def _noting(real: Callable[..., Any], what: Callable[..., str]) -> Callable[..., Any]:
    """``real`` that first records ``what(*its arguments)`` (a method: its statement, or its name)."""

    def noted(*args: Any, **kwargs: Any) -> Any:
        _record(what(*args, **kwargs))
        return real(*args, **kwargs)

    return noted


def _statement(_self: Any, query: Any, *_: Any, **__: Any) -> str:
    return str(query)


def _named(name: str) -> Callable[..., str]:
    return lambda *_, **__: name


#: asyncpg's methods that talk to the server (each a coroutine function: recorded where it is called)
_ASYNCPG = {
    asyncpg.connection.Connection: (
        "execute", "executemany", "fetch", "fetchrow", "fetchval", "prepare", "close", "reset",
    ),
    asyncpg.prepared_stmt.PreparedStatement: ("fetch", "fetchrow", "fetchval", "executemany", "explain"),
    asyncpg.transaction.Transaction: ("start", "commit", "rollback"),
}  # fmt: skip


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", _Connection)
        return real(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    monkeypatch.setattr(sqlite3.dbapi2, "connect", connect)  # the name SQLAlchemy's driver calls
    for method in ("execute", "executemany"):
        monkeypatch.setattr(psycopg.Cursor, method, _noting(getattr(psycopg.Cursor, method), _statement))
    for method in ("commit", "rollback"):
        monkeypatch.setattr(
            psycopg.Connection, method, _noting(getattr(psycopg.Connection, method), _named(method))
        )
    monkeypatch.setattr(psycopg, "connect", _noting(psycopg.connect, _named("psycopg connect")))
    monkeypatch.setattr(asyncpg, "connect", _noting(asyncpg.connect, _named("asyncpg connect")))
    for owner, methods in _ASYNCPG.items():
        for method in methods:
            name = f"asyncpg {owner.__name__}.{method}"
            monkeypatch.setattr(owner, method, _noting(getattr(owner, method), _named(name)))
    CALLS.clear()
    yield CALLS
    CALLS.clear()


async def test_no_database_call_runs_on_the_event_loop_thread(database: Database, watched: Calls) -> None:
    storage = database.storage()
    await storage.migrate()
    # the schema's check at start, on the async engine: the drivers are watched (on PostgreSQL
    # asyncpg runs on the event loop's thread; no command will use it)
    assert watched
    watched.clear()
    loop_thread = threading.current_thread()
    service = BattleService(storage, ScriptedDice([3, 4] * 50))
    await ok(service, "/fort start rounds:3")
    await ok(service, "/fort end")
    view = await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    assert not isinstance(view, ErrorView), view
    for line in ("/unit hp unit:u0 delta:-5", "/gm add user:co", "/fort next", "/fort next"):
        await ok(service, line)
    await ok(service, "/unit hp unit:u0 delta:-1", CO)
    assert isinstance(await run(service, "/unit hp unit:nobody delta:-1"), ErrorView)
    for line in ("/gm undo", "/gm redo", "/fort status", "/fort export", "/fort log", "/gm remove user:co"):
        await ok(service, line)
    await service.set_language("g", "en")
    assert await service.language("g") == "en"
    status = await service.status(HERE)
    assert status is not None
    await service.set_status_message(status.battle_id, 42, status.version)
    # a second process's service: the battle loaded from the database, then an action on it
    other_storage = database.storage()
    other = BattleService(other_storage, ScriptedDice([5] * 10))
    await ok(other, "/unit hp unit:u0 delta:-2")
    for one, its_storage in ((service, storage), (other, other_storage)):
        await one.close()
        await its_storage.close()

    on_the_loop = [what for thread, what in watched if thread == loop_thread]
    assert on_the_loop == []
    # the actions' plans and the jobs on the storage writer's thread, the reads on the storage
    # reader's, nothing anywhere else
    writers = [what for thread, what in watched if thread.name.startswith("toride-storage-writer")]
    readers = [what for thread, what in watched if thread.name.startswith("toride-storage-reader")]
    others = [what for thread, what in watched if not thread.name.startswith("toride-storage-")]
    assert others == []
    # the plans: /fort end, /unit hp, /fort next twice, co's /unit hp, the other service's, the undo's
    # and the redo's
    assert sum(what.startswith("UPDATE battles SET status=") for what in writers) == 8
    assert sum(what.startswith("UPDATE battles SET status_message_id=") for what in writers) == 1
    # their log rows, and the start's and the import's
    assert sum(what.startswith("INSERT INTO battle_events") for what in writers) == 10
    assert sum(what.startswith(("INSERT INTO battle_gms", "DELETE FROM battle_gms")) for what in writers) == 2
    assert any(what.startswith("INSERT INTO guild_settings") for what in writers)
    assert any(what.startswith("WITH battle") for what in readers)  # the other service's load
    assert not any(what.startswith(("INSERT", "UPDATE", "DELETE")) for what in readers)


async def test_a_refused_command_issues_no_sql(database: Database, watched: Calls) -> None:
    storage = database.storage()
    await storage.migrate()
    service = BattleService(storage, ScriptedDice([3, 4] * 50))
    view = await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    assert not isinstance(view, ErrorView), view
    await ok(service, "/gm add user:co")
    await ok(service, "/unit hp unit:u0 delta:-1", CO)  # the service holds the battle and co's rights
    assert any(thread.name.startswith("toride-storage-writer") for thread, _ in watched)  # watched
    refusals = [
        (GM, "/unit hp unit:nobody delta:-1", "fort.unit_unknown"),  # a typo of the GM
        (CO, "/unit hp unit:nobdy delta:-1", "fort.unit_unknown"),  # of a co-GM
        (GM, "/sg next", "service.wrong_ruleset"),  # another rule set's command
    ]
    for actor, line, key in refusals:
        before = len(watched)
        view = await run(service, line, actor)
        assert isinstance(view, ErrorView) and view.key == key, view
        assert watched[before:] == [], line
    await service.close()
