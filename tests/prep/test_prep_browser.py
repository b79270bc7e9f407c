"""Issue 28: the prep table in a real browser (Debian's chromium through Playwright). A battle built by
typing and clicking, saved, imported in ``toride console`` and exported again; a refused value; a phone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.render.common import refusal_text
from bot.rulesets.fort.prep.build import check
from engine.limits import MAX_NUMBER

# ``toride console`` in this process lives with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import console

ROOT = Path(__file__).resolve().parents[2]
MONSTER = ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "monster.json"
#: on one worker: one chromium for the module (its fixture), not one on each worker
pytestmark = pytest.mark.xdist_group("browser")


def _open(browser: Any, url: str, **context: Any) -> Any:
    # Playwright's wait_for_function evaluates its string in the page, which the page's CSP forbids
    # (no 'unsafe-eval'); the page itself runs under its CSP in test_the_page_runs_under_its_csp
    context.setdefault("bypass_csp", True)
    page = browser.new_context(accept_downloads=True, **context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.goto(url)
    page.wait_for_selector("#settings-rounds")
    page.wait_for_function("document.body.dataset.checked")
    page.errors = errors
    return page


def _add(page: Any, label: str, kind: str, values: dict[str, str]) -> int:
    page.get_by_role("button", name=label).click()
    index = page.locator(f'.rows[data-kind="{kind}"] fieldset').count() - 1
    for name, value in values.items():
        field = page.locator(f"#{kind}-{index}-{name}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    return index


def _console(db: Path, script: str) -> subprocess.CompletedProcess[str]:
    """``toride console --db DB --strict`` (in this process) with ``script`` on stdin."""
    return console(db, script, "--strict")


def test_a_battle_built_by_hand_is_the_battle_the_console_imports(browser, prep_server, tmp_path):
    """F-UNIT-1, F-UNIT-12, F-TRAP-1: every unit type, a commander, traps and a sheet monster, typed and
    clicked; the picture changes; the odds come; the saved file is what ``/fort import`` takes as it is."""
    file = tmp_path / "north.json"
    prep_url = prep_server(str(file))
    page = _open(browser, prep_url, viewport={"width": 1400, "height": 1000})
    page.fill("#settings-title", "北の砦")
    page.fill("#settings-rounds", "4")
    page.fill("#settings-fort_hp", "250")
    page.fill("#settings-cannons", "1")
    _add(page, "PCを加える", "pcs", {"name": "アリス", "position": "inside", "hp": "42"})
    _add(page, "PCを加える", "pcs", {"name": "ボブ", "position": "outside"})
    page.wait_for_selector("#map-picture:not([hidden])")
    first_picture = page.get_attribute("#map-picture", "src")
    goblin = _add(page, "ユニットを加える", "units",
                  {"name": "ゴブリン", "type": "normal", "area": "A2", "hp": "30", "fort_damage": "10",
                   "strike": "2d+3", "defense": "2"})  # fmt: skip
    _add(page, "ユニットを加える", "units",
         {"name": "破城槌", "type": "ram", "area": "A1", "hp": "60", "fort_damage": "30", "strike": "2d+10",
          "move": "10"})  # fmt: skip
    _add(page, "ユニットを加える", "units",
         {"name": "ハーピー", "type": "flying", "area": "B2", "hp": "25", "fort_damage": "5", "move": "20",
          "weakness": "炎属性ダメージ+3"})  # fmt: skip
    _add(
        page,
        "ユニットを加える",
        "units",
        {
            "name": "守備隊",
            "type": "soldier",
            "area": "F0",
            "hp": "40",
            "fort_damage": "0",
            "position": "outside",
        },
    )
    _add(
        page,
        "ユニットを加える",
        "units",
        {
            "name": "増援オーク",
            "type": "normal",
            "area": "B2",
            "hp": "50",
            "fort_damage": "15",
            "arrive_round": "2",
        },
    )
    row = page.locator(f'.rows[data-kind="units"] fieldset[data-index="{goblin}"]')
    row.get_by_label("複製する数").fill("2")
    row.get_by_role("button", name="複製する").click()
    _add(
        page,
        "指揮官を加える",
        "commanders",
        {"name": "隊長", "hp": "40", "area": "A2", "horn": "敵全体の命中+1"},
    )
    _add(page, "罠を加える", "traps", {"kind": "barricade", "edge": "A1-F0", "uses": "2"})
    _add(page, "罠を加える", "traps", {"kind": "mine", "edge": "A2-A1", "uses": "1"})
    page.set_input_files("#sheet-file", str(MONSTER))
    page.select_option("#sheet-type", "normal")
    page.select_option("#sheet-area", "B2")
    page.fill("#sheet-fort_damage", "12")
    page.get_by_role("button", name="シートから加える").click()
    page.wait_for_selector("#units-8-name")
    page.wait_for_function("!document.getElementById('save').disabled", timeout=20000)
    assert page.get_attribute("#map-picture", "src") != first_picture
    assert [page.input_value(f"#units-{i}-name") for i in range(9)] == [
        "ゴブリン", "ゴブリン2", "ゴブリン3", "破城槌", "ハーピー", "守備隊", "増援オーク",
        "グリフォン(頭部)", "グリフォン(胴体)",
    ]  # fmt: skip

    page.fill("#odds-runs", "200")
    page.fill("#odds-pc_damage", "2d+8")
    page.fill("#odds-seed", "7")
    page.get_by_role("button", name="見込みを計算する").click()
    page.wait_for_selector("#odds-chart:not([hidden])", timeout=60000)
    assert "北の砦" in page.inner_text("#odds-text")

    shots = os.environ.get("TORIDE_PREP_SCREENSHOT")
    if (
        shots
    ):  # docs/prep-example.png: TORIDE_PREP_SCREENSHOT=docs/prep-example.png python -m pytest tests/prep
        page.evaluate(
            "document.getElementById('units').scrollIntoView(); document.querySelector('.view').scrollTop = 0"
        )
        page.screenshot(path=shots)
    with page.expect_download() as download:
        page.get_by_role("button", name="保存する").click()
    downloaded = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    page.wait_for_function("document.getElementById('status').textContent.includes('保存しました')")
    saved = json.loads(file.read_text(encoding="utf-8"))
    assert saved == downloaded
    assert page.errors == []
    base = prep_url.rstrip("/")
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
    assert [(p["name"], p["position"], p["hp"]) for p in again["pcs"]] == [
        ("アリス", "inside", 42),
        ("ボブ", "outside", None),
    ]
    units = {u["name"]: u for u in again["units"]}
    assert {n: (u["type"], u["area"], u["hp"], u["fort_damage"]) for n, u in units.items()} == {
        "ゴブリン": ("normal", "A2", 30, 10), "ゴブリン2": ("normal", "A2", 30, 10),
        "ゴブリン3": ("normal", "A2", 30, 10), "破城槌": ("ram", "A1", 60, 30),
        "ハーピー": ("flying", "B2", 25, 5), "守備隊": ("soldier", "F0", 40, 0),
        "増援オーク": ("normal", "B2", 50, 15),
        "グリフォン(頭部)": ("normal", "B2", 48, 12), "グリフォン(胴体)": ("normal", "B2", 62, 12),
    }  # fmt: skip
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

    # the console's /fort export opened again, edited, saved: only what was edited changes
    # the page says it opened the file, then checks it and clears what it said when the check answers
    # (within a frame on a fast machine): every text the status shows is kept, and that one looked for
    page.evaluate("""() => {
        const node = document.getElementById('status');
        window.statuses = [];
        new MutationObserver(() => window.statuses.push(node.textContent))
            .observe(node, {childList: true, characterData: true, subtree: true});
    }""")
    page.set_input_files("#open-file", str(tmp_path / "again.json"))
    page.wait_for_function("window.statuses.includes('ファイルを開きました。')")
    assert page.input_value("#units-3-name") == "破城槌"
    page.fill("#units-3-hp", "70")
    page.wait_for_function("!document.getElementById('save').disabled", timeout=20000)
    with page.expect_download() as download:
        page.get_by_role("button", name="保存する").click()
    edited = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert edited["units"][3] == {**again["units"][3], "hp": 70, "max_hp": 70}
    edited["units"][3] = again["units"][3]
    assert edited == again


def test_a_refused_value_shows_the_bots_sentence_and_nothing_is_saved(browser, prep_server, tmp_path):
    """A value beyond its option, and one the rules refuse (F-UNIT-1: a ram needs its strike), each with
    the bot's own sentence beside its field; save stays off, and the server saves nothing when asked. A
    move of 15 m is taken as 10 m, as ``/unit add`` takes it, and said beside its field (COMMANDS.md's
    Conventions); that refuses nothing."""
    file = tmp_path / "battle.json"
    page = _open(browser, prep_server(str(file)))
    _add(page, "ユニットを加える", "units", {"name": "ゴブリン", "type": "normal", "area": "A2", "hp": "0",
                                   "fort_damage": "10", "move": "15"})  # fmt: skip
    hp = page.locator('.refusal[data-place="$.units[0].hp"]')
    hp_words = refusal_text(
        "command.out_of_range", {"option": "hp", "value": "0", "min": 1, "max": MAX_NUMBER}, "ja"
    )
    page.wait_for_function("document.querySelector('.refusal[data-place=\"$.units[0].hp\"]').textContent")
    assert hp.text_content() == hp_words
    assert page.get_attribute("#units-0-hp", "aria-invalid") == "true"
    assert page.is_disabled("#save")
    page.fill("#units-0-hp", "30")
    move = page.locator('.refusal[data-place="$.units[0].move"]')
    page.wait_for_function("document.querySelector('.refusal[data-place=\"$.units[0].move\"]').textContent")
    assert move.text_content() == t("unit.move_rounded", "ja", unit="ゴブリン", given=15, move=10)
    assert hp.text_content() == ""
    page.wait_for_function("!document.querySelector('#save').disabled")
    page.select_option("#units-0-type", "ram")
    strike = page.locator('.refusal[data-place="$.units[0].strike"]')
    page.wait_for_function("document.querySelector('.refusal[data-place=\"$.units[0].strike\"]').textContent")
    draft = {"settings": {"rounds": "3"}, "units": [{"form": {"name": "ゴブリン", "type": "ram", "area": "A2",
             "hp": "30", "fort_damage": "10", "move": "15"}}]}  # fmt: skip
    words = check(draft, "ja").refusals[0].text
    assert "破城槌" in words and strike.text_content() == words
    assert page.is_disabled("#save")
    answer = page.evaluate("""async (draft) => {
        const token = document.querySelector('meta[name="toride-token"]').content;
        const headers = {"Content-Type": "application/json", "X-Toride-Token": token};
        const response = await fetch("/api/save", {method: "POST", headers, body: JSON.stringify(draft)});
        return response.json();
    }""", draft)
    assert answer["document"] is None
    assert answer["refusals"] == [{"place": "$.units[0].strike", "text": words}]
    assert not file.exists()


def test_at_phone_width_by_keyboard(browser, prep_server, tmp_path):
    """Readable at a phone's width (nothing wider than the screen), every control labelled, and a unit
    added and named with the keyboard alone; in English with --lang en."""
    page = _open(browser, prep_server("--lang", "en"), viewport={"width": 375, "height": 740},
                 is_mobile=True, has_touch=True)  # fmt: skip
    assert page.evaluate("document.documentElement.lang") == "en"
    page.get_by_role("button", name="Add a unit").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "units-0-name"
    page.keyboard.type("Goblins")
    for name, value in (("hp", "30"), ("fort_damage", "10")):
        page.focus(f"#units-0-{name}")
        page.keyboard.type(value)
    page.wait_for_function("!document.getElementById('save').disabled", timeout=20000)
    page.wait_for_selector("#map-picture:not([hidden])")
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select')]
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
    page.wait_for_selector("#save:not([disabled])", state="attached", timeout=20000)
    assert errors == []
    assert [m for m in messages if "Content Security Policy" in m] == []
