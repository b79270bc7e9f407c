"""Issue 39, item 4: every failure in one line of words, in the reader's language, never a traceback or
a password. Each runs the real program (``python -m bot.cli ...``) where that is what a person sees:
``toride run`` when its PostgreSQL server refuses (a closed port on 127.0.0.1), when Discord cannot be
reached (a name that does not resolve; a local port that refuses, as ``TORIDE_DISCORD_API_BASE``), a
password in the URL's query; the console on a URL of a database the bot has no storage for, in a
missing or read-only folder, on a file another program holds. And a name from any source (a co-GM
stored under a console name) is escaped where Discord renders it."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from bot_process import free_port, toride
from discord_harness import BOB, CHANNEL_ID, GM, GUILD_ID, Harness

from bot.discord.text import md
from bot.i18n import t
from bot.storage.interface import Storage
from bot.storage.url import HIDDEN

ROOT = Path(__file__).resolve().parents[2]
SECRET = "S3cret-pw39"
PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
#: a reader without root's override of file permissions (root may write in a read-only folder)
NO_OVERRIDE = ["setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override"]
#: a line ``discord.utils.setup_logging`` writes (time, level, logger): the log, not the failure's words
LOG_LINE = re.compile(r"^(\x1b\[[0-9;]*m)?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
#: with the other tests that start processes: one at a time, on one worker
pytestmark = pytest.mark.xdist_group("processes")


def run(*args: str, cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "stand-in-token", **env}
    environment.pop("TORIDE_DATABASE_URL", None)
    return subprocess.run(
        [*toride(), *args], input=stdin, capture_output=True, text=True, timeout=120, env=environment,
        cwd=cwd, check=False,
    )  # fmt: skip


def words(stderr: str) -> list[str]:
    """What a program said on its standard error, but its log lines."""
    return [line for line in stderr.splitlines() if not LOG_LINE.match(line)]


def said(done: subprocess.CompletedProcess[str]) -> str:
    """The one line of words a failed program said (no traceback, no password anywhere)."""
    output = done.stdout + done.stderr
    assert "Traceback" not in output and SECRET not in output, output
    (line,) = words(done.stderr)
    return line


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"postgresql+asyncpg://toride:{SECRET}@127.0.0.1:1/toride", f"toride:{HIDDEN}@127.0.0.1:1/toride"),
        (  # the password in the query, as libpq and asyncpg also take it
            f"postgresql+asyncpg://toride@127.0.0.1:1/toride?password={SECRET}&ssl=disable",
            f"toride@127.0.0.1:1/toride?password={HIDDEN}&ssl=disable",
        ),
    ],
)
def test_run_on_a_refused_postgresql_port_says_one_line_without_a_traceback(
    tmp_path: Path, url: str, shown: str
) -> None:
    done = run("run", "--db", url, cwd=tmp_path)
    assert done.returncode == 1
    reason = t("storage.connection_lost", "ja")
    shown_db = "postgresql+asyncpg://" + shown
    assert said(done) == "toride run: " + t("console.db_error", "ja", db=shown_db, error=reason)
    assert done.stderr.count("\n") == 1  # nothing logged before it either
    done = run("run", "--db", url, "--lang", "en", cwd=tmp_path)
    reason = t("storage.connection_lost", "en")
    assert said(done) == "toride run: " + t("console.db_error", "en", db=shown_db, error=reason)


@pytest.mark.parametrize(
    ("base", "address", "why"),
    [
        ("http://toride-stand-in.invalid/api/v10", "toride-stand-in.invalid:80", "dns"),
        ("http://127.0.0.1:{port}/api/v10", "127.0.0.1:{port}", "refused"),
    ],
)
def test_run_with_discord_unreachable_says_one_line_without_a_traceback(
    tmp_path: Path, base: str, address: str, why: str
) -> None:
    port = str(free_port())  # nothing listens there
    db = str(tmp_path / "bot.db")
    for lang in ("ja", "en"):
        done = run(
            "run", "--db", db, "--lang", lang, cwd=tmp_path,
            TORIDE_DISCORD_API_BASE=base.format(port=port),
        )  # fmt: skip
        assert done.returncode == 1
        reason = t(f"value.reach.{why}", lang)
        expected = t("run.discord_unreachable", lang, address=address.format(port=port), why=reason)
        assert said(done) == f"toride run: {expected}"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_url_of_a_database_without_storage_names_the_urls_to_use(tmp_path: Path, lang: str) -> None:
    url = f"mysql+pymysql://toride:{SECRET}@127.0.0.1/toride"
    done = run("console", "--db", url, "--lang", lang, cwd=tmp_path, stdin="/fort status\n")
    assert done.returncode == 2
    reason = t("storage.unsupported", lang, backend="mysql")
    shown = f"mysql+pymysql://toride:{HIDDEN}@127.0.0.1/toride"
    assert said(done) == t("console.db_error", lang, db=shown, error=reason)
    assert "postgresql+asyncpg://" in reason and "sqlite+aiosqlite:///" in reason


@pytest.mark.skipif(not PG_URL, reason="TORIDE_TEST_DATABASE_URL names no PostgreSQL server")
def test_a_postgresql_url_naming_the_psycopg2_driver_is_served_by_the_bots_own_drivers(
    tmp_path: Path,
) -> None:
    assert PG_URL is not None
    url = PG_URL.replace("+asyncpg", "+psycopg2", 1)
    done = run(
        "console", "--db", url, "--channel", f"psycopg2-{os.getpid()}", cwd=tmp_path, stdin="/fort status\n"
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "ModuleNotFoundError" not in done.stdout


def test_a_database_in_a_missing_or_read_only_folder_says_which_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "battles.db"
    done = run("console", "--db", str(missing), cwd=tmp_path, stdin="/fort status\n")
    reason = t("storage.folder_missing", "ja", folder=str(missing.parent), file=str(missing))
    assert said(done) == t("console.db_error", "ja", db=f"sqlite+aiosqlite:///{missing}", error=reason)
    locked = tmp_path / "read-only"
    locked.mkdir()
    locked.chmod(0o555)
    db = locked / "battles.db"
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("TORIDE_DATABASE_URL", None)
    for lang in ("ja", "en"):
        done = subprocess.run(
            [*NO_OVERRIDE, sys.executable, "-m", "bot.cli", "console", "--db", str(db), "--lang", lang],
            input="/fort status\n", capture_output=True, text=True, timeout=120, env=environment, check=False,
        )  # fmt: skip
        assert done.returncode == 2
        reason = t("storage.folder_read_only", lang, folder=str(locked), file=str(db))
        assert said(done) == t("console.db_error", lang, db=f"sqlite+aiosqlite:///{db}", error=reason)


def test_a_file_held_by_another_program_is_told_within_2_s_and_the_command_goes_through_after(
    tmp_path: Path,
) -> None:
    db = tmp_path / "held.db"
    assert run("console", "--db", str(db), cwd=tmp_path, stdin="/fort start rounds:3\n").returncode == 0
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program's write transaction, open
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("TORIDE_DATABASE_URL", None)
    process = subprocess.Popen(
        [*toride(), "console", "--db", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=environment, cwd=tmp_path,
    )  # fmt: skip
    seen: list[tuple[float, str, str]] = []

    def read(stream: str) -> None:
        pipe = getattr(process, stream)
        for line in pipe:
            seen.append((time.monotonic(), stream, line.rstrip("\n")))

    readers = [threading.Thread(target=read, args=(s,), daemon=True) for s in ("stdout", "stderr")]
    for reader in readers:
        reader.start()
    released = 0.0
    try:
        assert process.stdin is not None
        # a read first (WAL: never held up): its answer says the console is up and running commands
        process.stdin.write("/fort status\n/pc add name:B\n")
        process.stdin.close()
        deadline = time.monotonic() + 60
        while not any(stream == "stderr" for _, stream, _ in seen) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # held a while longer: the command keeps trying meanwhile
        released = time.monotonic()
        holder.execute("COMMIT")
        assert process.wait(timeout=60) == 0
    finally:
        holder.close()
        if process.poll() is None:
            process.kill()
        for reader in readers:
            reader.join(timeout=10)
    status_at = next(at for at, stream, line in seen if stream == "stdout" and line.startswith("【"))
    told = [(at, line) for at, stream, line in seen if stream == "stderr"]
    assert [line for _, line in told] == [t("storage.held", "ja")], seen
    assert told[0][0] - status_at < 2.0, seen
    added = next(at for at, stream, line in seen if stream == "stdout" and "PC Bが参加しました" in line)
    assert added >= released, seen  # it kept trying, and went through once the file was let go
    assert "Traceback" not in "".join(line for _, _, line in seen)


async def test_a_co_gm_stored_under_a_console_name_is_escaped_in_the_gm_only_refusal(
    harness: Harness, storage: Storage
) -> None:
    await harness.run(GM, "fort start", rounds=3)
    head, _ = await storage.latest(str(GUILD_ID), str(CHANNEL_ID))
    assert head is not None
    typed = "<@&123456789012345678> **太字** @everyone"  # a name as a console user may type it

    async def add(transaction: object) -> bool:
        return await transaction.add_co_gm(head.id, typed, "console-gm")  # type: ignore[attr-defined]

    assert await storage.run(add, channel=(str(GUILD_ID), str(CHANNEL_ID)))
    result = await harness.run(BOB, "fort next")
    (embed,) = result.embeds
    gms = f"<@{GM.id}>、{md(typed)}"
    assert embed["description"] == "⚠ " + t("service.gm_only", "ja", command="/砦 次へ", gms=gms)
    assert typed not in embed["description"] and "<@&" not in embed["description"]
