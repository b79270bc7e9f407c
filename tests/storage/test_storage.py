"""The schema by migrations equals the models; pragmas; one running battle per channel; version check."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import docpatch
from bot.storage import repository as repo
from bot.storage.db import WRITE_OPTION, alembic_config, upgrade
from bot.storage.models import ACTION, ENDED, RUNNING, Base


def _diff(conn: Connection) -> list[Any]:
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _row(
    n: int = 1, before: dict[str, Any] | None = None, after: dict[str, Any] | None = None
) -> repo.NewRow:
    """Action ``n``; its patch turns ``before`` into ``after`` (none: the battle's first action)."""
    delta = (
        None
        if before is None or after is None
        else docpatch.diff(docpatch.encode(before), docpatch.encode(after))
    )
    return repo.NewRow(
        ACTION, "gm", f"/x {n}", {"n": n}, [{"kind": "x", "data": {"n": n}, "dice": [[6, n]]}], delta
    )


async def test_migrations_build_the_models_schema(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)
    async with raw_engine.connect() as conn:
        assert await conn.run_sync(_diff) == []
        tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert {"battles", "battle_events", "guild_settings", "alembic_version"} <= tables
    # upgrading again is a no-op
    await upgrade(raw_engine)


async def test_downgrade_and_upgrade_again(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)

    def down(conn: Connection) -> set[str]:
        command.downgrade(alembic_config(conn), "base")
        return set(inspect(conn).get_table_names())

    async with raw_engine.begin() as conn:
        assert await conn.run_sync(down) <= {"alembic_version"}
    await upgrade(raw_engine)
    async with raw_engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


async def test_sqlite_pragmas(raw_engine: AsyncEngine) -> None:
    if raw_engine.dialect.name != "sqlite":
        pytest.skip("SQLite only")
    async with raw_engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
        assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar_one() == 10000
        # 2 = FULL: an acknowledged commit survives a power cut, not only a killed process
        assert (await conn.execute(text("PRAGMA synchronous"))).scalar_one() == 2


async def _create(conn: Any, channel: str = "c1", status: str = RUNNING) -> int:
    return await repo.create_battle(
        conn,
        guild="g",
        channel=channel,
        ruleset="fort",
        started_by="gm",
        state={"hp": 1},
        status=status,
        row=_row(),
    )


async def test_one_running_battle_per_channel_ended_ones_kept(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)
    async with raw_engine.begin() as conn:
        first = await _create(conn)
        with pytest.raises(repo.ChannelBusy):
            await _create(conn)
        other = await _create(conn, channel="c2")
        assert other != first
    async with raw_engine.begin() as conn:
        head = await repo.running_head(conn, "g", "c1")
        assert head is not None and head.id == first and head.version == 1
        await repo.write(
            conn, head, state={"hp": 0}, status=ENDED, row=_row(2, {"hp": 1}, {"hp": 0}), discard_redo=True
        )
        assert await repo.running_head(conn, "g", "c1") is None
        ended = await repo.latest_head(conn, "g", "c1")
        assert ended is not None and ended.status == ENDED and ended.version == 2
        again = await _create(conn)
        assert (await repo.latest_head(conn, "g", "c1")).id == again  # type: ignore[union-attr]
    async with raw_engine.connect() as conn:
        rows = await repo.log(conn, first, 10)
    assert [(r.seq, r.command_text, r.events[0]["dice"]) for r in rows] == [
        (1, "/x 1", [[6, 1]]),
        (2, "/x 2", [[6, 2]]),
    ]


async def test_a_stale_version_writes_nothing(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)
    async with raw_engine.begin() as conn:
        await _create(conn)
    async with raw_engine.connect() as conn:
        head = await repo.running_head(conn, "g", "c1")
    assert head is not None
    async with raw_engine.begin() as conn:
        written = await repo.write(
            conn, head, state={"hp": 2}, status=RUNNING, row=_row(2, {"hp": 1}, {"hp": 2}), discard_redo=True
        )
        assert written.version == 2
    with pytest.raises(repo.VersionConflict):
        async with raw_engine.begin() as conn:
            await repo.write(
                conn,
                head,
                state={"hp": 3},
                status=RUNNING,
                row=_row(3, {"hp": 1}, {"hp": 3}),
                discard_redo=True,
            )
    async with raw_engine.connect() as conn:
        assert await repo.load_state(conn, head.id) == {"hp": 2}
        assert [r.seq for r in await repo.log(conn, head.id, 10)] == [1, 2]


async def test_event_rows_need_their_battle(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)
    with pytest.raises(IntegrityError):
        async with raw_engine.connect() as conn:
            await conn.execution_options(**{WRITE_OPTION: True})
            async with conn.begin():
                await repo._insert_row(conn, 999, 1, _row(), repo.utcnow())


async def test_settings_round_trip(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)
    async with raw_engine.begin() as conn:
        assert await repo.get_settings(conn, "g") == repo.Settings("g")
        await repo.set_gm_role(conn, "g", "42")  # makes the row
        await repo.set_language(conn, "g", "en")  # changes only the language
        await repo.set_language(conn, "h", "en")
    async with raw_engine.connect() as conn:
        assert await repo.get_settings(conn, "g") == repo.Settings("g", "en", "42")
        assert await repo.get_settings(conn, "h") == repo.Settings("h", "en", None)


async def test_status_message_id_is_kept_with_its_battle_and_survives_0002(raw_engine: AsyncEngine) -> None:
    # a database of revision 0001 with a battle in it
    await upgrade(raw_engine, "0001")
    async with raw_engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO battles (guild_id, channel_id, ruleset, status, version, state, started_by,"
                " created_at, updated_at) VALUES ('g', 'c1', 'fort', 'running', 1, '{\"hp\": 1}', 'gm',"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )
    await upgrade(raw_engine)
    async with raw_engine.begin() as conn:
        old = await repo.running_head(conn, "g", "c1")
        assert old is not None
        # the battle from before has no stored id (the front-end falls back to the channel history)
        assert await repo.status_message(conn, old.id) is None
        assert await repo.load_state(conn, old.id) == {"hp": 1}
        new = await _create(conn, channel="c2")
        # a Discord snowflake needs 64 bits
        await repo.set_status_message(conn, new, 1_234_567_890_123_456_789)
    async with raw_engine.begin() as conn:
        assert await repo.status_message(conn, new) == 1_234_567_890_123_456_789
        assert await repo.status_message(conn, old.id) is None
        head = await repo.running_head(conn, "g", "c2")
        assert head is not None and head.version == 1  # not battle state: no version bump
        await repo.set_status_message(conn, new, None)
        assert await repo.status_message(conn, new) is None


async def test_revision_0003_retires_the_server_wide_co_gm_list(raw_engine: AsyncEngine) -> None:
    """A co-GM of the old server-wide list is GM of no battle after the upgrade (nobody keeps rights
    they were never given for a battle); the server's language and GM role stay."""
    await upgrade(raw_engine, "0002")
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
    await upgrade(raw_engine)
    async with raw_engine.connect() as conn:
        head = await repo.running_head(conn, "g", "c1")
        assert head is not None
        assert await repo.co_gms(conn, head.id) == ()
        grants = await conn.run_sync(repo.read_grants, "g", head.id, "mallory")
        assert grants == repo.Grants("g", "mallory", "42", False)
        assert await repo.get_settings(conn, "g") == repo.Settings("g", "en", "42")
        columns = await conn.run_sync(
            lambda c: {col["name"] for col in inspect(c).get_columns("guild_settings")}
        )
    assert "co_gms" not in columns


async def test_co_gms_go_with_their_battle(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)
    async with raw_engine.begin() as conn:
        battle = await _create(conn)
        assert await repo.add_co_gm(conn, battle, "carol", "gm") is True
        assert await repo.add_co_gm(conn, battle, "carol", "gm") is False
        other = await _create(conn, channel="c2")
        grants = await conn.run_sync(repo.read_grants, "g", other, "carol")
        assert grants == repo.Grants("g", "carol", None, False)
        await conn.execute(text("DELETE FROM battles WHERE id = :b"), {"b": battle})
        assert (await conn.execute(text("SELECT count(*) FROM battle_gms"))).scalar_one() == 0
        assert await repo.remove_co_gm(conn, battle, "carol") is False


async def test_a_batch_takes_every_channel_lock_in_one_statement(database: Any) -> None:
    """PostgreSQL: ``lock_channels`` holds each channel's advisory lock until the transaction ends."""
    engine = database.engine()
    if engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL only (SQLite's write transaction is the lock)")
    channels = [("g", "c1"), ("g", "c2"), ("h", "c1")]
    other = database.engine()
    async with engine.begin() as conn:
        await repo.lock_channels(conn, channels)
        async with other.connect() as probe:
            for channel in channels:
                key = repo.channel_lock_key(*channel)
                taken = (
                    await probe.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": key})
                ).scalar()
                assert taken is False, channel
            free = repo.channel_lock_key("g", "c3")
            assert (await probe.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": free})).scalar()
    async with other.begin() as probe:  # the transaction ended: every lock let go
        for channel in channels:
            key = repo.channel_lock_key(*channel)
            assert (await probe.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": key})).scalar()
