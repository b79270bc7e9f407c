"""The schema by migrations equals the models; pragmas; one running battle per channel; version check."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from db_under_test import Database
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage import docpatch
from bot.storage.backends import family
from bot.storage.battles import create_battle, read_latest, read_latest_head, read_snapshots
from bot.storage.log import INSERT, read_log, row_values
from bot.storage.models import ACTION, ENDED, RUNNING, Base, utcnow
from bot.storage.plans import plan_write, write_plan
from bot.storage.postgresql import PostgresStorage, channel_lock_key
from bot.storage.records import BattleHead, ChannelBusy, Grants, NewRow, Settings, VersionConflict
from bot.storage.rights import add_co_gm, read_co_gms, read_grants, remove_co_gm
from bot.storage.schema import WRITE_OPTION, alembic_config
from bot.storage.settings import read_settings
from bot.storage.status import read_status_message, set_status_message


def _diff(conn: Connection) -> list[Any]:
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _row(n: int = 1, before: dict[str, Any] | None = None, after: dict[str, Any] | None = None) -> NewRow:
    """Action ``n``; its patch turns ``before`` into ``after`` (none: the battle's first action)."""
    delta = (
        None
        if before is None or after is None
        else docpatch.diff(docpatch.encode(before), docpatch.encode(after))
    )
    return NewRow(
        ACTION, "gm", f"/x {n}", {"n": n}, [{"kind": "x", "data": {"n": n}, "dice": [[6, n]]}], delta
    )


async def test_migrations_build_the_models_schema(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate()
    async with raw_engine.connect() as conn:
        assert await conn.run_sync(_diff) == []
        tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert {"battles", "battle_events", "guild_settings", "alembic_version"} <= tables
    # upgrading again is a no-op
    await database.migrate()


async def test_downgrade_and_upgrade_again(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate()

    def down(conn: Connection) -> set[str]:
        command.downgrade(alembic_config(conn), "base")
        return set(inspect(conn).get_table_names())

    async with raw_engine.begin() as conn:
        assert await conn.run_sync(down) <= {"alembic_version"}
    await database.migrate()
    async with raw_engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


async def test_sqlite_pragmas(raw_engine: AsyncEngine) -> None:
    if raw_engine.dialect.name != "sqlite":
        pytest.skip("SQLite only")
    async with raw_engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
        # a second: a file held by another program is told at once, then waited for (issue 39)
        assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar_one() == 1000
        # 2 = FULL: an acknowledged commit survives a power cut, not only a killed process
        assert (await conn.execute(text("PRAGMA synchronous"))).scalar_one() == 2


async def _create(conn: AsyncConnection, channel: str = "c1", status: str = RUNNING) -> int:
    return await conn.run_sync(
        lambda sync: create_battle(
            sync, guild="g", channel=channel, ruleset="fort", started_by="gm", state={"hp": 1},
            status=status, row=_row(),
        )
    )  # fmt: skip


async def _running(conn: AsyncConnection, channel: str) -> BattleHead | None:
    """The channel's running battle (a running battle is always the latest)."""
    head = await conn.run_sync(read_latest_head, "g", channel)
    return head if head is not None and head.status == RUNNING else None


async def _state(conn: AsyncConnection, channel: str) -> dict[str, Any]:
    """The current state of the channel's latest battle."""
    _, loaded = await conn.run_sync(read_latest, "g", channel)
    assert loaded is not None
    return loaded[0]


async def _write(conn: AsyncConnection, head: BattleHead, **plan: Any) -> Any:
    """``plan_write`` on the battle row's snapshots as stored, written in the open transaction."""
    snapshots = await conn.run_sync(read_snapshots, head.id)
    return await conn.run_sync(write_plan, plan_write(head, snapshots=snapshots, **plan))


async def test_one_running_battle_per_channel_ended_ones_kept(
    database: Database, raw_engine: AsyncEngine
) -> None:
    await database.migrate()
    async with raw_engine.begin() as conn:
        first = await _create(conn)
        with pytest.raises(ChannelBusy):
            await _create(conn)
        other = await _create(conn, channel="c2")
        assert other != first
    async with raw_engine.begin() as conn:
        head = await _running(conn, "c1")
        assert head is not None and head.id == first and head.version == 1
        await _write(
            conn, head, state={"hp": 0}, status=ENDED, row=_row(2, {"hp": 1}, {"hp": 0}), discard_redo=True
        )
        assert await _running(conn, "c1") is None
        ended = await conn.run_sync(read_latest_head, "g", "c1")
        assert ended is not None and ended.status == ENDED and ended.version == 2
        again = await _create(conn)
        assert (await conn.run_sync(read_latest_head, "g", "c1")).id == again  # type: ignore[union-attr]
    async with raw_engine.connect() as conn:
        rows = await conn.run_sync(read_log, first, 10)
    assert [(r.seq, r.command_text, r.events[0]["dice"]) for r in rows] == [
        (1, "/x 1", [[6, 1]]),
        (2, "/x 2", [[6, 2]]),
    ]


async def test_a_stale_version_writes_nothing(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate()
    async with raw_engine.begin() as conn:
        await _create(conn)
    async with raw_engine.connect() as conn:
        head = await _running(conn, "c1")
    assert head is not None
    async with raw_engine.begin() as conn:
        written = await _write(
            conn, head, state={"hp": 2}, status=RUNNING, row=_row(2, {"hp": 1}, {"hp": 2}), discard_redo=True
        )
        assert written.version == 2
    with pytest.raises(VersionConflict):
        async with raw_engine.begin() as conn:
            await _write(
                conn,
                head,
                state={"hp": 3},
                status=RUNNING,
                row=_row(3, {"hp": 1}, {"hp": 3}),
                discard_redo=True,
            )
    async with raw_engine.connect() as conn:
        assert await _state(conn, "c1") == {"hp": 2}
        assert [r.seq for r in await conn.run_sync(read_log, head.id, 10)] == [1, 2]


async def test_event_rows_need_their_battle(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate()
    with pytest.raises(IntegrityError):
        async with raw_engine.connect() as conn:
            await conn.execution_options(**{WRITE_OPTION: True})
            async with conn.begin():
                await conn.execute(INSERT, row_values(999, 1, _row(), utcnow()))


async def test_settings_round_trip(database: Any) -> None:
    storage = database.storage()
    await storage.migrate()

    async def job(transaction: Any) -> None:
        assert await storage.settings("g") == Settings("g")
        await transaction.set_gm_role("g", "42")  # makes the row
        await transaction.set_language("g", "en")  # changes only the language
        await transaction.set_language("h", "en")

    await storage.run(job)
    assert await storage.settings("g") == Settings("g", "en", "42")
    assert await storage.settings("h") == Settings("h", "en", None)


async def test_status_message_id_is_kept_with_its_battle_and_survives_0002(
    database: Database, raw_engine: AsyncEngine
) -> None:
    # a database of revision 0001 with a battle in it
    await database.migrate("0001")
    async with raw_engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO battles (guild_id, channel_id, ruleset, status, version, state, started_by,"
                " created_at, updated_at) VALUES ('g', 'c1', 'fort', 'running', 1, '{\"hp\": 1}', 'gm',"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )
    await database.migrate()
    async with raw_engine.begin() as conn:
        old = await _running(conn, "c1")
        assert old is not None
        # the battle from before has no stored id (the front-end falls back to the channel history)
        assert await conn.run_sync(read_status_message, old.id) is None
        assert await _state(conn, "c1") == {"hp": 1}
        new = await _create(conn, channel="c2")
        # a Discord snowflake needs 64 bits
        await conn.run_sync(set_status_message, new, 1_234_567_890_123_456_789, None)
    async with raw_engine.begin() as conn:
        assert await conn.run_sync(read_status_message, new) == 1_234_567_890_123_456_789
        assert await conn.run_sync(read_status_message, old.id) is None
        head = await _running(conn, "c2")
        assert head is not None and head.version == 1  # not battle state: no version bump
        await conn.run_sync(set_status_message, new, None, None)
        assert await conn.run_sync(read_status_message, new) is None


async def test_revision_0003_retires_the_server_wide_co_gm_list(
    database: Database, raw_engine: AsyncEngine
) -> None:
    """A co-GM of the old server-wide list is GM of no battle after the upgrade (nobody keeps rights
    they were never given for a battle); the server's language and GM role stay."""
    await database.migrate("0002")
    async with raw_engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO battles (guild_id, channel_id, ruleset, status, version, state, started_by,"
                " created_at, updated_at) VALUES ('g', 'c1', 'fort', 'running', 1, '{}', 'gm',"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO guild_settings (guild_id, language, gm_role_id, co_gms, updated_at)"
                " VALUES ('g', 'en', '42', '[\"mallory\"]', CURRENT_TIMESTAMP)"
            )
        )
    await database.migrate()
    async with raw_engine.connect() as conn:
        head = await _running(conn, "c1")
        assert head is not None
        assert await conn.run_sync(read_co_gms, head.id) == ()
        grants = await conn.run_sync(read_grants, "g", head.id, "mallory")
        assert grants == Grants("g", "mallory", "42", False)
        assert await conn.run_sync(read_settings, "g") == Settings("g", "en", "42")
        columns = await conn.run_sync(
            lambda c: {col["name"] for col in inspect(c).get_columns("guild_settings")}
        )
    assert "co_gms" not in columns


async def test_co_gms_go_with_their_battle(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate()
    insert = family(raw_engine.dialect.name).insert  # the family's ON CONFLICT
    async with raw_engine.begin() as conn:
        battle = await _create(conn)
        assert await conn.run_sync(add_co_gm, insert, battle, "carol", "gm") is True
        assert await conn.run_sync(add_co_gm, insert, battle, "carol", "gm") is False
        other = await _create(conn, channel="c2")
        grants = await conn.run_sync(read_grants, "g", other, "carol")
        assert grants == Grants("g", "carol", None, False)
        await conn.execute(text("DELETE FROM battles WHERE id = :b"), {"b": battle})
        assert (await conn.execute(text("SELECT count(*) FROM battle_gms"))).scalar_one() == 0
        assert await conn.run_sync(remove_co_gm, battle, "carol") is False


async def test_a_batch_takes_every_channel_lock_in_one_statement(database: Any) -> None:
    """PostgreSQL: ``PostgresStorage.lock_channels`` holds each channel's advisory lock until the
    transaction ends."""
    engine = database.engine()
    if engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL only (SQLite's write transaction is the lock)")
    channels = [("g", "c1"), ("g", "c2"), ("h", "c1")]
    other = database.engine()
    async with engine.begin() as conn:
        await conn.run_sync(PostgresStorage.lock_channels, channels)
        async with other.connect() as probe:
            for channel in channels:
                key = channel_lock_key(*channel)
                taken = (
                    await probe.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": key})
                ).scalar()
                assert taken is False, channel
            free = channel_lock_key("g", "c3")
            assert (await probe.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": free})).scalar()
    async with other.begin() as probe:  # the transaction ended: every lock let go
        for channel in channels:
            key = channel_lock_key(*channel)
            assert (await probe.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": key})).scalar()
