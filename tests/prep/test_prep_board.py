"""Issue 34: the prep page as a board, in Debian's chromium through Playwright, at a desktop's width and a
phone's (390 px): a battle built by clicking the map and dragging its pieces; every refusal beside its
field and counted in the bar; save → reload → the same; the question when the file changed on disk; the
edits a reload would lose, kept; a removal undone; user text shown as text."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from prep_page import open_page, settle

# ``toride console`` in this process lives with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import console

ROOT = Path(__file__).resolve().parents[2]
#: on one worker: one chromium for the module (its fixture), not one on each worker
pytestmark = pytest.mark.xdist_group("browser")
DESKTOP = {"viewport": {"width": 1400, "height": 1000}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SCREENS = pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])


def _tap(page: Any, locator: Any, phone: bool) -> None:
    if phone:
        locator.tap()
    else:
        locator.click()


def _drag(page: Any, thing: Any, target: Any) -> None:
    """A piece dragged with the mouse (pointer events) from its centre onto ``target``'s centre."""
    a, b = thing.bounding_box(), target.bounding_box()
    assert a is not None and b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    for step in range(1, 11):
        x = a["x"] + a["width"] / 2 + (b["x"] + b["width"] / 2 - a["x"] - a["width"] / 2) * step / 10
        y = a["y"] + a["height"] / 2 + (b["y"] + b["height"] / 2 - a["y"] - a["height"] / 2) * step / 10
        page.mouse.move(x, y)
    page.mouse.up()


def _add_at(page: Any, where: str, kind: str, phone: bool) -> None:
    """One ``kind`` (``ユニット``, ``PC``, ``罠`` ...) added at ``where`` (its label) from the map: its "+"
    on a desktop; on a phone, a tap on the area, then the kind in the bar under the map."""
    if not phone:
        page.get_by_role("button", name=f"{where}に{kind}を加える", exact=True).click()
    else:
        zone = page.locator(f'.drop[data-label="{where}"]')
        box = zone.bounding_box()
        assert box is not None
        zone.tap(position={"x": 3, "y": box["height"] - 3})
        page.locator("#area-adds").get_by_role("button", name=f"+ {kind}", exact=True).tap()
    page.wait_for_selector("#panel:not([hidden])")


