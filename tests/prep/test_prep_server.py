"""Issue 28: the prep table's server: 127.0.0.1 only, bodies within the import limit, no file but FILE."""

from __future__ import annotations

import contextlib
import json
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.prep.app import Prep, serve
from bot.registry import rulesets
from bot.render.common import refusal_text
from engine.limits import IMPORT_MAX_BYTES

ROOT = Path(__file__).resolve().parents[2]
MONSTER = ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "monster.json"
DRAFT = {
    "settings": {"title": "砦", "rounds": "3", "max_hp": "300", "first": "pc"},
    "units": [
        {"form": {"name": "ゴブリン", "type": "normal", "area": "A2", "max_hp": "30", "fort_damage": "10"}}
    ],
}


@contextlib.asynccontextmanager
async def _served(prep: Prep) -> AsyncIterator[tuple[str, Prep, Any]]:
    runner = await serve(prep, 0)
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}", prep, runner
    finally:
        await prep.close()
        await runner.cleanup()


def _page(url: str, prep: Prep) -> aiohttp.ClientSession:
    """A client that sends what the page sends: its token, its Origin and JSON (``bot.prep.guard``)."""
    headers = {"X-Toride-Token": prep.guard.token, "Origin": url, "Content-Type": "application/json"}
    return aiohttp.ClientSession(headers=headers)


@pytest.fixture
async def prep_at(tmp_path: Path) -> AsyncIterator[tuple[str, Prep, Any]]:
    async with _served(Prep(rulesets().get("fort"), "ja", tmp_path / "battle.json")) as served:
        yield served


async def test_it_listens_on_127_0_0_1_only(prep_at):
    _, _, runner = prep_at
    assert {address[0] for address in runner.addresses} == {"127.0.0.1"}
    port = runner.addresses[0][1]
    others = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    for address in others - {"127.0.0.1"}:
        if address.startswith("127."):
            continue
        with pytest.raises(OSError), socket.create_connection((address, port), timeout=2):
            pass


