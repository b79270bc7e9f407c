"""A whole fort battle played from a script with ``--dice``, checked by ``/fort export``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_run import console

BATTLE = """\
/fort start rounds:2 fort_hp:100 title:"北の 砦"
/pc add name:Alice position:top hp:30
/unit add name:ゴブリン type:normal area:A1 hp:30 fort_damage:10 defense:2 strike:2d+3
/unit add name:オーガ type:normal area:Ａ２ hp:50 fort_damage:20
/trap set kind:mine edge:A1-F0 uses:1
/cannon load cannon:1 check:16
/cannon fire cannon:1 unit:オーガ
@bob /fort next
/fort heal amount:abc
/fort next
/unit advance
/fort next
/attack single unit:ゴブリン bodies:3
/fort repair
/fort next
/unit advance
/fort next
/fort export
"""


def last_json(text: str) -> dict[str, Any]:
    start = text.rindex("\n{\n") + 1
    document: dict[str, Any] = json.loads(text[start:])
    return document


def test_a_whole_battle_with_scripted_dice(tmp_path: Path) -> None:
    # cannon K40+12@10 rolls 3,4 (21 magic to the ogre); the mine rolls 2,3 (2D6+10 = 15 to the goblin)
    done = console(tmp_path / "b.db", BATTLE, "--dice", "3,4,2,3", "--lang", "en")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # the refused lines answered and changed nothing; the console went on
    assert "⚠ /fort next is for the GMs only (this battle's GMs: gm)." in out
    assert '⚠ amount: takes a whole number ("abc" is not one).' in out
    doc = last_json(out)
    assert doc["format"] == "toride.fort/1"
    assert (doc["title"], doc["rounds"], doc["round"], doc["turn"], doc["outcome"]) == (
        "北の 砦",
        2,
        2,
        "ended",
        "success",
    )
    # 100 - 10 (goblin enters F0) + 10 (repair) - 20 (ogre enters F0) - 20 (ogre at the end, F-END-1)
    assert doc["fort"] == {"hp": 60, "max_hp": 100, "repaired_round": 2}
    units = {u["name"]: u for u in doc["units"]}
    assert (units["ゴブリン"]["hp"], units["ゴブリン"]["destroyed"], units["ゴブリン"]["area"]) == (
        0,
        True,
        "F0",
    )
    assert (units["オーガ"]["hp"], units["オーガ"]["destroyed"], units["オーガ"]["area"]) == (29, False, "F0")
    assert doc["traps"] == [{"kind": "mine", "edge": "A1-F0", "uses": 0}]
    assert doc["cannons"] == [{"shells": 0}, {"shells": 0}]
    assert [(p["name"], p["owner"], p["position"]) for p in doc["pcs"]] == [("Alice", "gm", "top")]
    # the summaries list the dice
    assert "Round 1 summary" in out and "Round 2 summary" in out and "Battle result" in out


def test_the_database_keeps_the_battle_and_undo_works_across_runs(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    first = console(db, BATTLE.split("/fort next\n/unit advance")[0], "--dice", "3,4")
    assert first.returncode == 0, first.stderr
    # a second run continues the same battle: undo the cannon shot, fire again with other dice
    second = console(db, "/gm undo\n/cannon fire cannon:1 unit:オーガ\n/fort export\n", "--dice", "6,6,1,2")
    assert second.returncode == 0, second.stderr
    doc = last_json(second.stdout)
    ogre = next(u for u in doc["units"] if u["name"] == "オーガ")
    # undone: 50 - 21 (3,4); fired again: K40+12@10 with 6,6 then 1,2 = 13 + 4 + 12 = 29 → 50 - 29
    assert ogre["hp"] == 21
    assert "KeyNo.40c[10]+12 ＞ 2D:[6,6 1,2]=12,3 ＞ 13,4+12 ＞ 1回転 ＞ 29" in second.stdout
    log = console(db, "/fort log last:3\n", "--lang", "en")
    # the first shot (#7) was undone (and cannot be redone after the new shot); who undid it is logged
    lines = [line for line in log.stdout.splitlines() if line.startswith("#")]
    assert lines == [
        "#7 gm: /cannon fire cannon:1 unit:オーガ (undone)",
        "#8 gm: /gm undo",
        "#9 gm: /cannon fire cannon:1 unit:オーガ",
    ]


def test_dice_running_out_says_so_and_changes_nothing(tmp_path: Path) -> None:
    script = "\n".join(BATTLE.splitlines()[:6]) + "\n/cannon fire cannon:1 unit:オーガ\n/fort export\n"
    done = console(tmp_path / "b.db", script, "--dice", "3", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert (
        "⚠ Too few scripted dice: 1 is left, and this command needs more. It changed nothing and used none. "
        "Add numbers to --dice."
    ) in done.stdout.splitlines()
    doc = last_json(done.stdout)
    assert doc["cannons"][0] == {"shells": 1}
    assert next(u for u in doc["units"] if u["name"] == "オーガ")["hp"] == 50


def test_export_then_import_in_another_channel(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    played = console(db, "\n".join(BATTLE.splitlines()[:7]) + "\n/fort export\n", "--dice", "3,4")
    exported = last_json(played.stdout)
    (tmp_path / "saved.json").write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    imported = console(
        db, "/fort import file:saved.json\n/fort export\n", "--channel", "other", "--lang", "en"
    )
    assert imported.returncode == 0, imported.stderr
    assert last_json(imported.stdout) == exported
    (tmp_path / "binary.json").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    script = (
        "/fort import file:nope.json\n/fort import file:binary.json\n/fort import file:.\n"
        "/fort import file:list.json\n/fort status\n"
    )
    broken = console(db, script, "--channel", "third", "--lang", "en")
    assert broken.returncode == 0 and broken.stderr == ""
    assert broken.stdout.splitlines() == [
        f"⚠ There is no file {tmp_path / 'nope.json'} "
        "(a relative path starts from the folder the console was started in).",
        f"⚠ The file {tmp_path / 'binary.json'} is not UTF-8 text. "
        "Give a JSON file written by /fort export or /sg export.",
        f"⚠ {tmp_path / '.'} is a folder. Give a JSON file.",
        "⚠ The JSON of file: is not a battle (a JSON object). "
        "Give a file written by /fort export or /sg export.",
        "⚠ No battle is running in this channel. /fort start begins a fort battle, /sg start a 千幻抄 one.",
    ]


def test_roll_status_and_help(tmp_path: Path) -> None:
    script = (
        '/roll expr:"2d6+10 攻撃"\n/roll expr:2d6+10 攻撃\n/roll expr:K20+5 secret:true\n/roll expr:2d6>=\n'
        "/fort status\n/fort start rounds:3\n/pc add name:Ａｌｉｃｅ position:top\n"
        "/unit add name:兵 type:soldier area:F0 hp:20 fort_damage:0\n"
        "/fort status\n/help\n/quit\n/fort status\n"
    )
    done = console(tmp_path / "b.db", script, "--dice", "3,4,5,6,2,3", "--lang", "en")
    out = done.stdout
    assert "gm: (2D6+10) ＞ 7[3,4]+10 ＞ 17  攻撃" in out
    # as in Discord's option box, a comment after the expression needs no quotes
    assert "gm: (2D6+10) ＞ 11[5,6]+10 ＞ 21  攻撃" in out
    assert "gm (secret roll): KeyNo.20c[10]+5 ＞ 2D:[2,3]=5 ＞ 3+5 ＞ 8" in out
    assert '⚠ "2D6>=" is not a Sword World 2.5 dice command.' in out
    assert "⚠ No battle is running in this channel." in out
    assert "Fort HP [████████████████████] 300/300" in out
    assert "  A2 ── A1 ── F0 ── B1 ── B2" in out
    # full-width input, NFKC name, its player; F-MAP-4: by position
    assert "F0: top: Alice (gm), 兵 20/20 [soldier]" in out
    # the help in the user's language and names (issue 23), with the descriptions Discord shows
    assert "  /unit add — (GM) Add a unit now, or as a reinforcement." in out
    assert (
        "  /fort next — (GM) End the current side's turn; "
        "the enemy turn's end posts the round summary." in out
    )
    assert "  /fort start — Start a fort-defense battle in this channel (you are its GM)." in out
    assert "/砦" not in out
    # /quit ends the session: the last status is never answered
    assert out.count("Fort HP") == 1


def test_unused_dice_and_an_unopenable_database_are_reported(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", "/roll expr:1d6\n", "--dice", "3,4,5", "--lang", "en")
    assert done.stdout == "gm: (1D6) ＞ 3\n"
    assert done.stderr == "2 of the 3 scripted dice were left unused.\n"
    broken = console(tmp_path / "no" / "such" / "dir.db", "/fort status\n", "--lang", "en", cwd=tmp_path)
    assert broken.returncode == 2
    assert broken.stderr.startswith("Cannot open the database sqlite+aiosqlite:///")


def test_a_reader_that_goes_away_stops_the_console_quietly(tmp_path: Path) -> None:
    """``toride console < script | head -1``: no traceback, and what was answered is stored."""
    import os
    import subprocess
    import sys

    from console_run import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORIDE_DATABASE_URL", None)
    script = tmp_path / "script.txt"
    script.write_text("/fort start rounds:3\n" + "/fort status\n" * 200, encoding="utf-8")
    read, write = os.pipe()
    with script.open("rb") as stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "console", "--db", str(tmp_path / "b.db"), "--lang", "en"],
            stdin=stdin,
            stdout=write,
            stderr=subprocess.PIPE,
            env=env,
            cwd=tmp_path,
        )
    os.close(write)
    with os.fdopen(read, "rb") as reader:
        first = reader.readline()
    _, stderr = process.communicate(timeout=60)
    assert first.startswith(b"Fort battle begins: 3 rounds")
    assert process.returncode == 141
    assert b"Traceback" not in stderr and b"BrokenPipe" not in stderr
    again = console(tmp_path / "b.db", "/fort status\n", "--lang", "en")
    assert "Round 1/3" in again.stdout


def test_a_file_the_system_refuses_is_a_refusal_in_words(tmp_path: Path) -> None:
    """``~name`` of no user is taken as written (no crash); the system's reason is the catalogue's."""
    script = "/fort start rounds:3\n/fort export file:~5nobody/x.json\n/fort export file:nodir/x.json\n"
    done = console(tmp_path / "t.db", script)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (
        lines[-2]
        == f"⚠ ファイル {tmp_path}/~5nobody/x.jsonに書き込めません: フォルダーかファイルがありません"
    )
    assert (
        lines[-1] == f"⚠ ファイル {tmp_path}/nodir/x.jsonに書き込めません: フォルダーかファイルがありません"
    )
    assert "Traceback" not in done.stderr
