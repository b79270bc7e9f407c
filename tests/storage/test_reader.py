"""The storage reader (``bot.storage.reader``, issue 22), on each backend: a battle the service does
not hold, and the rights of whoever runs a command, are read on the reader's own thread and
connection, in one transaction, with the storage's own reads (``battles.read_latest``,
``rights.read_grants``); no async engine is used for it.

- a battle not held: one read (its head and the battle), on the reader's thread, no async engine
  made; held at the stored version: one read of the head, the battle kept;
- another process's write: the next read loads the battle again at the new version;
- the battle and its patches are read in one statement: another process's write landing just before
  it is in the battle read wholly or not at all;
- PostgreSQL: the reader's connection killed while idle (a server restart) is replaced at once, and
  the read answers;
- a player's export reads their rights through the reader too.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from db_under_test import terminate_backend
from service_lines import HERE, ok, two_processes, unit_hp
from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import Actor, BattleService
from bot.storage import battles
from bot.storage.records import Grants
from bot.storage.sql import SqlStorage

KEY = (HERE.guild, HERE.channel)


async def one_action_stored(storage_factory: Callable[[], SqlStorage]) -> tuple[BattleService, BattleService]:
    """Two services on one database, the battle imported by the first and one action stored."""
    one, two = await two_processes(storage_factory)
    await ok(one, "/unit hp unit:u0 delta:-1")
    return one, two


@contextmanager
def async_engines(monkeypatch: pytest.MonkeyPatch, storage: SqlStorage) -> Iterator[list[int]]:
    """How many async engines ``storage``'s family makes meanwhile (one count each)."""
    seen: list[int] = []
    real = type(storage).async_engine

    def count(url: Any, **kwargs: Any) -> AsyncEngine:
        seen.append(1)
        return real(url, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(type(storage), "async_engine", count)
        yield seen


def reader_threads(reads: list[str]) -> Callable[..., Any]:
    """``battles.read_latest`` that notes the thread it runs on."""
    real = battles.read_latest

    def noted(conn: Connection, *args: Any, **kwargs: Any) -> Any:
        reads.append(threading.current_thread().name)
        return real(conn, *args, **kwargs)

    return noted


async def test_a_battle_not_held_is_read_once_on_the_readers_thread_and_kept_while_unchanged(
    storage_factory: Callable[[], SqlStorage], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = await one_action_stored(storage_factory)
    threads: list[str] = []
    monkeypatch.setattr(battles, "read_latest", reader_threads(threads))
    storage = two.storage
    with async_engines(monkeypatch, storage) as seen:
        assert await unit_hp(two) == 499
    assert seen == [], "an async engine was made for a read"
    assert threads and all(name.startswith("toride-storage-reader") for name in threads)
    assert storage.counts.reads == 1  # the head and the battle, in one transaction
    held = two.cache.get(KEY)
    assert held is not None and held.head.version == 2
    with async_engines(monkeypatch, storage) as seen:
        assert await unit_hp(two) == 499
    assert seen == [] and storage.counts.reads == 2
    assert two.cache.get(KEY) is held  # at the stored version: kept, not read again
    await one.close()
    await two.close()


async def test_another_processs_write_is_read_at_its_new_version(
    storage_factory: Callable[[], SqlStorage],
) -> None:
    one, two = await one_action_stored(storage_factory)
    assert await unit_hp(two) == 499
    before = two.cache.get(KEY)
    await ok(one, "/unit hp unit:u0 delta:-7")
    assert await unit_hp(two) == 492
    after = two.cache.get(KEY)
    assert before is not None and after is not None and after is not before
    assert after.head.version == 3
    # and an action decided on it is stored at the next version, by the second process
    await ok(two, "/unit hp unit:u0 delta:-1")
    assert await unit_hp(one) == 491
    await one.close()
    await two.close()


async def test_a_players_export_reads_their_rights_through_the_reader(
    storage_factory: Callable[[], SqlStorage], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = await one_action_stored(storage_factory)
    carol = Actor("carol")
    with async_engines(monkeypatch, two.storage) as seen:
        assert await unit_hp(two, actor=carol) == 499
    assert seen == []
    assert two.storage.counts.reads == 2  # the battle, then carol's rights
    held = two.cache.held(two.cache.get(KEY).head, carol)  # type: ignore[union-attr]
    assert held == Grants(HERE.guild, "carol", None, False)
    await one.close()
    await two.close()


@contextmanager
def statements(service: BattleService, before: Callable[[int], None] | None = None) -> Iterator[list[str]]:
    """The reads (not SQLite's BEGIN) the service's reader runs meanwhile; ``before(n)`` runs before
    the n-th (from 1)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("BEGIN"):
            return
        seen.append(statement)
        if before is not None:
            before(len(seen))

    sync = service.storage.reader._thread._sync
    assert sync is not None
    event.listen(sync, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(sync, "before_cursor_execute", note)


async def test_a_battle_is_read_with_its_patches_in_one_statement_and_never_mixes_two_versions(
    engine_factory: Callable[[], AsyncEngine], storage_factory: Callable[[], SqlStorage]
) -> None:
    """Not held: the head, the state and the patches since its snapshot in one statement. Held at an
    older version: the head, then that one statement; another process's action landing between the
    two is in the battle read wholly or not at all (PostgreSQL: each statement sees what was
    committed when it began; SQLite: the read transaction sees the version of its first statement)."""
    one, two = await one_action_stored(storage_factory)
    assert await unit_hp(two) == 499
    two.cache.forget(KEY)
    with statements(two) as seen:
        assert await unit_hp(two) == 499
    assert len(seen) == 1
    await ok(one, "/unit hp unit:u0 delta:-7")  # version 3; two holds 2
    loop = asyncio.get_running_loop()

    def write_before_the_battle(n: int) -> None:
        if n == 2:  # after the head (version 3), before the battle: one's next action lands (version 4)
            asyncio.run_coroutine_threadsafe(ok(one, "/unit hp unit:u0 delta:-5"), loop).result(timeout=30)

    with statements(two, write_before_the_battle) as seen:
        hp = await unit_hp(two)
    assert len(seen) == 2
    held = two.cache.get(KEY)
    assert held is not None
    if engine_factory().dialect.name == "postgresql":
        assert (hp, held.head.version) == (487, 4)
    else:
        assert (hp, held.head.version) == (492, 3)
    # either way the battle held is the one stored at its version: the next action holds on it (or,
    # on SQLite, is decided again on version 4) and lands on what is stored
    await ok(two, "/unit hp unit:u0 delta:-1")
    assert await unit_hp(one) == 486
    await one.close()
    await two.close()


async def test_postgresql_the_readers_connection_killed_while_idle_is_replaced(
    engine_factory: Callable[[], AsyncEngine], storage_factory: Callable[[], SqlStorage]
) -> None:
    """A server restart (here: the reader's backend terminated) between two reads: the next read
    finds the kept connection dead before reading anything, and runs on a new one."""
    engine = engine_factory()
    if engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL backend to terminate")
    one, two = await one_action_stored(storage_factory)
    assert await unit_hp(two) == 499
    await terminate_backend(engine, two.storage.reader._thread)
    await ok(one, "/unit hp unit:u0 delta:-2")
    assert await unit_hp(two) == 497
    assert two.storage.counts.read_retries == 1
    await one.close()
    await two.close()