def _fill(page: Any, values: dict[str, str]) -> None:
    """The panel's fields (by their name) filled, or chosen."""
    for name, value in values.items():
        field = page.locator(f'#panel-fields [data-field="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def _lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#list .line .title").all_inner_texts()]


def _named(page: Any) -> list[str]:
    """The list's elements but the battle's settings and the cannons (a new battle has two)."""
    return [line for line in _lines(page)[1:] if not line.startswith("大砲")]


def _saved(file: Path) -> dict[str, Any]:
    return json.loads(file.read_text(encoding="utf-8"))


@SCREENS
def test_a_battle_built_by_clicking_and_dragging_is_saved_reloaded_and_imported(
    browser, prep_server, tmp_path, screen
):
    """F-MAP-1, F-MAP-4, F-MAP-7: a unit added in A2 by its "+" and dragged to B1, a soldier and a PC added
    at F0, a trap on an edge; saved into FILE (its name beside the button), the page reloaded shows the
    same, and ``/fort import`` in the console takes the file as it is."""
    phone = screen is PHONE
    file = tmp_path / "north.json"
    page = open_page(browser, prep_server(str(file)), **screen)
    assert page.inner_text("#file-name") == "保存先: north.json"
    _tap(page, page.locator("#list .line").first, phone)  # the battle's settings
    _fill(page, {"title": "北の砦", "rounds": "4"})
    _add_at(page, "A2 左後方", "ユニット", phone)
    assert page.input_value('#panel-fields [data-field="area"]') == "A2"
    _fill(page, {"name": "ゴブリン", "max_hp": "30", "fort_damage": "10"})
    _add_at(page, "F0 砦上部", "ユニット", phone)
    assert page.input_value('#panel-fields [data-field="type"]') == "soldier"
    _fill(page, {"name": "守備隊", "max_hp": "40"})
    _add_at(page, "F0 砦内部", "PC", phone)
    _fill(page, {"name": "アリス", "max_hp": "42", "owner": "GM"})
    _add_at(page, "A1-F0", "罠", phone)
    _fill(page, {"uses": "2"})
    settle(page)
    assert page.is_hidden("#problems"), page.inner_text("#problems")
    goblin = page.locator('.thing[data-place="$.units[0]"]')
    b1 = page.locator('.drop[data-kinds~="units"]').nth(2)
    if phone:
        page.locator("#panel-close").tap()
    _drag(page, goblin, b1)
    settle(page)
    assert "B1" in page.inner_text("#status")
    page.locator('#list .line[data-place="$.units[0]"]').click()
    assert page.input_value('#panel-fields [data-field="area"]') == "B1"
    page.locator("#save").click()
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('north.jsonに保存しました')"
    )
    assert "/砦 読み込み" in page.inner_text("#status")
    saved = _saved(file)
    assert (saved["title"], saved["rounds"]) == ("北の砦", 4)
    assert [(u["name"], u["type"], u["area"], u["max_hp"]) for u in saved["units"]] == [
        ("ゴブリン", "normal", "B1", 30), ("守備隊", "soldier", "F0", 40),
    ]  # fmt: skip
    assert saved["units"][1]["position"] == "top"
    assert [(p["name"], p["position"], p["max_hp"], p["owner"]) for p in saved["pcs"]] == [
        ("アリス", "inside", 42, "GM")
    ]
    assert saved["traps"] == [{"kind": "barricade", "edge": "A1-F0", "uses": 2}]
    lines = _lines(page)
    page.reload()
    settle(page)
    assert _lines(page) == lines
    assert page.is_hidden("#problems") and "戻しました" not in page.inner_text("#status")
    page.locator("#save").click()  # the same battle saved again: the same file
    page.wait_for_function("document.getElementById('status').textContent.includes('保存しました')")
    assert _saved(file) == saved
    assert page.errors == []

    run = console(
        tmp_path / "t.db", "/fort import file:north.json\n/fort export file:again.json\n", "--strict"
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert _saved(tmp_path / "again.json") == saved


@SCREENS
def test_every_refusal_is_beside_its_field_and_counted_in_the_bar(browser, prep_server, tmp_path, screen):
    """Rounds 三, a PC's name taken twice and a ram at F0 (F-MAP-7), refused at once: the bar counts 3 and
    its button shows each beside its field, in the page's words; the map still draws what is valid."""
    phone = screen is PHONE
    page = open_page(browser, prep_server(str(tmp_path / "battle.json")), **screen)
    _tap(page, page.locator("#list .line").first, phone)
    _fill(page, {"rounds": "三"})
    for name in ("アリス", "アリス"):
        _add_at(page, "F0 砦上部", "PC", phone)
        _fill(page, {"name": name})
    _add_at(page, "A1 左前方", "ユニット", phone)
    _fill(page, {"name": "破城槌", "type": "ram", "max_hp": "60", "strike": "2d+10"})
    _fill(page, {"area": "F0"})
    settle(page)
    assert page.inner_text("#problem-count") == "直すところが3か所あります。"
    seen = []
    for _ in range(3):
        page.locator("#problem-next").click()
        focused = page.evaluate("document.activeElement.dataset.place")
        words = page.locator(f'#panel .refusal[data-place="{focused}"]').inner_text()
        assert words, focused
        assert page.locator(f'#panel .refusal[data-place="{focused}"]').is_visible()
        assert not re.search(r"/\S+ \S+|\w+:", words), words  # no slash command, no option syntax
        seen.append((focused, words))
    places = [place for place, _ in seen]
    assert places[0] == "$.rounds" and sorted(places[1:]) == ["$.pcs[1].name", "$.units[0].area"]
    assert page.locator("#map-picture").is_visible()
    assert page.locator('.thing[data-place="$.pcs[0]"]').count() == 1  # the valid part is drawn
    assert page.errors == []


def test_the_overwrite_question_when_the_file_changed_on_disk(browser, prep_server, tmp_path):
    """A file changed by another program since the page opened it: a save asks, naming the change; "no"
    writes nothing, "yes" replaces it."""
    file = tmp_path / "north.json"
    file.write_text(json.dumps({"format": "toride.fort/1", "title": "北の砦", "rounds": 3}), encoding="utf-8")
    page = open_page(browser, prep_server(str(file)), **DESKTOP)
    file.write_text(json.dumps({"format": "toride.fort/1", "title": "北の砦", "rounds": 6}), encoding="utf-8")
    page.locator("#list .line").first.click()
    _fill(page, {"title": "南の砦"})
    settle(page)
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.locator("#save").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('書き換えられています')")
    assert asked == [
        "north.jsonは、開いたあとでほかのプログラムに書き換えられています。"
        "変わったところ: ラウンド数 3→6。\n\n"
        "このページの内容でnorth.jsonを置き換えますか?(置き換えないときは、保存せずにそのままにします)"
    ]
    assert _saved(file)["rounds"] == 6
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.locator("#save").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('保存しました')")
    assert (_saved(file)["title"], _saved(file)["rounds"]) == ("南の砦", 3)


def test_two_tabs_the_stale_save_names_the_other_tabs_change(browser, prep_server, tmp_path):
    file = tmp_path / "north.json"
    file.write_text(json.dumps({"format": "toride.fort/1", "title": "北の砦", "rounds": 3}), encoding="utf-8")
    url = prep_server(str(file))
    one, two = open_page(browser, url, **DESKTOP), open_page(browser, url, **DESKTOP)
    one.locator("#list .line").first.click()
    _fill(one, {"rounds": "5"})
    settle(one)
    one.locator("#save").click()
    one.wait_for_function("document.getElementById('status').textContent.includes('保存しました')")
    two.locator("#list .line").first.click()
    _fill(two, {"title": "南の砦"})
    settle(two)
    asked: list[str] = []
    two.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    two.locator("#save").click()
    two.wait_for_function("document.getElementById('status').textContent.includes('別のタブ')")
    assert re.match(
        r"north\.jsonは、別のタブが\d\d:\d\d:\d\dに保存しています。変わったところ: ラウンド数 3→5。", asked[0]
    )
    assert (_saved(file)["title"], _saved(file)["rounds"]) == ("北の砦", 5)


def test_unsaved_edits_survive_a_reload_and_leaving_asks_first(browser, prep_server, tmp_path):
    file = tmp_path / "north.json"
    page = open_page(browser, prep_server(str(file)), **DESKTOP)
    _add_at(page, "A2 左後方", "ユニット", False)
    _fill(page, {"name": "ゴブリン", "max_hp": "30", "fort_damage": "10"})
    settle(page)
    reloads: list[str] = []

    def leave(dialog: Any) -> None:  # the leave question (beforeunload) a reload asks
        reloads.append(dialog.type)
        dialog.accept()

    page.on("dialog", leave)
    page.reload()
    settle(page)
    assert _named(page) == ["ゴブリン"]
    assert page.inner_text("#status").startswith("前に保存しなかった変更を戻しました")
    assert not file.exists() and reloads == ["beforeunload"]
    page.remove_listener("dialog", leave)
    # undo goes back to the file's battle (none yet), redo to the kept edits
    page.locator("#undo").click()
    assert _named(page) == []
    page.locator("#redo").click()
    assert _named(page) == ["ゴブリン"]
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.close(run_before_unload=True)
    page.wait_for_timeout(300)  # a dismissed question keeps the page open
    assert asked == ["beforeunload"] and not page.is_closed()


def test_a_removal_is_undone(browser, prep_server, tmp_path):
    page = open_page(browser, prep_server(str(tmp_path / "battle.json")), **DESKTOP)
    _add_at(page, "A2 左後方", "ユニット", False)
    _fill(page, {"name": "ゴブリン", "max_hp": "30", "fort_damage": "10", "defense": "3"})
    _add_at(page, "B2 右後方", "ユニット", False)
    _fill(page, {"name": "オーガ", "max_hp": "50", "fort_damage": "20"})
    settle(page)
    page.locator('#list .line[data-place="$.units[0]"]').click()
    page.locator("#remove").click()
    assert page.inner_text("#status") == "ゴブリンを取り除きました。「元に戻す」で戻せます。"
    assert _named(page) == ["オーガ"]
    page.locator("#undo").click()
    settle(page)
    assert sorted(_named(page)) == ["オーガ", "ゴブリン"]
    page.locator('#list .line[data-place="$.units[0]"]').click()
    assert page.input_value('#panel-fields [data-field="defense"]') == "3"
    assert page.errors == []


def test_user_text_is_shown_as_text(browser, prep_server, tmp_path):
    """A name that is HTML shows as its characters in the list, the panel and the map's label; nothing
    runs, no element is made of it."""
    page = open_page(browser, prep_server(str(tmp_path / "battle.json")), **DESKTOP)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    hostile = "<img src=x onerror=alert(1)>"
    _add_at(page, "A2 左後方", "ユニット", False)
    _fill(page, {"name": hostile, "max_hp": "30", "fort_damage": "10"})
    page.locator("#list .line").first.click()
    _fill(page, {"title": "<script>alert(2)</script>"})
    settle(page)
    assert hostile in _lines(page)
    page.locator('#list .line[data-place="$.units[0]"]').click()
    assert page.inner_text("#panel-title") == hostile
    assert page.get_attribute('.thing[data-place="$.units[0]"]', "aria-label") == hostile
    assert (
        page.locator('img[src="x"]').count() == 0
        and page.locator("script:not([src]):not([type])").count() == 0
    )
    page.wait_for_timeout(300)
    assert dialogs == [] and page.errors == []


def test_at_a_phone_the_map_is_on_top_the_panel_a_sheet_over_it_the_list_below(
    browser, prep_server, tmp_path
):
    page = open_page(browser, prep_server(str(tmp_path / "battle.json")), **PHONE)
    _add_at(page, "A2 左後方", "ユニット", True)
    _fill(page, {"name": "ゴブリン", "max_hp": "30", "fort_damage": "10"})
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    map_box = page.locator("#map").bounding_box()
    list_box = page.locator("#list").bounding_box()
    panel = page.locator("#panel").bounding_box()
    assert map_box is not None and list_box is not None and panel is not None
    assert map_box["y"] < list_box["y"] and map_box["width"] <= 390
    assert page.evaluate("getComputedStyle(document.getElementById('panel')).position") == "fixed"
    assert panel["y"] + panel["height"] <= 844 + 1 and panel["height"] <= 844 * 0.6
    # the field being edited and the map together on the screen
    assert map_box["y"] < panel["y"]
    page.locator("#panel-close").tap()
    assert page.is_hidden("#panel")
    # every element one tap away: its line in the list, or its piece on the map
    page.locator('#list .line[data-place="$.units[0]"]').tap()
    assert page.input_value('#panel-fields [data-field="name"]') == "ゴブリン"
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select')]
        .filter(e => e.type !== 'file')
        .filter(e => e.labels.length === 0 || !e.labels[0].textContent.trim()).map(e => e.id)""")
    assert unlabelled == []
    assert page.errors == []


def test_the_ballista_on_the_map_opens_the_battles_settings_with_its_fields(browser, prep_server, tmp_path):
    """F-BAL-1: the ballista is drawn below the field; a click on it opens the settings, where it is
    loaded and given its bolt (the bolt only once it is loaded)."""
    page = open_page(browser, prep_server(str(tmp_path / "battle.json")), **DESKTOP)
    page.locator('.thing[data-place="$.ballista"]').click()
    assert page.inner_text("#panel-title") == "戦闘の設定"
    assert page.locator('#panel-fields [data-field="bolt"]').count() == 0
    page.locator('#panel-fields [data-field="loaded"]').check()
    assert page.locator('#panel-fields [data-field="bolt"]').count() == 1
    assert page.errors == []
