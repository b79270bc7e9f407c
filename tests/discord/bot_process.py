"""The bot's own entry point (``toride run``, ``toride sync``) as a child process against the stand-in.

Its output goes to a file (shown when a test fails); every wait is bounded, and ``stop`` (or, at the
latest, the test's fixture) ends the process: SIGTERM, and SIGKILL if it does not go. How long a start
(and a stop) may take is derived from a warm start of ``toride run`` measured on this machine in this
test process (``ready_deadline``, tests/warm_start.py), not a fixed number of seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import aiohttp
from fake_discord import TOKEN, FakeDiscord, guild_on_shard
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from warm_start import Deadline, deadline_async, measuring

#: variables of the developer's or CI's environment that would change what the bot does
_CLEARED = (
    "TORIDE_DEV_GUILD",
    "TORIDE_SHARD_COUNT",
    "TORIDE_SHARDS",
    "TORIDE_HEALTH_PORT",
    "TORIDE_HEALTH_HOST",
    "TORIDE_LOCALIZED_NAMES",
)


def toride() -> list[str]:
    """The ``toride`` console script of this environment (as installed by ``pip install -e``)."""
    script = Path(sys.executable).with_name("toride")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def free_port() -> int:
    """A port on 127.0.0.1 that no other process is given meanwhile, for a server this test starts.

    The port is one the system chose, left in TIME_WAIT by a connection made and closed on it: the
    system gives it to no other socket that asks for any free port (another test, another test
    process) for a minute, while the server started on it, which binds with SO_REUSEADDR as asyncio's
    and PostgreSQL's servers do, may take it at once."""
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port: int = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            accepted, _ = listener.accept()
            accepted.close()  # closed first on the listener's side: TIME_WAIT is there, on this port
            client.recv(1)  # the close has arrived
        return port


