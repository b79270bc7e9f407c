"""Property tests over hostile sheets: ytsheet2's own sheets with one or more fields replaced by what a player
can put in their own sheet (digit strings past Python's 4,300-digit ``int`` limit, negative and huge numbers,
long and control texts, ``<br>`` that would add palette lines, values of the wrong JSON type).

Read directly, a sheet either reads or is refused with a ``sheet.*`` key (never another exception); read
through the console (``/pc add file:``, ``/pc sheet``, ``/unit add file:``), every reply is plain text, and a
refusal leaves the stored battle byte-identical. Everything a sheet gives is within engine/limits.py.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sheet_fixtures import CHARACTERS, MONSTERS, fixture
from sqlalchemy import select

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import make_engine, open_storage
from bot.storage.battles import read_latest_head
from bot.storage.tables import battles
from engine import limits
from engine.dice import SeededDice
from engine.ruleset import RuleError
from engine.sheets.model import MonsterSheet, sheet_from_json, sheet_to_json
from engine.sheets.ytsheet import read_sheet

#: the fields a sheet's values come from (all the reader looks at, and some it does not)
PC_FIELDS = (
    "hpTotal", "mpTotal", "mobilityTotal", "weaponNum", "level", "characterName", "chatPalette",
    "weapon1Name", "weapon1AccTotal", "weapon1Rate", "weapon1Crit", "weapon1DmgTotal", "weapon1Acc",
    "weapon1Class", "weapon1Note", "defenseNum", "defenseTotal1Eva", "defenseTotal1Def", "defenseTotal1Note",
    "sttDex", "sttAddA", "lvFig", "lvSor", "magicPowerSor", "vitResistAddTotal", "packScoTecAdd",
    "chatPaletteInsertNum", "chatPaletteInsert1", "chatPaletteInsert1Position", "commonClass1", "lvCommon1",
    "combatFeatsLv1", "paletteInsertType", "monsterLoreAdd", "sheetURL", "evasionClass1", "armour1Eva",
    "mysticArtsNum", "mysticArts1", "lvBar", "craftSong1", "fairyContractEarth", "result", "gameVersion",
)  # fmt: skip
MONSTER_FIELDS = (
    "monsterName", "lv", "statusNum", "status1Hp", "status1Mp", "status1Defense", "status1Damage",
    "status1Style", "status1Accuracy", "status1Evasion", "mobility", "weakness",
)  # fmt: skip

_digits = st.integers(4_000, 6_000).map(lambda n: "9" * n)
_numbers = st.one_of(
    st.integers(-(10**20), 10**20),
    st.sampled_from([-100_000, -1, 0, 100_000, 100_001, 10**18, 10**19]),
    st.floats(allow_nan=True, allow_infinity=True),
)
_texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=90, max_size=300),
    st.sampled_from(
        ["剣" * 10_000, "a&lt;br&gt;2d6 注入", "x\x1b[31m", "a\u202eb", "\t", "&amp;lt;", "⑩", "−1"]
    ),
    _numbers.map(str),
    _digits,
)
_values = st.one_of(
    _texts,
    _numbers,
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(), st.text(), max_size=2),
)


@st.composite
def hostile_sheets(draw: st.DrawFn) -> dict[str, Any]:
    monster = draw(st.booleans())
    doc = copy.deepcopy(fixture(draw(st.sampled_from(MONSTERS if monster else CHARACTERS))))
    for field in draw(
        st.lists(st.sampled_from(MONSTER_FIELDS if monster else PC_FIELDS), min_size=1, max_size=4)
    ):
        doc[field] = draw(_values)
    return doc


@settings(max_examples=400, deadline=None)
@given(doc=hostile_sheets())
def test_a_sheet_reads_or_is_refused_in_words(doc: dict[str, Any]) -> None:
    try:
        read = read_sheet(doc)
    except RuleError as refused:
        assert refused.key.startswith("sheet."), refused.key
        return
    if isinstance(read, MonsterSheet):
        for part in read.parts:
            assert part.hp is None or 1 <= part.hp <= limits.MAX_HP
            assert all(
                abs(v) <= limits.MAX_NUMBER for v in (part.mp, part.defense, part.accuracy) if v is not None
            )
        return
    assert read.hp is None or 1 <= read.hp <= limits.MAX_HP
    assert read.move is None or 0 <= read.move <= limits.MAX_NUMBER
    assert read.palette is None or len(read.palette) <= 30_000
    for weapon in read.sheet.weapons:
        assert len(weapon.name) <= limits.TEXT_MAX and "\n" not in weapon.name
    # what was read is a sheet the fort stores and reads back
    assert sheet_from_json(json.loads(json.dumps(sheet_to_json(read.sheet)))) == read.sheet


Probe = tuple[asyncio.Runner, ConsoleSession, Any, Path]


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Probe]:
    folder = tmp_path_factory.mktemp("hostile_sheets")
    runner = asyncio.Runner()
    storage = runner.run(open_storage(str(folder / "sheets.db")))
    engine = make_engine(str(folder / "sheets.db"))  # to look at what was stored
    session = ConsoleSession(BattleService(storage, SeededDice(3)), lang="ja", base_dir=folder)
    for line in ("/fort start rounds:3", "/pc add name:的"):
        reply = runner.run(session.handle(line))
        assert reply is not None and reply.ok
    yield runner, session, engine, folder
    runner.run(storage.close())
    runner.run(engine.dispose())
    runner.close()


async def _stored(engine: Any) -> tuple[Any, ...]:
    async with engine.connect() as conn:
        head = await conn.run_sync(read_latest_head, "console", "console")
        assert head is not None
        state = (await conn.execute(select(battles.c.state).where(battles.c.id == head.id))).scalar()
        return head, state


@settings(max_examples=60, deadline=None)
@given(doc=hostile_sheets(), n=st.integers(0, 10**6))
def test_a_hostile_sheet_through_the_console_crashes_nothing_and_a_refusal_stores_nothing(
    probe: Probe, doc: dict[str, Any], n: int
) -> None:
    runner, session, engine, folder = probe
    (folder / "hostile.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    for line in (
        f"/pc add name:敵{n} file:hostile.json",
        "/pc sheet name:的 file:hostile.json",
        f"/unit add name:隊{n} type:normal area:A2 fort_damage:1 file:hostile.json part:1",
    ):
        before = runner.run(_stored(engine))
        reply = runner.run(session.handle(line))
        assert reply is not None
        assert limits.is_unicode(reply.text) and not any(
            limits.is_control(c) and c != "\n" for c in reply.text
        )
        assert "ボットの内部で問題" not in reply.text and "Something went wrong" not in reply.text, reply.text
        if not reply.ok:
            assert runner.run(_stored(engine)) == before, (line, reply.text)
