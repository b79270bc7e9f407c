"""Revision 0005: each battle keeps the version its live status message shows, so a front-end that
starts finds the messages left behind their battles (a change within the last edit interval before a
stop or a crash)."""

from __future__ import annotations

from db_under_test import Database
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.schema import alembic_config
from bot.storage.status import read_stale_status_messages, read_status_message, set_status_message

BATTLE = (
    "INSERT INTO battles (guild_id, channel_id, ruleset, status, version, state, started_by, created_at,"
    " updated_at, status_message_id) VALUES ('g', :channel, 'fort', :status, 3, '{}', 'gm',"
    " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, :message)"
)


async def _battle_id(engine: AsyncEngine, channel: str) -> int:
    async with engine.connect() as conn:
        return int(
            (
                await conn.execute(text("SELECT id FROM battles WHERE channel_id = :c"), {"c": channel})
            ).scalar_one()
        )


async def test_messages_from_before_0005_are_refreshed_once_then_when_behind(
    database: Database, raw_engine: AsyncEngine
) -> None:
    await database.migrate("0003")
    async with raw_engine.begin() as conn:
        for channel, status, message in (
            ("shown", "running", 11),  # a status message, its version not known yet
            ("none", "running", None),  # no status message posted
            ("over", "ended", 12),  # an ended battle: its message was let go
        ):
            await conn.execute(text(BATTLE), {"channel": channel, "status": status, "message": message})
    await database.migrate()
    async with raw_engine.connect() as conn:
        assert await conn.run_sync(read_stale_status_messages) == [("g", "shown")]
    shown = await _battle_id(raw_engine, "shown")
    async with raw_engine.begin() as conn:
        await conn.run_sync(set_status_message, shown, 11, 3)  # the message shows version 3
    async with raw_engine.begin() as conn:
        assert await conn.run_sync(read_stale_status_messages) == []
        assert await conn.run_sync(read_status_message, shown) == 11
        await conn.execute(text("UPDATE battles SET version = version + 1 WHERE id = :id"), {"id": shown})
    async with raw_engine.connect() as conn:
        assert await conn.run_sync(read_stale_status_messages) == [("g", "shown")]  # the battle moved on
    async with raw_engine.begin() as conn:
        await conn.run_sync(set_status_message, shown, None, None)  # let go (the battle ended): never stale
        assert await conn.run_sync(read_stale_status_messages) == []


async def test_revision_0005_goes_down_cleanly(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate()

    def down(conn: Connection) -> set[str]:
        from alembic import command

        command.downgrade(alembic_config(conn), "0003")
        return {c["name"] for c in inspect(conn).get_columns("battles")}

    async with raw_engine.begin() as conn:
        columns = await conn.run_sync(down)
    assert "status_message_id" in columns and "status_message_version" not in columns