async def test_a_body_over_the_import_limit_is_refused_in_the_bots_words(prep_at):
    url, prep, _ = prep_at
    words = refusal_text("command.json_too_large", {"option": "file", "max": IMPORT_MAX_BYTES // 1000}, "ja")
    async with _page(url, prep) as session:
        for path in ("/api/check", "/api/open", "/api/save", "/api/sheet", "/api/odds"):
            async with session.post(url + path, data=b" " * (IMPORT_MAX_BYTES + 1)) as response:
                assert response.status == 413
                assert (await response.json())["refusals"] == [{"place": "$", "text": words}]
        body = json.dumps(DRAFT).encode().ljust(IMPORT_MAX_BYTES, b" ")  # at the limit: read
        async with session.post(url + "/api/check", data=body) as response:
            assert response.status == 200
            assert (await response.json())["refusals"] == []


async def test_it_reads_and_writes_no_file_but_file(prep_at, tmp_path):
    """Every request of the page answered: files opened are FILE and the project's and Python's own
    (code, catalogues, the page, the font); the only file written is FILE."""
    url, prep, _ = prep_at
    SHEET = {
        "text": MONSTER.read_text(encoding="utf-8"),
        "form": {"type": "normal", "area": "A2", "fort_damage": "5"},
        "draft": DRAFT,
    }
    opened: list[tuple[str, str]] = []
    watching = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and watching[0] and isinstance(args[0], str | Path):
            opened.append((str(args[0]), str(args[1] or "r")))

    sys.addaudithook(hook)
    try:
        async with _page(url, prep) as session:
            for method, path, body in (
                ("get", "/", None), ("get", "/static/prep.js", None), ("get", "/static/prep.css", None),
                ("get", "/font.otf", None), ("get", "/mark/ram.png", None), ("get", "/api/start", None),
                ("post", "/api/check", json.dumps(DRAFT)),
                ("post", "/api/sheet", json.dumps(SHEET)),
                ("post", "/api/save", json.dumps({"draft": DRAFT})),
                ("post", "/api/open", prep.file.read_bytes() if prep.file.exists() else b"{}"),
                ("get", "/api/start", None),
                ("get", "/static/../../cli.py", None),
            ):  # fmt: skip
                async with session.request(method, url + path, data=body) as response:
                    await response.read()
    finally:
        watching[0] = False
    assert json.loads(prep.file.read_text(encoding="utf-8"))["units"][0]["name"] == "ゴブリン"
    allowed = [Path(p).resolve() for p in (ROOT / "bot", sys.prefix, sys.base_prefix, *sys.path) if p]

    def is_file(path: str) -> bool:  # FILE, the temporary file renamed over it, its folder (fsync)
        if Path(path).resolve() == prep.file.parent.resolve():
            return True
        saving = Path(path).name.startswith(f".{prep.file.name}.") and path.endswith(".saving")
        beside = saving and Path(path).parent == prep.file.parent
        return Path(path).resolve() == prep.file.resolve() or beside

    assert any(path.endswith(".saving") for path, _ in opened)  # saved through a temporary file
    strays = [
        path for path, _ in opened
        if not is_file(path)
        and not any(Path(path).resolve().is_relative_to(a) for a in allowed if a != Path("/").resolve())
    ]  # fmt: skip
    assert strays == []
    written = {Path(path).resolve() for path, mode in opened if set(mode) & set("wax+")}
    assert written <= {prep.file.resolve()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battle.json"]


async def test_a_sheet_url_is_fetched_under_the_bots_policy(prep_at):
    """A URL the bot would not fetch (a host off its allow-list) is refused in the bot's words, unfetched."""
    from bot.sheet_fetch import FetchPolicy

    url, prep, _ = prep_at
    hosts = ", ".join(sorted(FetchPolicy.from_env().hosts))
    words = refusal_text("sheet.host_not_allowed", {"host": "example.com", "hosts": hosts}, "ja")
    asked = {"url": "https://example.com/?id=x", "form": {"type": "normal", "area": "A2"}, "draft": DRAFT}
    async with (
        _page(url, prep) as session,
        session.post(url + "/api/sheet", data=json.dumps(asked)) as response,
    ):
        assert (await response.json())["refusals"] == [{"place": "$.sheet", "text": words}]


async def test_a_new_plan_replaces_the_one_running(tmp_path):
    """The planner runs off the event loop (a check is answered while it runs), and a second request
    cancels the first, which answers ``replaced``. The long plan is held in its worker (``held_plan``)
    until it has been replaced, so it is still running then on any machine."""
    import asyncio
    import functools

    from held_plan import held

    from bot.rulesets.fort.planner.runner import OddsRunner

    runner = OddsRunner()
    started, gate = runner.context.Event(), runner.context.Event()
    runner.target = functools.partial(held, 100000, started, gate)
    long = {"draft": DRAFT, "options": {"runs": "100000", "seed": "1"}}
    short = {"draft": DRAFT, "options": {"runs": "100", "seed": "1"}}
    fort = Prep(rulesets().get("fort"), "ja", tmp_path / "battle.json", runner)
    async with _served(fort) as (url, prep, _):
        try:
            async with _page(url, prep) as session:

                async def ask(body: dict[str, Any]) -> dict[str, Any]:
                    async with session.post(url + "/api/odds", data=json.dumps(body)) as response:
                        answer: dict[str, Any] = await response.json()
                        return answer

                await ask(short)  # the fork server started: the long plan is running when it is replaced
                first = asyncio.ensure_future(ask(long))
                assert await asyncio.to_thread(started.wait, 60)  # its first slice is in its worker
                async with session.post(url + "/api/check", data=json.dumps(DRAFT)) as response:
                    assert (await response.json())["refusals"] == []
                assert not first.done()
                asked = asyncio.ensure_future(ask(short))
                assert (await first) == {"replaced": True}
                gate.set()  # the worker plays the slice it holds (for nobody now), then the short plan
                second = await asked
                assert second["refusals"] == [] and "text" in second
                assert second["chart"].startswith("data:image/png")
        finally:
            gate.set()
            await runner.close()
