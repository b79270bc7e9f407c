"""The bot's own entry point (``toride run``, ``toride sync``) as a child process against the stand-in.

Its output goes to a file (shown when a test fails); every wait is bounded, and ``stop`` (or, at the
latest, the test's fixture) ends the process: SIGTERM, and SIGKILL if it does not go.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
from fake_discord import TOKEN, FakeDiscord
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
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
        **extra,
    )
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
    """``toride run ARGS`` with a health endpoint, started and stopped by the test."""

    def __init__(
        self, fake: FakeDiscord, database: str, log: Path, *args: str, env: dict[str, str] | None = None
    ) -> None:
        self.fake = fake
        self.database = database
        self.log = log
        self.args = args
        #: more environment variables for the process
        self.env = env or {}
        self.health_port = free_port()
        self.process: asyncio.subprocess.Process | None = None
        self.started = 0.0
        #: seconds from the start to the health endpoint's first 200
        self.ready_after: float | None = None

    async def start(self) -> None:
        env = environment(self.fake, self.database, TORIDE_HEALTH_PORT=str(self.health_port), **self.env)
        with self.log.open("ab") as out:
            self.started = time.monotonic()
            self.process = await asyncio.create_subprocess_exec(
                *toride(), "run", *self.args, env=env, stdout=out, stderr=out
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

    async def ready(self, timeout: float = 45.0) -> None:
        """Wait (bounded) until the health endpoint says the gateway is connected and the database up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.returncode is not None:
                raise AssertionError(f"the bot exited with {self.process.returncode}:\n{self.output()}")
            answer = await self.health()
            if answer is not None and answer[0] == 200:
                self.ready_after = time.monotonic() - self.started
                if "--dev-guild" in self.args:  # registered beside the connection: wait for it too
                    await self.fake.wait_for(lambda: self.fake.commands, "the commands registered", timeout)
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"the bot was not ready within {timeout:g} s:\n{self.output()}")

    async def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 15.0) -> tuple[int, float]:
        """Send ``sig``; the exit status and the seconds until the process was gone."""
        assert self.process is not None
        sent = time.monotonic()
        if self.process.returncode is None:
            self.process.send_signal(sig)
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            raise AssertionError(f"the bot did not stop within {timeout:g} s of {sig.name}") from None
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
