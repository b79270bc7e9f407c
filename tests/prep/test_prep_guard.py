"""Issue 34, item 0: only the prep page may talk to its server, and a save writes FILE whole or not at all."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import aiohttp
import pytest
from test_prep_server import DRAFT, _served

from bot.i18n import t
from bot.prep.app import Prep
from bot.prep.files import write_atomic
from bot.prep.guard import SECURITY_HEADERS
from bot.registry import rulesets

ROUTES = [
    ("get", "/"), ("get", "/static/prep.js"), ("get", "/font.otf"), ("get", "/mark/ram.png"),
    ("get", "/api/start"), ("post", "/api/check"), ("post", "/api/open"), ("post", "/api/sheet"),
    ("post", "/api/odds"), ("post", "/api/save"),
]  # fmt: skip


def _refusal(key: str) -> list[dict[str, str]]:
    return [{"place": "$", "text": t(key, "ja")}]


@pytest.fixture
async def served(tmp_path: Path):
    async with _served(Prep(rulesets().get("fort"), "ja", tmp_path / "battle.json")) as (url, prep, _):
        yield url, prep


def _own(url: str, prep: Prep) -> dict[str, str]:
    return {"X-Toride-Token": prep.guard.token, "Origin": url, "Content-Type": "application/json"}


async def test_a_foreign_host_is_refused_on_every_route(served):
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: 421 on every route, the token or not."""
    url, prep = served
    port = prep.guard.port
    async with aiohttp.ClientSession() as session:
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}", ""):
            for method, path in ROUTES:
                headers = {**_own(url, prep), "Host": host}
                async with session.request(method, url + path, headers=headers, data=b"{}") as response:
                    assert response.status == 421, (host, path)
                    assert (await response.json())["refusals"] == _refusal("prep.guard.host")
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            async with session.get(url + "/", headers={"Host": host}) as response:
                assert response.status == 200


async def test_a_post_not_from_the_page_is_refused_and_writes_nothing(served):
    """A cross-site form (text/plain, another Origin), a request without the token or the page's Origin:
    refused before anything is read, and FILE is not written."""
    url, prep = served
    body = json.dumps({"draft": DRAFT})
    cases = [
        ({"Origin": "https://evil.example", "Content-Type": "text/plain"}, 403, "prep.guard.token"),
        ({**_own(url, prep), "X-Toride-Token": "x" + prep.guard.token}, 403, "prep.guard.token"),
        ({k: v for k, v in _own(url, prep).items() if k != "X-Toride-Token"}, 403, "prep.guard.token"),
        ({**_own(url, prep), "Origin": "https://evil.example"}, 403, "prep.guard.origin"),
        ({**_own(url, prep), "Origin": "null"}, 403, "prep.guard.origin"),
        ({k: v for k, v in _own(url, prep).items() if k != "Origin"}, 403, "prep.guard.origin"),
        ({**_own(url, prep), "Content-Type": "text/plain"}, 415, "prep.guard.json"),
        ({**_own(url, prep), "Content-Type": "application/x-www-form-urlencoded"}, 415, "prep.guard.json"),
    ]
    async with aiohttp.ClientSession() as session:
        for headers, status, key in cases:
            for _ in range(10):
                async with session.post(url + "/api/save", headers=headers, data=body) as response:
                    assert response.status == status, headers
                    assert (await response.json())["refusals"] == _refusal(key)
            assert not prep.file.exists()
        async with session.get(url + "/api/start") as response:  # the battle and its path: token only
            assert response.status == 403
        async with session.post(url + "/api/save", headers=_own(url, prep), data=body) as response:
            assert response.status == 200 and "written" in await response.json()
        assert json.loads(prep.file.read_text(encoding="utf-8"))["units"][0]["name"] == "ゴブリン"


async def test_the_page_carries_its_token_and_every_answer_the_headers(served):
    url, prep = served
    async with aiohttp.ClientSession() as session:
        async with session.get(url + "/") as response:
            page = await response.text()
            assert f'<meta name="toride-token" content="{prep.guard.token}">' in page
        for method, path in [*ROUTES, ("get", "/nowhere"), ("post", "/api/save")]:
            headers = _own(url, prep) if path != "/nowhere" else {}
            async with session.request(method, url + path, headers=headers, data=b"{}") as response:
                for name, value in SECURITY_HEADERS.items():
                    assert response.headers.get(name) == value, (path, name)
                assert "Server" not in response.headers
        async with session.get(url + "/api/start", headers={"Host": "evil.example"}) as response:
            assert response.headers["X-Frame-Options"] == "DENY" and "Server" not in response.headers


def test_each_start_has_its_own_token():
    fort = rulesets().get("fort")
    tokens = {Prep(fort, "ja", None).guard.token for _ in range(20)}
    assert len(tokens) == 20 and all(len(token) >= 40 for token in tokens)


# --- FILE written whole or not at all -------------------------------------------------------------

_SAVER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from bot.prep.files import write_atomic
    path, size = Path(sys.argv[1]), int(sys.argv[2])
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        write_atomic(path, ('{"n": %d, "pad": "' % n) + "x" * size + '"}\\n')
    """
)


def test_a_save_killed_at_any_moment_leaves_a_whole_file(tmp_path: Path):
    """SIGKILL during saves, 40 times: FILE is always one whole document, the old one or a new one."""
    import random
    import time

    path = tmp_path / "battle.json"
    write_atomic(path, '{"n": 0, "pad": ""}\n')
    chance = random.Random(34)
    for _ in range(40):
        saver = subprocess.Popen(
            [sys.executable, "-c", _SAVER, str(path), str(200_000)], stdout=subprocess.PIPE, text=True
        )
        assert saver.stdout is not None and saver.stdout.readline() == "ready\n"
        time.sleep(chance.uniform(0.0, 0.05))
        saver.send_signal(signal.SIGKILL)
        saver.wait()
        document = json.loads(path.read_text(encoding="utf-8"))
        assert set(document) == {"n", "pad"} and len(document["pad"]) in {0, 200_000}
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "battle.json"]
    assert all(name.startswith(".battle.json.") and name.endswith(".saving") for name in leftovers)


def test_a_save_that_cannot_be_written_leaves_the_old_file(tmp_path: Path, monkeypatch):
    """A full disk (the write raises ENOSPC): the old file as it was, no temporary file left."""
    import errno

    path = tmp_path / "battle.json"
    write_atomic(path, "old\n")
    os.chmod(path, 0o640)
    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        write_atomic(path, "new\n" * 1000)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]
    write_atomic(path, "new\n")
    assert path.read_text() == "new\n" and (path.stat().st_mode & 0o777) == 0o640


async def test_the_page_says_a_full_disk_in_words_and_keeps_the_file(served, monkeypatch):
    import errno

    url, prep = served
    prep.file.write_text("old\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    # the page edits the version it opened ("old\n": not a battle, so a new one)
    body = json.dumps({"draft": DRAFT, "version": hashlib.sha256(b"old\n").hexdigest()})
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "/api/save", headers=_own(url, prep), data=body) as response,
    ):
        answer = await response.json()
    assert answer["document"] is None and str(prep.file) in answer["refusals"][0]["text"]
    assert prep.file.read_text(encoding="utf-8") == "old\n"
