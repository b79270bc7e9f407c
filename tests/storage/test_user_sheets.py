"""The sheets users register for ``/palette`` as the storage keeps them (revision 0009), on every
backend: one a user, server and name (registering it again replaces it), at most ten a user and server,
forgotten on request."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from db_under_test import Database

from bot.storage.interface import Transaction
from bot.storage.records import RegisteredSheet
from bot.storage.user_sheets import CAP

NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def sheet(name: str, at: datetime, palette: str | None = None) -> RegisteredSheet:
    return RegisteredSheet(name, json.dumps({"name": name}), palette, f"https://example.test/{name}", at)


async def test_kept_per_user_and_server_replaced_by_name_and_forgotten(database: Database) -> None:
    storage = database.storage()
    await storage.migrate()
    answers: list[bool | None] = []

    async def job(transaction: Transaction) -> None:
        answers.append(await transaction.keep_user_sheet("g", "alice", "ガルド", sheet("ガルド", NOW)))
        mina = sheet("ミナ", NOW + timedelta(days=1))
        answers.append(await transaction.keep_user_sheet("g", "alice", "ミナ", mina))
        answers.append(await transaction.keep_user_sheet("h", "alice", "ガルド", sheet("ガルド", NOW)))
        later = sheet("ガルド", NOW + timedelta(days=2), "2d6+3 命中")
        answers.append(await transaction.keep_user_sheet("g", "alice", "ガルド", later))

    await storage.run(job)
    assert answers == [False, False, False, True]
    mine = await storage.user_sheets("g", "alice")
    assert [(s.name, s.palette, s.updated_at) for s in mine] == [
        ("ガルド", "2d6+3 命中", NOW + timedelta(days=2)),
        ("ミナ", None, NOW + timedelta(days=1)),
    ]
    assert await storage.user_sheets("g", "bob") == []
    assert [s.name for s in await storage.user_sheets("h", "alice")] == ["ガルド"]

    async def forget(transaction: Transaction) -> None:
        assert await transaction.forget_user_sheet("g", "alice", "ミナ")
        assert not await transaction.forget_user_sheet("g", "alice", "ミナ")

    await storage.run(forget)
    assert [s.name for s in await storage.user_sheets("g", "alice")] == ["ガルド"]


async def test_at_most_ten_a_user_and_server(database: Database) -> None:
    storage = database.storage()
    await storage.migrate()
    answers: list[bool | None] = []

    async def job(transaction: Transaction) -> None:
        for n in range(CAP + 1):
            answers.append(await transaction.keep_user_sheet("g", "alice", f"pc{n}", sheet(f"pc{n}", NOW)))
        # one of a name already kept is still replaced
        answers.append(await transaction.keep_user_sheet("g", "alice", "pc0", sheet("pc0", NOW)))

    await storage.run(job)
    assert answers == [False] * CAP + [None, True]
    assert len(await storage.user_sheets("g", "alice")) == CAP
