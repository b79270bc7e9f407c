"""Issues 28 and 34: the prep table in a real browser (Debian's chromium through Playwright). A battle
built with the list's buttons and the panel, sheet monsters and the odds, saved, imported in ``toride
console`` and exported again; a refused value; a phone in English; the page under its own CSP. (The board's
clicks and drags: test_prep_board.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from prep_page import open_page, settle

from bot.i18n import t
from bot.rulesets.fort.prep.build import check

# ``toride console`` in this process lives with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import console

ROOT = Path(__file__).resolve().parents[2]
MONSTER = ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "monster.json"
#: on one worker: one chromium for the module (its fixture), not one on each worker
pytestmark = pytest.mark.xdist_group("browser")


def _add(page: Any, kind: str, values: dict[str, str]) -> None:
    """An element added by the list's add button of ``kind`` (its words), its panel's fields filled."""
    page.locator("#adds").get_by_role("button", name=kind, exact=True).click()
    page.wait_for_selector("#panel:not([hidden])")
    for name, value in values.items():
        field = page.locator(f'#panel-fields [data-field="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def _console(db: Path, script: str) -> subprocess.CompletedProcess[str]:
    """``toride console --db DB --strict`` (in this process) with ``script`` on stdin."""
    return console(db, script, "--strict")


def test_a_battle_with_sheet_monsters_copies_and_odds_is_the_battle_the_console_imports(
    browser, prep_server, tmp_path
):
    """F-UNIT-1, F-UNIT-12, F-TRAP-1: every unit type, copies, a commander, traps and a ゆとシートⅡ monster
    of two parts; the picture changes; the odds come; the saved file is what ``/fort import`` takes as it
    is, and an exported file opened again and edited changes only what was edited."""
    file = tmp_path / "north.json"
    page = open_page(browser, prep_server(str(file)), viewport={"width": 1400, "height": 1000})
    page.locator("#list .line").first.click()
    for name, value in (("title", "北の砦"), ("rounds", "4"), ("max_hp", "250")):
        page.fill(f'#panel-fields [data-field="{name}"]', value)
    page.locator('#list .line[data-place="$.cannons[1]"]').click()
    page.locator("#remove").click()
    _add(
        page,
        "PCを加える",
        {"name": "アリス", "position": "inside", "max_hp": "42", "move": "20", "owner": "123"},
    )
    settle(page)
    first_picture = page.get_attribute("#map-picture", "src")
    _add(
        page,
        "ユニットを加える",
        {
            "name": "ゴブリン",
            "type": "normal",
            "area": "A2",
            "max_hp": "30",
            "fort_damage": "10",
            "strike": "2d+3",
            "defense": "2",
        },
    )
    page.fill("#duplicate-count", "2")
    page.locator("#duplicate").click()
    _add(
        page,
        "ユニットを加える",
        {"name": "破城槌", "type": "ram", "area": "A1", "max_hp": "60", "strike": "2d+10", "move": "10"},
    )
    _add(
        page,
        "ユニットを加える",
        {
            "name": "ハーピー",
            "type": "flying",
            "area": "B2",
            "max_hp": "25",
            "fort_damage": "5",
            "move": "20",
            "weakness": "炎属性ダメージ+3",
        },
    )
    _add(page, "ユニットを加える", {"name": "守備隊", "type": "soldier", "area": "F0", "max_hp": "40"})
    page.select_option('#panel-fields [data-field="position"]', "outside")
    _add(
        page,
        "ユニットを加える",
        {
            "name": "増援オーク",
            "type": "normal",
            "area": "B2",
            "max_hp": "50",
            "fort_damage": "15",
            "arrive_round": "2",
        },
    )
    _add(page, "指揮官を加える", {"name": "隊長", "max_hp": "40", "area": "A2", "horn": "敵全体の命中+1"})
    _add(page, "罠を加える", {"kind": "barricade", "edge": "A1-F0", "uses": "2"})
    _add(page, "罠を加える", {"kind": "mine", "edge": "A2-A1", "uses": "1"})
    page.locator("#sheet > summary").click()
    page.set_input_files("#sheet-file", str(MONSTER))
    page.select_option("#sheet-type", "normal")
    page.select_option("#sheet-area", "B2")
    page.fill("#sheet-fort_damage", "12")
    page.get_by_role("button", name="シートから加える").click()
    page.wait_for_function(
        "document.getElementById('status').textContent === 'シートからユニットを加えました。'"
    )
    settle(page)
    assert page.is_hidden("#problems"), page.inner_text("#problems")
    assert page.get_attribute("#map-picture", "src") != first_picture
    # the list as the map orders it: areas A2, A1, B1, B2, then F0, arrivals, traps, cannons
    assert page.locator("#list .line .title").all_inner_texts() == [
        "戦闘の設定",
        "隊長",
        "ゴブリン",
        "ゴブリン2",
        "ゴブリン3",
        "破城槌",
        "ハーピー",
        "グリフォン(頭部)",
        "グリフォン(胴体)",
        "アリス",
        "守備隊",
        "増援オーク",
        "地雷 A2-A1",
        "バリケード A1-F0",
        "大砲1",
    ]

    page.locator("#odds > summary").click()
    page.fill("#odds-runs", "200")
    page.fill("#odds-pc_damage", "2d+8")
    page.fill("#odds-seed", "7")
    page.get_by_role("button", name="見込みを計算する").click()
    page.wait_for_selector("#odds-chart:not([hidden])", timeout=60000)
    assert "北の砦" in page.inner_text("#odds-text")
    page.locator("#save").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('保存しました')")
    with page.expect_download() as download:
        page.get_by_role("button", name="ダウンロードして保存").click()
    downloaded = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert download.value.suggested_filename == "north.json"
    saved = json.loads(file.read_text(encoding="utf-8"))
    assert saved == downloaded
    assert page.errors == []
    base = prep_url_of(page)
    assert [u for u in page.requests if not u.startswith((base + "/", "data:", "blob:"))] == []

    run = _console(tmp_path / "t.db", f"/fort import file:{file.name}\n/fort export file:again.json\n")
    assert run.returncode == 0, run.stdout + run.stderr
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert again == saved
    assert (again["title"], again["rounds"], again["fort"]["max_hp"], len(again["cannons"])) == (
        "北の砦",
        4,
        250,
        1,
    )
    assert [(p["name"], p["position"], p["max_hp"], p["move"], p["owner"]) for p in again["pcs"]] == [
        ("アリス", "inside", 42, 20, "123")
    ]
    units = {u["name"]: u for u in again["units"]}
    assert {n: (u["type"], u["area"], u["hp"], u["fort_damage"]) for n, u in units.items()} == {
        "ゴブリン": ("normal", "A2", 30, 10),
        "ゴブリン2": ("normal", "A2", 30, 10),
        "ゴブリン3": ("normal", "A2", 30, 10),
        "破城槌": ("ram", "A1", 60, 0),
        "ハーピー": ("flying", "B2", 25, 5),
        "守備隊": ("soldier", "F0", 40, 0),
        "増援オーク": ("normal", "B2", 50, 15),
        "グリフォン(頭部)": ("normal", "B2", 48, 12),
        "グリフォン(胴体)": ("normal", "B2", 62, 12),
    }
    assert (units["ゴブリン"]["strike"], units["ゴブリン"]["defense"]) == ("2D+3", 2)
    assert units["ハーピー"]["weakness"] == "炎属性ダメージ+3" and units["ハーピー"]["move"] == 20
    assert units["守備隊"]["position"] == "outside" and units["増援オーク"]["arrive_round"] == 2
    assert (units["グリフォン(頭部)"]["strike"], units["グリフォン(頭部)"]["defense"]) == ("2D+9", 7)
    assert again["commanders"] == [
        {"name": "隊長", "area": "A2", "hp": 40, "max_hp": 40, "horn": "敵全体の命中+1"}
    ]
    assert again["traps"] == [
        {"kind": "barricade", "edge": "A1-F0", "uses": 2},
        {"kind": "mine", "edge": "A2-A1", "uses": 1},
    ]

    # the console's export opened from the computer, edited: saved as a download of its own name, and
    # only what was edited changes; FILE is not written
    page.set_input_files("#open-file", str(tmp_path / "again.json"))
    page.wait_for_function("document.getElementById('file-name').textContent.includes('again.json')")
    page.locator('#list .line[data-place="$.units[3]"]').click()
    assert page.input_value('#panel-fields [data-field="name"]') == "破城槌"
    page.fill('#panel-fields [data-field="max_hp"]', "70")
    settle(page)
    with page.expect_download() as download:
        page.locator("#save").click()
    assert download.value.suggested_filename == "again.json"
    edited = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert edited["units"][3] == {**again["units"][3], "hp": 70, "max_hp": 70}
    edited["units"][3] = again["units"][3]
    assert edited == again
    assert json.loads(file.read_text(encoding="utf-8")) == saved


def prep_url_of(page: Any) -> str:
    return page.url.rstrip("/")


def test_a_refused_value_shows_its_words_beside_its_field_and_nothing_is_saved(
    browser, prep_server, tmp_path
):
    """A value beyond its field and one the rules refuse (F-UNIT-1: a ram needs its strike), each with its
    sentence beside its field; a save shows them and writes nothing. A move of 15 m is taken as 10 m, as
    ``/unit add`` takes it, and said beside its field (COMMANDS.md's Conventions); that refuses nothing."""
    file = tmp_path / "battle.json"
    page = open_page(browser, prep_server(str(file)))
    _add(
        page,
        "ユニットを加える",
        {
            "name": "ゴブリン",
            "type": "normal",
            "area": "A2",
            "max_hp": "0",
            "fort_damage": "10",
            "move": "15",
        },
    )
    settle(page)
    hp = page.locator('#panel .refusal[data-place="$.units[0].max_hp"]')
    assert hp.text_content() == "最大HPを1〜100000で入れてください。"
    assert page.get_attribute('#panel-fields [data-field="max_hp"]', "aria-invalid") == "true"
    page.locator("#save").click()
    page.wait_for_function(
        "document.getElementById('status').textContent === '示したところを直すまで保存できません。'"
    )
    assert not file.exists()
    page.fill('#panel-fields [data-field="max_hp"]', "30")
    settle(page)
    move = page.locator('#panel .refusal[data-place="$.units[0].move"]')
    assert move.text_content() == t("unit.move_rounded", "ja", unit="ゴブリン", given=15, move=10)
    assert hp.text_content() == "" and page.is_hidden("#problems")
    page.select_option('#panel-fields [data-field="type"]', "ram")
    settle(page)
    draft = {
        "settings": {"rounds": "3"},
        "units": [{"form": {"name": "ゴブリン", "type": "ram", "area": "A2", "max_hp": "30", "move": "15"}}],
    }
    words = check(draft, "ja").refusals[0].text
    strike = page.locator('#panel .refusal[data-place="$.units[0].strike"]')
    assert "打撃点" in words and strike.text_content() == words
    assert page.inner_text("#problem-count") == "直すところが1か所あります。"
    answer = page.evaluate(
        """async (draft) => {
        const token = document.querySelector('meta[name="toride-token"]').content;
        const headers = {"Content-Type": "application/json", "X-Toride-Token": token};
        const response = await fetch("/api/save", {method: "POST", headers, body: JSON.stringify({draft})});
        return response.json();
    }""",
        draft,
    )
    assert answer["document"] is None
    assert answer["refusals"] == [{"place": "$.units[0].strike", "text": words}]
    assert not file.exists()


def test_at_phone_width_by_keyboard_in_english(browser, prep_server, tmp_path):
    """Readable at a phone's width (nothing wider than the screen), every control labelled, and a unit
    added and named with the keyboard alone; in English with --lang en."""
    page = open_page(
        browser,
        prep_server("--lang", "en"),
        viewport={"width": 375, "height": 740},
        is_mobile=True,
        has_touch=True,
    )
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator("#adds").get_by_role("button", name="Add a unit").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.field") == "name"
    page.keyboard.type("Goblins")
    for name, value in (("max_hp", "30"), ("fort_damage", "10")):
        page.focus(f'#panel-fields [data-field="{name}"]')
        page.keyboard.type(value)
    settle(page)
    assert page.is_hidden("#problems")
    page.wait_for_selector("#map-picture:not([hidden])")
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select')]
        .filter(e => e.type !== 'file')
        .filter(e => e.labels.length === 0 || !e.labels[0].textContent.trim()).map(e => e.id)""")
    assert unlabelled == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    box = page.locator("#map-picture").bounding_box()
    assert box is not None and box["width"] <= 375
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith('"Noto Sans CJK JP"')
    assert page.evaluate("document.fonts.check('16px \"Noto Sans CJK JP\"', '砦')")
    assert page.errors == []


def test_the_page_runs_under_its_csp(browser, prep_server, tmp_path):
    """Issue 34, item 0: the page loads, reads its token and has its draft checked under its own
    Content-Security-Policy, with no violation reported."""
    url = prep_server(str(tmp_path / "battle.json"))
    page = browser.new_context().new_page()
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-checked]", state="attached")
    page.wait_for_selector("#map-picture:not([hidden])", state="attached", timeout=20000)
    assert errors == []
    assert [m for m in messages if "Content Security Policy" in m] == []
