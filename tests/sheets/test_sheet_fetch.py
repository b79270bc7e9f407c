"""Fetching a sheet by URL (bot/sheet_fetch.py) against a local HTTPS server: the sheet read, and every
refusal (host not allowed, a redirect to another host, too large, too slow, not JSON, not https, an
internal address) answered clearly with nothing changed in the battle."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sheet_server import SheetServer, sheet_server

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.sheet_fetch import FetchPolicy, SheetFetchError, fetch_sheet, json_url
from bot.storage.interface import Storage
from engine.dice import ScriptedDice


@pytest.fixture
async def server() -> AsyncIterator[SheetServer]:
    async with sheet_server() as running:
        yield running


async def session_with_a_pc(storage: Storage, server: SheetServer, tmp_path: Path) -> ConsoleSession:
    session = ConsoleSession(
        BattleService(storage, ScriptedDice([])), lang="en", base_dir=tmp_path, fetch_policy=server.policy
    )
    for line in ("/fort start rounds:3", "/pc add name:ガルド"):
        reply = await session.handle(line)
        assert reply is not None and reply.ok, reply
    return session


async def document(session: ConsoleSession) -> dict[str, object]:
    reply = await session.handle("/fort export")
    assert reply is not None and reply.ok
    exported: dict[str, object] = json.loads(reply.text)
    return exported


async def test_a_sheet_read_by_url(storage: Storage, server: SheetServer, tmp_path: Path) -> None:
    session = await session_with_a_pc(storage, server, tmp_path)
    # the sheet's page address: fetched as its JSON output
    url = server.url("/ytsheet/sw2.5/?id=fighter")
    reply = await session.handle(f"/pc sheet name:ガルド sheet:{url}")
    assert reply is not None and reply.ok, reply.text
    assert reply.text.startswith("ガルド's sheet read: HP 35/35, MP 12/12, defence 8, evasion 7,")
    assert server.requests == ["/ytsheet/sw2.5/?id=fighter&mode=json"]
    pc = (await document(session))["pcs"][0]  # type: ignore[index]
    assert (pc["hp"], pc["max_hp"], pc["move"], pc["sheet"]["source"]) == (35, 35, 15, url)


async def test_a_redirect_within_the_allowed_host_is_followed(server: SheetServer) -> None:
    got = await fetch_sheet(server.url("/inside"), server.policy)
    assert json.loads(got.text)["characterName"] == "ガルド"
    assert server.requests == ["/inside", "/sheet/fighter"]


@pytest.mark.parametrize(
    ("path", "host", "key", "values"),
    [
        (
            "/sheet/fighter",
            "127.0.0.1",
            "sheet.host_not_allowed",
            {"host": "127.0.0.1", "hosts": "localhost"},
        ),
        ("/elsewhere", "localhost", "sheet.redirect_refused", {"host": "127.0.0.1", "hosts": "localhost"}),
        ("/large", "localhost", "sheet.too_large", {"max": 1000}),
        ("/streamed", "localhost", "sheet.too_large", {"max": 1000}),
        ("/slow", "localhost", "sheet.fetch_timeout", {"seconds": 0.5}),
        ("/page", "localhost", "sheet.fetch_not_json", {}),
        ("/missing", "localhost", "sheet.fetch_status", {"host": "localhost", "status": 404}),
    ],
)
async def test_refusals_change_nothing(
    storage: Storage,
    server: SheetServer,
    tmp_path: Path,
    path: str,
    host: str,
    key: str,
    values: dict[str, object],
) -> None:
    with pytest.raises(SheetFetchError) as caught:
        await fetch_sheet(server.url(path, host), server.policy)
    assert (caught.value.key, caught.value.values) == (key, values)
    session = await session_with_a_pc(storage, server, tmp_path)
    before = await document(session)
    reply = await session.handle(f"/pc sheet name:ガルド sheet:{server.url(path, host)}")
    assert reply is not None and not reply.ok and reply.text.startswith("⚠ ")
    assert await document(session) == before


async def test_the_messages_say_what_is_allowed(
    storage: Storage, server: SheetServer, tmp_path: Path
) -> None:
    session = await session_with_a_pc(storage, server, tmp_path)
    answers = []
    for path, host in (("/sheet/fighter", "127.0.0.1"), ("/elsewhere", "localhost"), ("/large", "localhost"),
                       ("/slow", "localhost"), ("/page", "localhost")):  # fmt: skip
        reply = await session.handle(f"/pc sheet name:ガルド sheet:{server.url(path, host)}")
        assert reply is not None
        answers.append(reply.text)
    assert answers == [
        "⚠ Sheets from 127.0.0.1 are not read. Sites read: localhost",
        "⚠ The sheet's URL redirected to another site, 127.0.0.1, so it was not read. Sites read: localhost",
        "⚠ The sheet is too large (at most 1000 KB).",
        "⚠ The sheet's site did not answer within 0.5 seconds. Try again later.",
        "⚠ The URL does not hold a JSON sheet. Give the URL of a ゆとシートⅡ sheet (?id=…).",
    ]


async def test_only_https_and_no_internal_addresses(server: SheetServer) -> None:
    with pytest.raises(SheetFetchError) as caught:
        await fetch_sheet(f"http://localhost:{server.port}/sheet/fighter", server.policy)
    assert caught.value.key == "sheet.url_not_https"
    # without the test's allowance, localhost is a loopback address: refused before any connection
    strict = FetchPolicy(hosts=frozenset({"localhost"}), ssl=server.policy.ssl)
    with pytest.raises(SheetFetchError) as caught:
        await fetch_sheet(server.url("/sheet/fighter"), strict)
    assert (caught.value.key, caught.value.values) == ("sheet.address_not_allowed", {"host": "localhost"})
    # the system's certificate authorities do not know the test's: verification refuses the server
    system = FetchPolicy(hosts=frozenset({"localhost"}), allow_private=True)
    with pytest.raises(SheetFetchError) as caught:
        await fetch_sheet(server.url("/sheet/fighter"), system)
    assert caught.value.key == "sheet.fetch_failed"
    assert server.requests == []


async def test_a_slow_site_keeps_no_other_channel_waiting(storage: Storage, tmp_path: Path) -> None:
    async with sheet_server(slow=1.0, timeout=3.0) as server:
        service = BattleService(storage, ScriptedDice([]))
        here = ConsoleSession(service, channel="a", lang="en", fetch_policy=server.policy)
        there = ConsoleSession(service, channel="b", lang="en", fetch_policy=server.policy)
        for session in (here, there):
            await session.handle("/fort start rounds:2")
        await here.handle("/pc add name:ガルド")
        slow = asyncio.create_task(here.handle(f"/pc sheet name:ガルド sheet:{server.url('/slow')}"))
        await asyncio.sleep(0.2)
        other = await asyncio.wait_for(there.handle("/fort status"), timeout=0.7)
        assert other is not None and other.ok and not slow.done()
        reply = await slow
        assert reply is not None and reply.ok, reply.text


def test_hosts_from_the_environment_and_ytsheet_urls() -> None:
    assert FetchPolicy.from_env({}).hosts == frozenset({"yutorize.2-d.jp"})
    assert FetchPolicy.from_env({"TORIDE_SHEET_HOSTS": " Example.org, ytsheet.example "}).hosts == frozenset(
        {"example.org", "ytsheet.example"}
    )
    assert json_url("https://yutorize.2-d.jp/ytsheet/sw2.5/?id=abc") == (
        "https://yutorize.2-d.jp/ytsheet/sw2.5/?id=abc&mode=json"
    )
    assert json_url("https://yutorize.2-d.jp/ytsheet/sw2.5/?mode=palette&id=abc#top") == (
        "https://yutorize.2-d.jp/ytsheet/sw2.5/?id=abc&mode=json"
    )
    assert json_url("https://example.org/sheet.json") == "https://example.org/sheet.json"
