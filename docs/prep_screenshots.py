"""The prep board's pictures in the README (``docs/prep-board-desktop.png``, ``docs/prep-board-phone.png``):
``python docs/prep_screenshots.py`` starts ``toride prep`` on an example battle and photographs the page
in Debian's chromium (``TORIDE_CHROMIUM`` or ``/usr/bin/chromium``) at a desktop's width and a phone's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
BATTLE = {
    "format": "toride.fort/1",
    "title": "北の砦",
    "rounds": 4,
    "fort": {"hp": 250, "max_hp": 250},
    "pcs": [
        {
            "name": "アリス",
            "area": "F0",
            "position": "top",
            "hp": 42,
            "max_hp": 42,
            "move": 20,
            "owner": "GM",
        },
        {"name": "ボブ", "area": "F0", "position": "inside", "hp": 35, "max_hp": 38},
    ],
    "units": [
        {"name": "ゴブリン", "type": "normal", "area": "A2", "hp": 30, "max_hp": 30, "fort_damage": 10},
        {"name": "ゴブリン2", "type": "normal", "area": "A2", "hp": 30, "max_hp": 30, "fort_damage": 10},
        {"name": "破城槌", "type": "ram", "area": "A1", "hp": 60, "max_hp": 60, "strike": "2D+10"},
        {
            "name": "ハーピー",
            "type": "flying",
            "area": "B2",
            "hp": 25,
            "max_hp": 25,
            "fort_damage": 5,
            "weakness": "炎属性ダメージ+3",
        },
        {"name": "守備隊", "type": "soldier", "area": "F0", "position": "outside", "hp": 40, "max_hp": 40},
        {
            "name": "増援オーク",
            "type": "normal",
            "area": "B1",
            "hp": 50,
            "max_hp": 50,
            "fort_damage": 15,
            "arrive_round": 2,
        },
    ],
    "commanders": [{"name": "隊長", "area": "A2", "hp": 40, "max_hp": 40, "horn": "敵全体の命中+1"}],
    "traps": [
        {"kind": "barricade", "edge": "A1-F0", "uses": 2},
        {"kind": "mine", "edge": "A2-A1", "uses": 1},
    ],
    "cannons": [{"shells": 2}, {"shells": 1}],
}


def main() -> int:
    chromium = os.environ.get("TORIDE_CHROMIUM") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "north.json"
        file.write_text(json.dumps(BATTLE, ensure_ascii=False), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "prep", str(file), "--port", "0"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert server.stdout is not None
        line = server.stdout.readline()
        url = line[line.index("http://") :].split()[0]
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, args=["--headless", "--no-sandbox"]
                )
                for name, context in (
                    ("desktop", {"viewport": {"width": 1400, "height": 900}}),
                    (
                        "phone",
                        {
                            "viewport": {"width": 390, "height": 844},
                            "is_mobile": True,
                            "has_touch": True,
                            "device_scale_factor": 2,
                        },
                    ),
                ):
                    page = browser.new_context(**context).new_page()
                    page.goto(url)
                    page.wait_for_selector("body[data-checked]")
                    page.wait_for_selector(".thing")
                    page.locator('.thing[data-place="$.units[2]"]').click()
                    page.wait_for_timeout(600)
                    page.screenshot(path=str(ROOT / "docs" / f"prep-board-{name}.png"))
                browser.close()
        finally:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
