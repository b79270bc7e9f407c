"""The catalogue files of the summaries, the roster and the help (``report``, ``roster``, ``console_help``):
the same keys and placeholders in both languages, and what they render (every group's help, a roster, a
summary with every cause) holds no placeholder, no ``-`` for a value, no ``(s)``, no rule id."""

from __future__ import annotations

import re
import tomllib

import pytest

from bot.i18n import folders, placeholders
from bot.registry import rulesets
from bot.render.help_text import help_text
from bot.rulesets.fort import report_text as fort_report
from bot.rulesets.fort import roster_text as fort_roster
from engine.fort.report import Action, Arrival, HPChange, RoundReport, TrapSpent, Undo
from engine.fort.roster import Roster, RosterCommander, RosterUnit
from engine.ruleset import Event

FILES = ("report.toml", "roster.toml", "console_help.toml")
#: a ``-`` standing alone for a value (not in a word, a number, a dice expression, or quoted: 「-」 "-")
LEAKS = re.compile(r"\{|\}|\(s\)|\bF-[A-Z]+-\d|(?<![\w/.+−「\"-])-(?![\w\d」\"])|\bNone\b|\bTrue\b|\bFalse\b")


def _keys(lang: str, name: str) -> dict[str, str]:
    """The keys of the catalogue files named ``name`` (the bot's own and its rule sets')."""
    keys: dict[str, str] = {}
    for folder in folders():
        part = folder.joinpath(lang, name)
        if part.is_file():
            keys.update(tomllib.loads(part.read_text(encoding="utf-8")))
    return keys


@pytest.mark.parametrize("name", FILES)
def test_both_languages_have_the_same_keys_and_placeholders(name: str) -> None:
    ja, en = _keys("ja", name), _keys("en", name)
    assert ja.keys() == en.keys()
    for key in ja:
        assert placeholders(ja[key]) == placeholders(en[key]), key


REPORT = RoundReport(
    kind="round",
    round=2,
    entries=(
        Action(
            3,
            "gm",
            "/fort siege effect:fixed amount:5",
            (Event("battle.turn_started", {"round": 2, "side": "pc"}),),
        ),
        Undo(5, "gm", False, (4,), ("/fort repair",)),
        Undo(6, "gm", False, (2, 3), ("/fort heal amount:12", "/fort next")),
        Undo(7, "gm", True, (2,), ("/fort heal amount:12",)),
        Undo(8, "gm", True, (2, 3), ("/fort heal amount:12", "/fort next")),
    ),
    fort_start=100,
    fort_end=71,
    fort_max=100,
    changes=(
        HPChange("enter", "狼", -10),
        HPChange("enter", None, -1),
        HPChange("turn_start", "狼", -20, 2),
        HPChange("turn_start", None, -1),
        HPChange("end", "鬼", -8),
        HPChange("end", None, -1),
        HPChange("siege", "mattock", -5),
        HPChange("siege", None, -1),
        HPChange("repair", "Alice", 10),
        HPChange("repair", None, 1),
        HPChange("heal", None, 5),
        HPChange("gm", None, -8),
    ),
    destroyed=("狼", "鳥"),
    arrivals=(Arrival("鬼", "B2"),),
    traps=(TrapSpent("mine", "A1-F0", 1, 1), TrapSpent("barricade", "B1-F0", 2, 0)),
    commanders_down=("隊長",),
)

ROSTER = Roster(
    round=1,
    rounds=3,
    turn="enemy",
    area=None,
    units=(
        RosterUnit(
            "狼",
            "normal",
            "enemy",
            "A1",
            None,
            5,
            20,
            10,
            "2d",
            1,
            10,
            0,
            "炎属性ダメージ+3",
            "unit_attack",
            True,
            "barricade",
            "on_map",
            None,
        ),
        RosterUnit(
            "兵",
            "soldier",
            "pc",
            "F0",
            "outside",
            9,
            9,
            0,
            None,
            0,
            10,
            10,
            None,
            "gm",
            False,
            None,
            "on_map",
            None,
        ),
        RosterUnit(
            "鬼", "ram", "enemy", "B2", None, 9, 9, 0, "2d+3", 0, 10, 0, None, None, False, None, "pending", 2
        ),
        RosterUnit(
            "鳥",
            "flying",
            "enemy",
            "B1",
            None,
            0,
            9,
            5,
            None,
            0,
            20,
            0,
            None,
            None,
            False,
            None,
            "destroyed",
            None,
        ),
    ),
    commanders=(
        RosterCommander("隊長", "A2", 0, 20, True, None),
        RosterCommander("副長", "B1", 9, 9, False, "命中+1"),
    ),
)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_what_they_render_leaks_nothing(lang: str) -> None:
    texts = [fort_report.title(REPORT, lang), *fort_report.report_lines(REPORT, lang)]
    texts += fort_roster.roster_lines(ROSTER, lang)
    texts += fort_roster.roster_lines(Roster(1, 3, "pc", "A1", (), ()), lang)
    texts += fort_roster.roster_lines(Roster(1, 3, "pc", None, (), ()), lang)
    texts += fort_roster.preview_lines((), lang)
    for line in texts:
        assert not LEAKS.search(line.replace("−", "")), line
    # the help quotes the descriptions Discord shows (the other catalogues: their plurals are theirs)
    helps = help_text(lang).splitlines()
    for group in rulesets().table.help_groups():
        helps += help_text(lang, group).splitlines()
    for line in helps:
        assert not LEAKS.search(line.replace("−", "").replace("(s)", "")), line
    texts += helps
    # a single trap use and a single undo read as such in English, not "1 times" / "1 actions"
    if lang == "en":
        joined = "\n".join(texts)
        assert "once (1 left)" in joined and "undid one action" in joined and "redid 2 actions" in joined
        assert " 1 times" not in joined and " 1 actions" not in joined
