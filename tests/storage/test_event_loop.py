"""Issue 22's proofs on a SQLite file, every SQLite connection watched (``sqlite3.connect`` made to give a
connection that records each call, and the thread it ran on):

- no database call of the service runs on the event loop's thread: the transaction jobs' run in
  aiosqlite's thread, the storage writer's and the storage reader's each in its own, whatever the
  command (actions, refusals, start, import,
  undo, redo, co-GM changes, reads, a battle loaded by a second service, settings);
- a refused command issues no SQL statement at all, on any connection.
"""

from __future__ import annotations

import sqlite3
import sqlite3.dbapi2
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_lines import GM, HERE, ok, run

from bot.service import Actor, BattleService, Invocation
from bot.storage import make_engine, upgrade
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

#: (thread, what was called) of every call on a watched connection
CALLS: list[tuple[threading.Thread, str]] = []


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


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[threading.Thread, str]]]:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", _Connection)
        return real(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    monkeypatch.setattr(sqlite3.dbapi2, "connect", connect)  # the name SQLAlchemy's driver calls
    CALLS.clear()
    yield CALLS
    CALLS.clear()


async def _database(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'watched.db'}"
    engine = make_engine(url)
    await upgrade(engine)
    await engine.dispose()
    return url


async def test_no_database_call_runs_on_the_event_loop_thread(
    tmp_path: Path, watched: list[tuple[threading.Thread, str]]
) -> None:
    url = await _database(tmp_path)
    loop_thread = threading.current_thread()
    engine = make_engine(url)
    service = BattleService(engine, ScriptedDice([3, 4] * 50))
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
    other = BattleService(make_engine(url), ScriptedDice([5] * 10))
    await ok(other, "/unit hp unit:u0 delta:-2")
    for one in (service, other):
        await one.close()
        await one.engine.dispose()

    on_the_loop = [what for thread, what in watched if thread == loop_thread]
    assert on_the_loop == []
    # the actions' writes on the storage writer's thread, the reads on the storage reader's, the
    # transaction jobs' on aiosqlite's
    writers = [what for thread, what in watched if thread.name.startswith("toride-storage-writer")]
    readers = [what for thread, what in watched if thread.name.startswith("toride-storage-reader")]
    others = [what for thread, what in watched if not thread.name.startswith("toride-storage-")]
    # /fort end, /unit hp, /fort next twice, co's /unit hp, and the other service's
    assert sum(what.startswith("UPDATE battles") for what in writers) == 6
    assert any(what.startswith("WITH battle") for what in readers)  # the other service's load
    assert not any(what.startswith(("INSERT", "UPDATE", "DELETE")) for what in readers)
    assert any(what.startswith("INSERT INTO battle_events") for what in others)  # start, import, undo


async def test_a_refused_command_issues_no_sql(
    tmp_path: Path, watched: list[tuple[threading.Thread, str]]
) -> None:
    url = await _database(tmp_path)
    service = BattleService(make_engine(url), ScriptedDice([3, 4] * 50))
    view = await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    assert not isinstance(view, ErrorView), view
    await ok(service, "/gm add user:co")
    await ok(service, "/unit hp unit:u0 delta:-1", CO)  # the service holds the battle and co's rights
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
    await service.engine.dispose()
