"""Revision 0005: each battle keeps the version its live status message shows, so a front-end that
starts finds the messages left behind their battles (a change within the last edit interval before a
stop or a crash)."""

from __future__ import annotations

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import repository as repo
from bot.storage.db import alembic_config, upgrade

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


async def test_messages_from_before_0005_are_refreshed_once_then_when_behind(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine, "0003")
    async with raw_engine.begin() as conn:
        for channel, status, message in (
            ("shown", "running", 11),  # a status message, its version not known yet
            ("none", "running", None),  # no status message posted
            ("over", "ended", 12),  # an ended battle: its message was let go
        ):
            await conn.execute(text(BATTLE), {"channel": channel, "status": status, "message": message})
    await upgrade(raw_engine)
    async with raw_engine.connect() as conn:
        assert await repo.stale_status_messages(conn) == [("g", "shown")]
    shown = await _battle_id(raw_engine, "shown")
    async with raw_engine.begin() as conn:
        await repo.set_status_message(conn, shown, 11, 3)  # the message shows version 3
    async with raw_engine.begin() as conn:
        assert await repo.stale_status_messages(conn) == []
        assert await repo.status_message(conn, shown) == 11
        await conn.execute(text("UPDATE battles SET version = version + 1 WHERE id = :id"), {"id": shown})
    async with raw_engine.connect() as conn:
        assert await repo.stale_status_messages(conn) == [("g", "shown")]  # the battle moved on
    async with raw_engine.begin() as conn:
        await repo.set_status_message(conn, shown, None)  # let go (the battle ended): never stale
        assert await repo.stale_status_messages(conn) == []


async def test_revision_0005_goes_down_cleanly(raw_engine: AsyncEngine) -> None:
    await upgrade(raw_engine)

    def down(conn: Connection) -> set[str]:
        from alembic import command

        command.downgrade(alembic_config(conn), "0003")
        return {c["name"] for c in inspect(conn).get_columns("battles")}

    async with raw_engine.begin() as conn:
        columns = await conn.run_sync(down)
    assert "status_message_id" in columns and "status_message_version" not in columns