@contextlib.asynccontextmanager
async def fresh_database(folder: Path, postgres: str | None) -> AsyncIterator[str]:
    """An empty database for the bot's processes: a SQLite file in ``folder``, or a PostgreSQL
    database of its own on the server ``postgres`` names (dropped afterwards)."""
    if not postgres or not postgres.startswith("postgresql"):
        yield f"sqlite+aiosqlite:///{folder / 'bot.db'}"
        return
    name = "toride_e2e_" + uuid.uuid4().hex[:12]
    admin = create_async_engine(postgres, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


def environment(fake: FakeDiscord, database: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(
        DISCORD_TOKEN=TOKEN,
        TORIDE_DISCORD_API_BASE=fake.api_base,
        TORIDE_DATABASE_URL=database,
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)  # a test's own, over these (TORIDE_DISCORD_API_BASE: a proxy in front)
    return env


async def run_once(fake: FakeDiscord, database: str, *args: str, log: Path, timeout: float = 60.0) -> int:
    """Run ``toride ARGS`` to its end (``toride sync``); its exit status."""
    with log.open("ab") as out:
        process = await asyncio.create_subprocess_exec(
            *toride(), *args, env=environment(fake, database), stdout=out, stderr=out
        )
        try:
            return await asyncio.wait_for(process.wait(), timeout)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


class BotProcess:
    """``toride run ARGS`` with a health endpoint, started and stopped by the test.

    Its start may take ``deadline`` (from ``ready_deadline``, measured before the first start of this
    test process, so the measuring starts run alone); ``measuring``: one of those starts, whose
    deadline the measurement gives."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: str,
        log: Path,
        *args: str,
        env: dict[str, str] | None = None,
        measuring: Deadline | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        self.fake = fake
        self.database = database
        self.log = log
        self.args = args
        #: more environment variables for the process
        self.env = env or {}
        #: what the command line begins with (a wrapper that runs ``toride``: ``unshare ...``)
        self.prefix = tuple(prefix)
        self.health_port = free_port()
        self.process: asyncio.subprocess.Process | None = None
        self.started = 0.0
        #: seconds from the start to the health endpoint's first 200
        self.ready_after: float | None = None
        #: how long its start (and its stop) may take
        self.deadline: Deadline | None = measuring

    async def start(self) -> None:
        if self.deadline is None:
            self.deadline = await ready_deadline()
        env = environment(self.fake, self.database, TORIDE_HEALTH_PORT=str(self.health_port), **self.env)
        with self.log.open("ab") as out:
            self.started = time.monotonic()
            self.process = await asyncio.create_subprocess_exec(
                *self.prefix, *toride(), "run", *self.args, env=env, stdout=out, stderr=out
            )

    async def health(self) -> tuple[int, dict[str, object]] | None:
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(
                    f"http://127.0.0.1:{self.health_port}/health", timeout=aiohttp.ClientTimeout(total=5)
                ) as response,
            ):
                return response.status, await response.json()
        except (aiohttp.ClientError, TimeoutError):
            return None

    async def metrics(self) -> list[Sample]:
        """Every sample ``GET /metrics`` answers, read with prometheus_client's parser."""
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"http://127.0.0.1:{self.health_port}/metrics", timeout=aiohttp.ClientTimeout(total=5)
            ) as response,
        ):
            assert response.status == 200
            body = await response.text()
        return [sample for family in text_string_to_metric_families(body) for sample in family.samples]

    async def ready(self) -> None:
        """Wait (bounded by ``deadline``, from the start) until the health endpoint says the gateway
        is connected and the database up."""
        assert self.process is not None and self.deadline is not None
        deadline = self.started + self.deadline.seconds
        while time.monotonic() < deadline:
            if self.process.returncode is not None:
                raise AssertionError(f"the bot exited with {self.process.returncode}:\n{self.output()}")
            answer = await self.health()
            if answer is not None and answer[0] == 200:
                self.ready_after = time.monotonic() - self.started
                if "--dev-guild" in self.args:  # registered beside the connection: wait for it too
                    what = f"the commands registered ({self.deadline.missed()})"
                    await self.fake.wait_for(lambda: self.fake.commands, what, self.deadline.seconds)
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.deadline.missed()}:\n{self.output()}")

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> tuple[int, float]:
        """Send ``sig``; the exit status and the seconds until the process was gone (bounded by
        ``deadline``, and at least ``STOP_FLOOR``)."""
        assert self.process is not None and self.deadline is not None
        timeout = max(STOP_FLOOR, self.deadline.seconds)
        sent = time.monotonic()
        if self.process.returncode is None:
            self.process.send_signal(sig)
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            why = self.deadline.missed(f"gone after {sig.name}")
            raise AssertionError(f"{why} (at least {STOP_FLOOR:g} s)") from None
        return code, time.monotonic() - sent

    async def kill(self) -> None:
        """The end of every test: whatever still runs is killed."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()

    def output(self, last: int = 6000) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-last:]
        except FileNotFoundError:
            return ""


#: a stop may take at least this long (seconds): it waits out a status edit's interval (2 s) and a
#: 429's ``retry_after``, which no machine shortens
STOP_FLOOR = 15.0


async def ready_deadline() -> Deadline:
    """How long a start of ``toride run`` may take: derived from its warm start, measured once in this
    test process against a stand-in of its own on a SQLite file (tests/warm_start.py)."""
    return await deadline_async("toride run", _one_start)


async def _one_start() -> float:
    """One start of ``toride run`` on a new SQLite file (its schema made, as a test's bot does) to its
    health endpoint's 200 (seconds), and its stop."""
    with tempfile.TemporaryDirectory(prefix="toride-warm-start-") as name:
        folder = Path(name)
        fake = FakeDiscord([guild_on_shard(0, 1)])
        await fake.start()
        database = f"sqlite+aiosqlite:///{folder / 'bot.db'}"
        bot = BotProcess(fake, database, folder / "bot.log", measuring=measuring("toride run"))
        try:
            await bot.start()
            await bot.ready()
            await bot.stop()
        finally:
            await bot.kill()
            await fake.stop()
    assert bot.ready_after is not None
    return bot.ready_after


@contextlib.asynccontextmanager
async def ready_bot(
    fake: FakeDiscord, database: str, log: Path, failed: Callable[[], bool], *args: str
) -> AsyncIterator[BotProcess]:
    """The stand-in started and a bot process on it, READY; both stopped after, and the process's
    output shown when ``failed()`` says the test failed."""
    await fake.start()
    process = BotProcess(fake, database, log, *args)
    try:
        await process.start()
        await process.ready()
        yield process
    finally:
        await process.kill()
        await fake.stop()
        if failed():
            print(process.output())
