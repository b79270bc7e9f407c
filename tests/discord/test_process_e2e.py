"""The bot as a real process: ``toride run`` (and ``toride sync``) against a local stand-in for
Discord's REST API and gateway (``fake_discord``), over sockets, as a server runs it.

It logs in and registers its commands within Discord's documented limits, plays a battle with slash
commands, buttons and autocomplete, answers refusals ephemerally, waits out a 429's ``retry_after``
on a status edit, RESUMEs a dropped gateway connection (and gets the events it missed), runs the
status edit still waiting when SIGTERM comes and exits 0, refreshes at its next start a status
message left behind by a crash, and runs as two shard processes on one database, each answering its
own guilds. Each test prints what it measured (``pytest -s``): start-to-ready, interaction-to-
callback latency, stop time; nothing here asserts a duration. Every wait is bounded and every
process is stopped by the test, on failure too.
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import regex
from bot_process import BotProcess, fresh_database, run_once
from discord_harness import Member
from fake_discord import IDENTIFY, RESUME, Call, FakeDiscord, Interaction, Session, guild_on_shard
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from test_tree import _size

PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000001
GM = Member(970000000000000001, "GM太郎")
BOB = Member(970000000000000002, "ボブ")
#: Discord's limits for application commands ("Application Command Object", "Naming")
NAME = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
GLOBAL_COMMANDS, OPTIONS, CHOICES, DESCRIPTION, CHOICE_NAME, COMMAND_SIZE = 100, 25, 25, 100, 100, 4000
NEXT, REFRESH = "toride:status:next", "toride:status:refresh"

#: with the other tests that start several processes: one at a time, on one worker (the warm starts
#: their deadlines come from measured once)
pytestmark = pytest.mark.xdist_group("processes")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    stand_in = FakeDiscord([GUILD])
    await stand_in.start()
    yield stand_in
    await stand_in.stop()


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database: a PostgreSQL database of its own when TORIDE_TEST_DATABASE_URL names a
    server (dropped afterwards), else a SQLite file."""
    async with fresh_database(tmp_path, PG_URL) as url:
        yield url


def start(
    fake: FakeDiscord,
    database: str,
    tmp_path: Path,
    processes: list[BotProcess],
    *args: str,
    env: dict[str, str] | None = None,
) -> BotProcess:
    process = BotProcess(fake, database, tmp_path / f"bot-{len(processes)}.log", *args, env=env)
    processes.append(process)
    return process


# --- Discord's documented limits for the registered commands -------------------------------------


def _valid_name(name: str) -> bool:
    return NAME.fullmatch(name) is not None and all(c.lower() == c for c in name)


def _check(payload: dict[str, Any], where: str) -> None:
    names = [payload["name"], *(payload.get("name_localizations") or {}).values()]
    assert all(_valid_name(n) for n in names), (where, names)
    descriptions = [payload["description"], *(payload.get("description_localizations") or {}).values()]
    assert all(1 <= len(d) <= DESCRIPTION for d in descriptions), (where, descriptions)
    options = payload.get("options") or []
    assert len(options) <= OPTIONS, where
    required = [bool(o.get("required")) for o in options if o["type"] > 2]
    assert required == sorted(required, reverse=True), (where, "required options come first")
    for choice in payload.get("choices") or []:
        shown = [choice["name"], *(choice.get("name_localizations") or {}).values()]
        assert all(1 <= len(n) <= CHOICE_NAME for n in shown), (where, shown)
    assert len(payload.get("choices") or []) <= CHOICES, where
    assert not (payload.get("choices") and payload.get("autocomplete")), where
    for option in options:
        _check(option, f"{where} {option['name']}")


def assert_within_discords_limits(commands: list[dict[str, Any]]) -> None:
    assert 0 < len(commands) <= GLOBAL_COMMANDS
    assert len({c["name"] for c in commands}) == len(commands)
    for command in commands:
        assert command.get("type", 1) == 1
        _check(command, "/" + command["name"])
        for locale in (None, "ja"):
            assert _size(command, locale) <= COMMAND_SIZE, (command["name"], locale)


# --- helpers ---------------------------------------------------------------------------------------


async def command(
    fake: FakeDiscord,
    session: Session,
    member: Member,
    path: str,
    guild: int = GUILD,
    channel: int = CHANNEL,
    **options: Any,
) -> tuple[Interaction, Call]:
    interaction = await fake.interact(session, member, guild, channel, 2, fake.command_data(path, options))
    return interaction, await fake.callback(interaction)


async def press(
    fake: FakeDiscord, session: Session, member: Member, custom_id: str, message_id: int
) -> tuple[Interaction, Call]:
    message = fake.messages[CHANNEL][message_id]
    data = {"custom_id": custom_id, "component_type": 2}
    interaction = await fake.interact(session, member, GUILD, CHANNEL, 3, data, message=message)
    return interaction, await fake.callback(interaction)


