"""Issue 34, item 1: a save writes the file that is open, and only over the version the page opened;
another tab's save or another program's change is named, and replaced only when the page asks."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.prep.app import Prep, serve
from bot.registry import rulesets


@contextlib.asynccontextmanager
async def _served(file: Path | None) -> AsyncIterator[tuple[str, aiohttp.ClientSession]]:
    prep = Prep(rulesets().get("fort"), "ja", file)
    runner = await serve(prep, 0)
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    headers = {"X-Toride-Token": prep.guard.token, "Origin": url, "Content-Type": "application/json"}
    try:
        async with aiohttp.ClientSession(headers=headers) as session:
            yield url, session
    finally:
        await prep.close()
        await runner.cleanup()


async def _start(url: str, session: aiohttp.ClientSession) -> dict[str, Any]:
    async with session.get(f"{url}/api/start") as response:
        assert response.status == 200
        return await response.json()


async def _save(url: str, session: aiohttp.ClientSession, **asked: Any) -> tuple[int, dict[str, Any]]:
    async with session.post(f"{url}/api/save", data=json.dumps(asked)) as response:
        return response.status, await response.json()


def _with(draft: dict[str, Any], **settings: str) -> dict[str, Any]:
    return {**draft, "settings": {**draft["settings"], **settings}}


@pytest.fixture
def battle(tmp_path: Path) -> Path:
    """A prepared battle of 3 rounds (as ``/fort export`` writes one) with one unit."""
    file = tmp_path / "north.json"
    document = {
        "format": "toride.fort/1",
        "title": "北の砦",
        "rounds": 3,
        "fort": {"hp": 300, "max_hp": 300},
        "units": [
            {"name": "ゴブリン", "type": "normal", "area": "A2", "hp": 30, "max_hp": 30, "fort_damage": 10}
        ],
    }
    file.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return file


async def test_the_second_tab_saving_a_stale_version_is_refused_with_the_first_tabs_change(battle):
    async with _served(battle) as (url, session):
        one, two = await _start(url, session), await _start(url, session)
        assert one["file"] == {"name": "north.json", "path": str(battle)}
        assert one["version"] == two["version"] is not None
        status, saved = await _save(
            url, session, draft=_with(one["draft"], rounds="5"), version=one["version"]
        )
        assert status == 200, saved
        assert saved["written"] == "north.jsonに保存しました。"
        assert (
            saved["next"] == "Discordで /砦 読み込み の「ファイル」にこのファイルを添付すると戦闘になります。"
        )
        assert json.loads(battle.read_text(encoding="utf-8"))["rounds"] == 5
        status, refused = await _save(
            url, session, draft=_with(two["draft"], title="南の砦"), version=two["version"]
        )
        assert status == 409
        text = refused["stale"]["text"]
        assert re.fullmatch(
            r"north\.jsonは、別のタブが\d\d:\d\d:\d\dに保存しています。変わったところ: ラウンド数 3→5。", text
        ), text
        assert refused["stale"]["question"].startswith("このページの内容でnorth.jsonを置き換えますか")
        document = json.loads(battle.read_text(encoding="utf-8"))
        assert (document["rounds"], document["title"]) == (5, "北の砦")  # nothing written
        status, replaced = await _save(
            url,
            session,
            draft=_with(two["draft"], title="南の砦"),
            version=two["version"],
            replace=refused["stale"]["replace"],
        )
        assert status == 200, replaced
        document = json.loads(battle.read_text(encoding="utf-8"))
        assert (document["rounds"], document["title"]) == (3, "南の砦")
        # the first tab's version is now the stale one
        status, again = await _save(url, session, draft=one["draft"], version=saved["version"])
        assert status == 409
        assert "タイトル「北の砦」→「南の砦」" in again["stale"]["text"]
        assert "ラウンド数 5→3" in again["stale"]["text"]


async def test_a_file_changed_on_disk_since_it_was_opened_is_not_replaced_without_asking(battle):
    async with _served(battle) as (url, session):
        opened = await _start(url, session)
        document = json.loads(battle.read_text(encoding="utf-8"))
        document["units"].append({**document["units"][0], "name": "オーガ"})
        battle.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        status, refused = await _save(url, session, draft=opened["draft"], version=opened["version"])
        assert status == 409
        assert refused["stale"]["text"] == (
            "north.jsonは、開いたあとでほかのプログラムに書き換えられています。"
            "変わったところ: オーガを加えた。"
        )
        assert len(json.loads(battle.read_text(encoding="utf-8"))["units"]) == 2
        # a replace naming another version than the one on disk is no answer
        status, _ = await _save(
            url, session, draft=opened["draft"], version=opened["version"], replace="0" * 64
        )
        assert status == 409
        status, _ = await _save(
            url,
            session,
            draft=opened["draft"],
            version=opened["version"],
            replace=refused["stale"]["replace"],
        )
        assert status == 200
        assert [u["name"] for u in json.loads(battle.read_text(encoding="utf-8"))["units"]] == ["ゴブリン"]


async def test_a_file_removed_since_it_was_opened_is_named_and_written_only_when_asked(battle):
    async with _served(battle) as (url, session):
        opened = await _start(url, session)
        battle.unlink()
        status, refused = await _save(url, session, draft=opened["draft"], version=opened["version"])
        assert (status, refused["stale"]["text"]) == (409, "north.jsonは、開いたあとで消されています。")
        assert not battle.exists()
        # an old page that sends no replace (null) does not stand for "the file is gone"
        status, _ = await _save(url, session, draft=opened["draft"], version=opened["version"], replace=None)
        assert status == 409 and not battle.exists()
        status, _ = await _save(
            url,
            session,
            draft=opened["draft"],
            version=opened["version"],
            replace=refused["stale"]["replace"],
        )
        assert status == 200 and battle.exists()


async def test_a_new_file_is_written_by_its_first_save_and_a_page_without_file_writes_nothing(tmp_path):
    file = tmp_path / "new.json"
    async with _served(file) as (url, session):
        opened = await _start(url, session)
        assert opened["version"] is None
        draft = _with(opened["draft"], title="東の砦")
        status, saved = await _save(url, session, draft=draft, version=None)
        assert status == 200 and json.loads(file.read_text(encoding="utf-8"))["title"] == "東の砦"
    async with _served(None) as (url, session):
        opened = await _start(url, session)
        assert opened["file"] is None
        status, saved = await _save(url, session, draft=_with(opened["draft"], title="西の砦"))
        assert status == 200 and saved["document"]["title"] == "西の砦" and "written" not in saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json"]
