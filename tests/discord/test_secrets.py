"""Issue 27, secrets never printed: the database URL's password is shown nowhere a person reads it:
the console (its welcome line in a terminal, its error when the database cannot be opened),
``toride db upgrade``, ``toride run`` (its error at start, every log line, the health endpoint).

Each path runs as the real program. The password is one the server ignores (the test server trusts
local connections), so a URL with it works where a server answers."""

from __future__ import annotations

import ast
import asyncio
import logging
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_process import BotProcess, fresh_database, toride
from discord_harness import Member
from fake_discord import FakeDiscord, guild_on_shard
from sqlalchemy.engine import make_url

from bot.storage.url import HIDDEN, SecretFilter, shown_url, without_secrets

# a terminal of its own for the console, and its deadline, live with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import in_terminal, read_until, terminal_deadline

ROOT = Path(__file__).resolve().parents[2]
SECRET = "S3cret-pw27"
#: a server that does not answer (nothing listens on port 1)
UNREACHABLE = f"postgresql+asyncpg://toride:{SECRET}@127.0.0.1:1/toride"
PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
needs_postgres = pytest.mark.skipif(not PG_URL, reason="TORIDE_TEST_DATABASE_URL names no PostgreSQL server")
GUILD = guild_on_shard(0, 1)
GM = Member(970000000000000001, "GM太郎")
#: with the other tests that start several processes: one at a time, on one worker (the warm starts
#: their deadlines come from measured once)
pytestmark = pytest.mark.xdist_group("processes")


def environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x"}
    env.pop("TORIDE_DATABASE_URL", None)
    return env


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*toride(), *args], input=stdin, capture_output=True, text=True, timeout=60, env=environment(),
        check=False,
    )  # fmt: skip


def test_the_console_and_the_tools_name_an_unreachable_database_without_its_password() -> None:
    shown = UNREACHABLE.replace(SECRET, HIDDEN)
    for args, code in (
        (("console", "--db", UNREACHABLE), 2),
        (("console", "--db", UNREACHABLE, "--lang", "en"), 2),
        (("db", "upgrade", "--db", UNREACHABLE), 2),
        (("run", "--db", UNREACHABLE), 1),
    ):
        done = run(*args, stdin="/fort status\n")
        output = done.stdout + done.stderr
        assert done.returncode == code, output
        assert SECRET not in output and shown in output, (args, output)
    # a URL that does not even parse: still no password
    broken = f"postgresql+asyncpg://toride:{SECRET}@[::1/toride"
    done = run("console", "--db", broken)
    assert done.returncode == 2 and SECRET not in done.stdout + done.stderr


def test_a_log_line_and_its_traceback_lose_the_password() -> None:
    try:
        raise ValueError(f"could not parse {UNREACHABLE!r} ({SECRET})")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "open %s", (UNREACHABLE,), sys.exc_info())
    assert SecretFilter(UNREACHABLE).filter(record)
    text = logging.Formatter().format(record)
    assert SECRET not in text and shown_url(UNREACHABLE) in text and "ValueError" in text
    # a password written percent-encoded is found written either way
    url = "postgresql://u:p%40ss-word@h/db"
    assert without_secrets(f"{url} p@ss-word p%40ss-word", url) == f"postgresql://u:{HIDDEN}@h/db *** ***"


def test_no_front_end_shows_the_raw_url() -> None:
    """Every module outside ``bot/storage`` that names the database shows it by ``shown_url``:
    ``database_url`` (the URL with its password) is called in the storage only."""
    callers = []
    for path in (ROOT / "bot").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == (
                "database_url"
            ):
                callers.append(path.relative_to(ROOT).as_posix())
    assert callers and all(c.startswith("bot/storage/") for c in callers), callers


@needs_postgres
async def test_the_console_in_a_terminal_welcomes_without_the_password(tmp_path: Path) -> None:
    """On a PostgreSQL database of its own (the console makes its schema there)."""
    async with fresh_database(tmp_path, PG_URL) as database:
        url = make_url(database).set(password=SECRET).render_as_string(hide_password=False)
        seen = await asyncio.to_thread(_welcomed, url, tmp_path)
    text = seen.decode("utf-8", "replace")
    assert "Toride console" in text and HIDDEN in text and SECRET not in text


def _welcomed(url: str, tmp_path: Path) -> bytes:
    """What ``toride console --db URL`` in a terminal shows until its goodbye (asked at its prompt)."""
    allowed = terminal_deadline()
    env = {**environment(), "HOME": str(tmp_path), "TERM": "xterm"}
    argv = [*toride(), "console", "--db", url, "--lang", "en", "--channel", f"secret-{os.getpid()}"]
    process, master = in_terminal(argv, tmp_path, env)
    try:
        seen = read_until(master, b"gm@secret", allowed)
        os.write(master, b"/quit\r")
        seen += read_until(master, b"Bye.", allowed)
        assert process.wait(timeout=allowed.seconds) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    return seen


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    stand_in = FakeDiscord([GUILD])
    await stand_in.start()
    yield stand_in
    await stand_in.stop()


@needs_postgres
async def test_the_bot_logs_and_its_health_endpoint_never_show_the_password(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with fresh_database(tmp_path, PG_URL) as database:
        url = make_url(database).set(password=SECRET).render_as_string(hide_password=False)
        bot = BotProcess(fake, url, tmp_path / "bot.log", "--dev-guild", str(GUILD))
        try:
            await bot.start()
            await bot.ready()
            answer = await bot.health()
            assert answer is not None and answer[0] == 200
            session = fake.session(0)
            data = fake.command_data("fort start", {"rounds": 3})
            reply = await fake.callback(await fake.interact(session, GM, GUILD, 1, 2, data))
            assert reply.type == 4
            code, _ = await bot.stop(signal.SIGTERM)
            assert code == 0
        finally:
            await bot.kill()
        assert SECRET not in str(answer[1]) and SECRET not in bot.output(last=10**7)