async def status_shows(fake: FakeDiscord, message_id: int, text: str, after: int = 0) -> Call:
    """The first edit of the status message from call ``after`` on that shows ``text`` (and was taken)."""

    def edited() -> Call | None:
        for call in fake.calls[after:]:
            path = f"/channels/{CHANNEL}/messages/{message_id}"
            if call.method == "PATCH" and call.path == path and call.status == 200 and text in call.text():
                return call
        return None

    found: Call = await fake.wait_for(edited, f"a status edit showing {text!r}")
    return found


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --- the tests -------------------------------------------------------------------------------------


async def test_toride_sync_registers_every_command_within_discords_limits(
    fake: FakeDiscord, database: str, tmp_path: Path
) -> None:
    assert await run_once(fake, database, "sync", log=tmp_path / "sync.log") == 0
    (put,) = [c for c in fake.calls if c.method == "PUT"]
    assert put.path.endswith("/commands") and "/guilds/" not in put.path  # global
    assert_within_discords_limits(fake.commands)
    assert {c["name"] for c in fake.commands} >= {"roll", "fort", "unit", "pc", "gm", "sg"}
    assert next(c for c in fake.commands if c["name"] == "fort")["name_localizations"] == {"ja": "砦"}


async def test_a_battle_through_the_gateway_with_a_rate_limit_a_resume_a_stop_and_restarts(
    fake: FakeDiscord, database: str, tmp_path: Path, processes: list[BotProcess]
) -> None:
    bot = start(fake, database, tmp_path, processes, "--dev-guild", str(GUILD))
    await bot.start()
    await bot.ready()
    print(f"\nstart to ready: {bot.ready_after:.2f} s (health endpoint 200)")
    # at start the commands went to the development guild: within Discord's limits
    (put,) = await fake.wait_for(lambda: [c for c in fake.calls if c.method == "PUT"], "the commands")
    assert put.path.endswith(f"/guilds/{GUILD}/commands")
    assert_within_discords_limits(fake.commands)
    (identify,) = fake.gateway_ops
    assert identify[0] == IDENTIFY and identify[1]["shard"] == [0, 1]
    session = fake.session(0)

    # a battle: slash commands, the status message with its buttons and picture
    _, started = await command(fake, session, GM, "fort start", rounds=3, title="北の砦")
    assert started.type == 4 and not started.ephemeral and "北の砦" in started.text()
    (post,) = await fake.wait_for(lambda: fake.channel_calls(CHANNEL, "POST"), "the status message")
    status_id = int(next(iter(fake.messages[CHANNEL])))
    buttons = [b["custom_id"] for row in post.data["components"] for b in row["components"]]
    assert buttons == ["toride:status:next", "toride:status:undo", REFRESH]
    assert post.files == ["battlefield.png"]
    _, added = await command(
        fake, session, GM, "unit add", name="ゴブリン隊", type="normal", area="A2", hp=60, fort_damage=10
    )
    assert added.type == 4 and "ゴブリン隊" in added.text()

    # autocomplete: the unit's name
    data = fake.command_data("unit move", {"unit": "ゴブ", "to": "A1"}, focused="unit")
    completed = await fake.callback(await fake.interact(session, GM, GUILD, CHANNEL, 4, data))
    assert completed.type == 8 and [c["value"] for c in completed.data["choices"]] == ["ゴブリン隊"]

    # a refusal is ephemeral: unit HP is for the GM
    _, refused = await command(fake, session, BOB, "unit hp", unit="ゴブリン隊", delta=-5)
    assert refused.type == 4 and refused.ephemeral and "GM" in refused.text()

    # the status message's buttons: next turn (the GM), refresh (anyone)
    _, pressed = await press(fake, session, GM, NEXT, status_id)
    assert pressed.type == 4 and not pressed.ephemeral and "/砦 次へ" in pressed.text()
    _, refreshed = await press(fake, session, BOB, REFRESH, status_id)
    assert refreshed.type == 7 and "北の砦" in refreshed.text()

    # a 429 on the status edit: the bot waits retry_after, then the edit lands
    fake.rate_limit("PATCH", f"/channels/{CHANNEL}/messages/{status_id}", retry_after=0.5)
    mark = len(fake.calls)
    await command(fake, session, GM, "unit hp", unit="ゴブリン隊", delta=-3)
    await status_shows(fake, status_id, "HP 57/60", mark)
    edits = [c for c in fake.calls[mark:] if c.method == "PATCH" and c.path.endswith(str(status_id))]
    (refused_at,) = [n for n, c in enumerate(edits) if c.status == 429]
    retried = edits[refused_at + 1]
    assert retried.status == 200 and retried.at - edits[refused_at].at >= 0.45

    # the gateway drops the connection: the bot RESUMEs the session and gets what it missed
    await fake.drop(session)
    missed = await fake.interact(
        session, GM, GUILD, CHANNEL, 2, fake.command_data("unit hp", {"unit": "ゴブリン隊", "delta": -2})
    )
    answered = await fake.callback(missed)
    assert "57→55" in answered.text()
    ops = [op for op, _ in fake.gateway_ops]
    assert ops == [IDENTIFY, RESUME] and session.resumes == 1 and session.replayed >= 1
    assert fake.gateway_ops[1][1]["session_id"] == session.id and fake.gateway_ops[1][1]["seq"] > 0

    # 200 commands, one after another: interaction to callback
    latencies = []
    for n in range(200):
        interaction, answer = await command(
            fake, session, GM, "unit hp", unit="ゴブリン隊", delta=1 if n % 2 else -1
        )
        assert answer.type == 4
        latencies.append((answer.at - interaction.sent_at) * 1000)
    print(
        f"interaction to callback over {len(latencies)} commands (/unit hp): "
        f"p50 {statistics.median(latencies):.1f} ms, p99 {percentile(latencies, 99):.1f} ms"
    )

    # SIGTERM while a status edit waits for its interval: the edit runs, then the process exits 0
    await status_shows(fake, status_id, "HP 55/60")
    await command(fake, session, GM, "unit hp", unit="ゴブリン隊", set=50)
    await status_shows(fake, status_id, "HP 50/60")
    mark = len(fake.calls)
    await command(fake, session, GM, "unit hp", unit="ゴブリン隊", set=44)  # its edit waits ~2 s
    assert not [c for c in fake.calls[mark:] if c.method == "PATCH"]
    code, stop_time = await bot.stop(signal.SIGTERM)
    assert code == 0
    assert "HP 44/60" in [c for c in fake.calls[mark:] if c.method == "PATCH"][-1].text()
    print(f"stop on SIGTERM with an edit waiting: {stop_time:.2f} s, exit {code}")

    # a crash (SIGKILL) with an edit waiting: the next start refreshes the message that is behind
    bot = start(fake, database, tmp_path, processes)
    await bot.start()
    await bot.ready()
    session = fake.session(0)
    await command(fake, session, GM, "unit hp", unit="ゴブリン隊", set=40)
    await status_shows(fake, status_id, "HP 40/60")
    mark = len(fake.calls)
    await command(fake, session, GM, "unit hp", unit="ゴブリン隊", set=33)
    code, _ = await bot.stop(signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert not [c for c in fake.calls[mark:] if c.method == "PATCH"]  # the message still says 40
    bot = start(fake, database, tmp_path, processes)
    await bot.start()
    await bot.ready()
    await status_shows(fake, status_id, "HP 33/60", mark)
    code, stop_time = await bot.stop(signal.SIGINT)
    assert code == 0
    print(f"stop on SIGINT: {stop_time:.2f} s")


async def test_two_shard_processes_on_one_database_each_answer_their_own_guilds(
    tmp_path: Path, database: str, processes: list[BotProcess]
) -> None:
    """Discord sends a guild's events to shard (guild_id >> 22) % shard_count; each process runs one
    of two shards (one given by options, one by the environment) on one database (PostgreSQL when
    TORIDE_TEST_DATABASE_URL is set)."""
    guilds = [guild_on_shard(0, 2), guild_on_shard(1, 2)]
    fake = FakeDiscord(guilds, shards=2)
    await fake.start()
    try:
        first = start(
            fake,
            database,
            tmp_path,
            processes,
            "--shard-count",
            "2",
            "--shards",
            "0",
            "--dev-guild",
            str(guilds[0]),
        )
        second = start(
            fake, database, tmp_path, processes, env={"TORIDE_SHARD_COUNT": "2", "TORIDE_SHARDS": "1"}
        )
        await first.start()
        await first.ready()  # one after the other: the schema is upgraded by the first
        await second.start()
        await second.ready()
        assert sorted(data["shard"] for op, data in fake.gateway_ops if op == IDENTIFY) == [[0, 2], [1, 2]]
        for process, shard in ((first, "0"), (second, "1")):
            answer = await process.health()
            assert answer is not None and answer[0] == 200
            assert answer[1]["gateway"] is True and answer[1]["database"] is True
            assert list(answer[1]["shards"]) == [shard]  # type: ignore[call-overload]

        async def battle(shard: int) -> list[Call]:
            session, guild, channel = fake.session(shard), guilds[shard], CHANNEL + shard
            answers = [(await command(fake, session, GM, "fort start", guild, channel, rounds=2))[1]]
            for n in range(10):
                answers.append((await command(fake, session, GM, "pc add", guild, channel, name=f"PC{n}"))[1])
            return answers

        both = await asyncio.gather(battle(0), battle(1))
        for answers in both:
            assert all(a.type == 4 and not a.ephemeral for a in answers)
        # each shard's session got its own guild's interactions only, and each was answered once
        for shard, guild in enumerate(guilds):
            sent = [f["d"] for f in fake.session(shard).sent if f["t"] == "INTERACTION_CREATE"]
            assert {d["guild_id"] for d in sent} == {str(guild)}
            assert all(len(fake.callbacks(Interaction(int(d["id"]), d["token"], 0))) == 1 for d in sent)
        engine = create_async_engine(database)
        try:
            async with engine.connect() as conn:
                rows = (
                    await conn.execute(text("SELECT guild_id, version FROM battles ORDER BY guild_id"))
                ).all()
        finally:
            await engine.dispose()
        assert sorted(rows) == sorted((str(g), 11) for g in guilds)  # both battles, every command kept
        for process in (first, second):
            code, _ = await process.stop()
            assert code == 0
    finally:
        await fake.stop()
