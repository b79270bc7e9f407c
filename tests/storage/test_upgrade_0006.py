"""Revision 0006 upgrades a database of revision 0005 in place (issue 10): every battle, its log and its
undo are kept, the states each row held are compacted into patches and a few snapshots; downgrading
gives each row its state back."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import sqlalchemy as sa
from db_under_test import Database
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.commands import BuildContext, convert
from bot.console.parser import parse_line
from bot.registry import lookup, rulesets
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.battles import read_latest, read_state_at
from bot.storage.schema import WRITE_OPTION, alembic_config
from bot.storage.tables import events
from bot.views import ErrorView
from engine.dice import ScriptedDice

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

old_battles = sa.table(
    "battles",
    *(sa.column(c) for c in ("id", "guild_id", "channel_id", "ruleset", "status", "version", "state")),
    *(sa.column(c) for c in ("started_by", "created_at", "updated_at", "ended_at")),
)
old_events = sa.table(
    "battle_events",
    *(sa.column(c) for c in ("battle_id", "seq", "kind", "status", "actor", "command_text", "command")),
    *(sa.column(c) for c in ("events", "state_after", "created_at")),
)


class OldBattle:
    """A battle played through the engine and stored as revision 0005 stored it: each action's row
    with the whole state after it, undo and redo as notes that change statuses."""

    def __init__(self, battle_id: int, channel: str) -> None:
        self.id, self.channel = battle_id, channel
        self.binding = rulesets().get("fort")
        assert self.binding is not None
        self.rows: list[dict[str, Any]] = []
        self.states: dict[int, dict[str, Any]] = {}
        self.state: Any = None
        self.current: dict[str, Any] = {}

    def act(self, line: str, dice: list[int] | None = None) -> int:
        parsed = parse_line(line)
        assert parsed is not None
        spec = lookup(parsed.path)
        build = spec.build if spec.build is not None else self.binding.builders.get(spec.path)
        assert build is not None
        command = build(convert(spec, parsed.options), BuildContext(invoker="gm", is_gm=True))
        before = self.state if self.state is not None else self.binding.new_state()
        outcome = self.binding.ruleset.apply(before, command, ScriptedDice(dice or []))
        self.state = outcome.state
        self.current = self.binding.ruleset.export(outcome.state)
        seq = len(self.rows) + 1
        self.states[seq] = self.current
        self.rows.append(self._row(seq, "action", line, self.binding.command_to_json(command),
                                   [e.to_json() for e in outcome.events], self.current))  # fmt: skip
        return seq

    def note(self, line: str, seqs: list[int], status: str, restored: int) -> None:
        for row in self.rows:
            if row["seq"] in seqs:
                row["status"] = status
        kind = "service.undone" if status == "undone" else "service.redone"
        event = {"kind": kind, "data": {"steps": len(seqs), "seqs": seqs}, "dice": []}
        self.rows.append(self._row(len(self.rows) + 1, "note", line, {"command": "gm undo"}, [event], None))
        self.current = self.states[restored]
        self.state = self.binding.ruleset.import_(self.current)

    def discard(self) -> None:
        for row in self.rows:
            if row["status"] == "undone":
                row["status"] = "discarded"

    def _row(self, seq: int, kind: str, line: str, command: Any, events: Any, state: Any) -> dict[str, Any]:
        return {
            "battle_id": self.id,
            "seq": seq,
            "kind": kind,
            "status": "live",
            "actor": "gm",
            "command_text": line,
            "command": json.dumps(command),
            "events": json.dumps(events),
            "state_after": None if state is None else json.dumps(state),
            "created_at": NOW,
        }

    async def store(self, engine: AsyncEngine, status: str = "running") -> None:
        async with engine.begin() as conn:
            await conn.execute(
                sa.insert(old_battles).values(
                    id=self.id, guild_id="g", channel_id=self.channel, ruleset="fort", status=status,
                    version=len(self.rows), state=json.dumps(self.current), started_by="gm",
                    created_at=NOW, updated_at=NOW, ended_at=NOW if status == "ended" else None,
                )
            )  # fmt: skip
            await conn.execute(sa.insert(old_events), self.rows)


def first_battle() -> OldBattle:
    """seq 1 start, 2 a PC, 3 a unit, 4 hp (undone by 5, discarded by 6), 6 another unit, 7 an attack
    with dice, 8 hp (undone by 9, redo-able)."""
    old = OldBattle(1, "c")
    old.act("/fort start rounds:5 title:old")
    old.act("/pc add name:Alice position:outside")
    old.act("/unit add name:Orc type:normal area:A1 hp:30 fort_damage:2 strike:2d")
    old.act("/unit hp unit:Orc delta:-3")
    old.note("/gm undo", [4], "undone", 3)
    old.discard()
    old.act("/unit add name:Imp type:normal area:A1 hp:12 fort_damage:1 strike:1d")
    old.act("/attack area unit:Orc damage:2d+1 radius:3", dice=[3, 4, 2, 5, 6, 1, 2, 3])
    old.act("/unit hp unit:Imp delta:-4")
    old.note("/gm undo", [8], "undone", 7)
    return old


async def log_rows(engine: AsyncEngine, battle_id: int) -> list[tuple[Any, ...]]:
    columns = ("seq", "kind", "status", "actor", "command_text", "command", "events")
    async with engine.connect() as conn:
        result = await conn.execute(
            sa.select(*(sa.column(c) for c in columns))
            .select_from(sa.table("battle_events"))
            .where(sa.column("battle_id") == battle_id)
            .order_by(sa.column("seq"))
        )
        return [tuple(r) for r in result]


async def test_an_upgrade_keeps_every_battle_its_log_and_its_undo(database: Database) -> None:
    engine = database.engine()
    await database.migrate("0005")
    old, ended, long = first_battle(), OldBattle(2, "d"), OldBattle(3, "e")
    ended.act("/fort start rounds:1")
    ended.act("/fort end outcome:retreat")
    long.act("/fort start rounds:2")
    long.act("/unit add name:Ogre type:normal area:B1 hp:1000 fort_damage:5 strike:3d")
    for i in range(448):  # more rows than the upgrade reads at a time
        long.act(f"/unit hp unit:Ogre set:{999 - i}")
    await old.store(engine)
    await ended.store(engine, "ended")
    await long.store(engine)
    before = {b: await log_rows(engine, b) for b in (1, 2, 3)}

    await database.migrate()

    # every row kept as it was (who, what, statuses, events with their dice)
    assert {b: await log_rows(engine, b) for b in (1, 2, 3)} == before
    async with engine.connect() as conn:
        for battle, state in ((old, old.states[7]), (ended, ended.states[2]), (long, long.states[450])):
            head, loaded = await conn.run_sync(read_latest, "g", battle.channel)
            assert head is not None and head.id == battle.id and loaded is not None
            assert loaded[0] == state
        for seq in (2, 199, 200, 201, 401, 450):
            assert await conn.run_sync(read_state_at, 3, seq) == long.states[seq], seq
        for seq in (1, 2, 3, 6, 7, 8):  # every action that still counts replays to its old state
            assert await conn.run_sync(read_state_at, 1, seq) == old.states[seq], seq
        kept = (
            await conn.execute(
                sa.select(events.c.battle_id, events.c.seq)
                .where(events.c.snapshot.is_not(None))
                .order_by(events.c.battle_id, events.c.seq)
            )
        ).all()
        columns = await conn.run_sync(
            lambda c: {col["name"] for col in sa.inspect(c).get_columns("battle_events")}
        )
    # each battle's first state, and one wherever the patches since the last outweigh two states (a
    # small battle's state: ~1.4 KB, a patch of /unit hp ~100 bytes); the others compacted into patches
    assert kept[:3] == [(1, 1), (2, 1), (3, 1)]
    long_kept = [seq for battle, seq in kept if battle == 3]
    assert 10 < len(long_kept) < 30 and all(b - a > 15 for a, b in pairwise(long_kept))
    assert "state_after" not in columns

    # undo and redo across the upgrade restore what they restored before it
    storage = database.storage()
    service = BattleService(storage, ScriptedDice([]))
    where = Where("g", "c")

    async def document(line: str) -> dict[str, Any]:
        parsed = parse_line(line)
        assert parsed is not None
        view = await service.execute(where, Actor("gm"), Invocation(parsed.path, parsed.options, parsed.text))
        assert not isinstance(view, ErrorView), view
        status = await service.status(where)
        assert status is not None
        return status.document

    assert await document("/gm redo") == old.states[8]
    assert await document("/gm undo steps:3") == old.states[3]  # 8, 7 and 6 (4 was discarded)
    assert await document("/gm redo steps:2") == old.states[7]
    fresh = await BattleService(storage, ScriptedDice([])).status(where)
    assert fresh is not None and fresh.document == old.states[7]
    after = await document("/unit hp unit:Imp delta:-2")
    imp = next(u for u in after["units"] if u["name"] == "Imp")
    assert imp["hp"] == 12 - 2


async def test_a_downgrade_gives_each_row_its_state_back(database: Database) -> None:
    engine = database.engine()
    await database.migrate("0005")
    old = first_battle()
    await old.store(engine)
    await database.migrate()
    await upgrade_down(engine, "0005")
    async with engine.connect() as conn:
        result = await conn.execute(
            sa.select(old_events.c.seq, old_events.c.status, old_events.c.state_after)
            .where(old_events.c.battle_id == 1)
            .order_by(old_events.c.seq)
        )
        states = {seq: (status, None if s is None else json.loads(s)) for seq, status, s in result}
        current = json.loads((await conn.execute(sa.select(old_battles.c.state))).scalar_one())
    assert current == old.states[7]
    for seq in (1, 2, 3, 6, 7, 8):
        assert states[seq][1] == old.states[seq], seq
    assert states[4] == ("discarded", None)  # nothing can restore it
    assert states[5] == ("live", None) and states[9] == ("live", None)  # notes hold no state


async def upgrade_down(engine: AsyncEngine, revision: str) -> None:
    from alembic import command

    async with engine.connect() as conn:
        await conn.execution_options(**{WRITE_OPTION: True})
        async with conn.begin():
            await conn.run_sync(lambda c: command.downgrade(alembic_config(c), revision))
