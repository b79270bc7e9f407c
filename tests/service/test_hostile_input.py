"""Hostile input gets a clear refusal, in the user's language, saying the limit, and changes nothing.

Each case of the issue has its test: the four inputs that crashed the console, the inputs no limit
held back, a BOM; and the limits of COMMANDS.md's Conventions (engine/limits.py), the same for
commands and for imports.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.commands import OptType
from bot.console.session import ConsoleSession
from bot.i18n import t
from bot.map_cli import read_battle
from bot.registry import commands
from bot.render.text import render
from bot.roll_cli import roll_jsonl
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.storage.tables import events
from bot.views import ErrorView, EventsView, View
from engine import limits
from engine.dice import SeededDice
from engine.errors import EngineError

# ``toride console`` in this process lives with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import console_bytes as run_console_bytes

HERE = Where("g", "c")
GM = Actor("gm")
HUGE = "9" * 4301  # one digit past Python's int() limit, which raised ValueError


async def execute(service: BattleService, path: str, where: Where = HERE, **options: Any) -> View:
    return await service.execute(where, GM, Invocation(path, options, "/" + path))


async def rows(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(events))).scalar_one())


def refused(view: View, key: str, **values: Any) -> ErrorView:
    assert isinstance(view, ErrorView) and view.key == key, view
    for name, value in values.items():
        assert view.values[name] == value, (name, view.values)
    for lang in ("ja", "en"):  # a sentence in each language, never a key or a Python value
        text = render(view, lang)
        assert view.key not in text and "Traceback" not in text
    return view


def fort_document(**changes: Any) -> dict[str, Any]:
    unit = {"name": "G", "type": "normal", "area": "A2", "hp": 10, "fort_damage": 1}
    return {"format": "toride.fort/1", "title": "t", "rounds": 3, "units": [unit], **changes}


def console_bytes(db: Path, script: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``toride console --db DB --lang en ARGS`` (in this process) with the bytes ``script`` on stdin."""
    return run_console_bytes(db, script, "--lang", "en", *args)


# --- the four inputs that crashed the console --------------------------------------------------------


async def test_an_integer_of_4301_digits_in_any_option(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, SeededDice(1))
    numbers = [
        (path, opt)
        for path, spec in commands().items()
        for opt in spec.options
        if opt.type in (OptType.INT, OptType.DAMAGE)
    ]
    assert {("attack area", "damage"), ("fort log", "last"), ("unit hp", "delta")} <= {
        (p, o.name) for p, o in numbers
    }
    for path, opt in numbers:
        for text in (HUGE, "-" + HUGE, "+" + HUGE, "0" * 5000 + "1" * 30):
            view = await execute(service, path, **{opt.name: text})
            error = refused(view, "command.out_of_range")
            assert (error.values["min"], error.values["max"]) == (
                opt.min if opt.min is not None else (0 if opt.type is OptType.DAMAGE else -limits.MAX_NUMBER),
                opt.max
                if opt.max is not None
                else (limits.MAX_HP if opt.type is OptType.DAMAGE else limits.MAX_NUMBER),
            )
    # in an imported document (json.loads raised ValueError past 4,300 digits)
    for number in (HUGE, "-" + HUGE, "NaN", "Infinity", "-Infinity"):
        text = '{"format": "toride.fort/1", "rounds": ' + number + "}"
        refused(await execute(service, "fort import", file=text), "command.json_number", digits=18)
    # through the rule sets' own parsing too: /gm set value:
    await execute(service, "fort start", rounds="3")
    refused(await execute(service, "gm set", target="fort.hp", value="1" * 99), "fort.gm_set_invalid")
    assert await rows(engine) == 1


async def test_a_deeply_nested_json_import(storage: Storage, engine: AsyncEngine, tmp_path: Path) -> None:
    service = BattleService(storage, SeededDice(1))
    for document in ("[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 21 + "1" + "}" * 21):
        refused(await execute(service, "fort import", file=document), "command.json_too_deep", max=20)
    deep = fort_document(extra=json.loads("[" * 20 + "]" * 20))  # 21 levels with the document itself
    refused(await execute(service, "fort import", file=json.dumps(deep)), "command.json_too_deep")
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    session = ConsoleSession(service, lang="en", base_dir=tmp_path)
    reply = await session.handle("/fort import file:deep.json")
    assert reply is not None and reply.text == "⚠ " + t("command.json_too_deep", "en", option="file", max=20)
    assert await rows(engine) == 0
    # every other reader of JSON a user hands in: a sheet, toride map, toride roll --jsonl
    await session.handle("/fort start rounds:3")
    reply = await session.handle("/pc add name:Alice sheet:deep.json")
    assert reply is not None and reply.text == "⚠ " + t("command.json_too_deep", "en", option="sheet", max=20)
    with pytest.raises(EngineError) as refused_map:
        read_battle(tmp_path / "deep.json")
    assert refused_map.value.key == "command.json_too_deep"
    out = io.StringIO()
    assert roll_jsonl(io.StringIO("[" * 100_000 + "\n" + '{"command": "2d6", "rands": [1, 2]}\n'), out) == 1
    assert [json.loads(line)["text"] for line in out.getvalue().splitlines()] == [
        None,
        "(2D6) ＞ 3[1,2] ＞ 3",
    ]


async def test_a_lone_surrogate_in_an_imported_title(
    storage: Storage, engine: AsyncEngine, tmp_path: Path
) -> None:
    service = BattleService(storage, SeededDice(1))
    text = json.dumps(fort_document(title="\ud800"))  # JSON's own escape: "\ud800"
    assert "\\ud800" in text
    refused(await execute(service, "fort import", file=text), "command.json_not_unicode")
    refused(
        await execute(service, "fort import", file=fort_document(title="a\udfffb")),
        "command.json_not_unicode",
    )
    refused(await execute(service, "fort start", rounds="3", title="\ud800"), "command.text_not_unicode")
    (tmp_path / "lone.json").write_text(text, encoding="utf-8")
    reply = await ConsoleSession(service, lang="ja", base_dir=tmp_path).handle("/fort import file:lone.json")
    assert reply is not None and not reply.ok and reply.text.encode("utf-8")  # printable, no surrogate
    assert await rows(engine) == 0


def test_invalid_utf8_on_the_console_stdin(tmp_path: Path) -> None:
    script = b"/fort start rounds:3 title:\xff\xfe\n/fort start rounds:2\n\xc3\x28\n/fort status\n"
    done = console_bytes(tmp_path / "b.db", script)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    lines = done.stdout.decode("utf-8").splitlines()
    assert lines[0] == "⚠ " + t("console.not_utf8", "en", line=1)
    assert lines[1].startswith("Fort battle begins: 2 rounds")
    assert "⚠ " + t("console.not_utf8", "en", line=3) in lines
    assert any(line.startswith("[Fort defense] Round 1/2") for line in lines)


# --- what no limit held back ---------------------------------------------------------------------


async def test_a_100000_character_title(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, SeededDice(1))
    title = "砦" * 100_000
    refused(await execute(service, "fort start", rounds="3", title=title), "command.text_too_long", max=100)
    refused(await execute(service, "sg start", title=title), "command.text_too_long", max=100)
    view = await execute(service, "fort import", file=fort_document(title=title))
    refused(view, "limits.text_too_long", what="title", max=100, length=100_000)
    view = await execute(service, "sg import", file={"format": "toride.sengensho/1", "title": title})
    refused(view, "limits.text_too_long", what="title")
    await execute(service, "fort start", rounds="3", title="x" * 100)  # 100 is allowed
    refused(await execute(service, "gm set", target="title", value="x" * 101), "command.text_too_long")
    assert await rows(engine) == 1


async def test_100000_imported_units(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, SeededDice(1))
    unit = {"name": "u", "type": "normal", "area": "A2", "hp": 10, "fort_damage": 1}
    many = fort_document(units=[{**unit, "name": f"u{i}"} for i in range(100_000)])
    text = json.dumps(many)
    assert len(text) > limits.IMPORT_MAX_BYTES
    refused(await execute(service, "fort import", file=text), "command.json_too_large", max=1000)
    some = fort_document(units=[{**unit, "name": f"u{i}"} for i in range(201)])
    view = await execute(service, "fort import", file=json.dumps(some))
    refused(view, "limits.too_many", what="units", max=200, count=201)
    assert "200" in render(view, "en") and "units" in render(view, "en")
    assert await rows(engine) == 0
    view = await execute(service, "fort import", file=json.dumps({**some, "units": some["units"][:200]}))
    assert isinstance(view, EventsView)


@pytest.mark.parametrize(
    "name", ["a\nb", "\x1b[31mred\x1b[0m", "nul\x00", "tab\tbed", "\u202eevil", "x\u2028y", "c\x85c1"]
)
async def test_names_with_newlines_ansi_escapes_and_nul(
    storage: Storage, engine: AsyncEngine, name: str
) -> None:
    service = BattleService(storage, SeededDice(1))
    await execute(service, "fort start", rounds="3")
    view = await execute(service, "unit add", name=name, type="normal", area="A2", hp="5", fort_damage="1")
    refused(view, "command.text_control", option="name")
    view = await execute(service, "pc add", name=name)
    refused(view, "command.text_control")
    units = [{"name": name, "type": "normal", "area": "A2", "hp": 1}]
    view = await execute(service, "fort import", Where("g", "i"), file=fort_document(units=units))
    error = refused(view, "limits.name", max=limits.NAME_MAX)
    for lang in ("ja", "en"):
        shown = render(error, lang)
        assert not any(limits.is_control(c) for c in shown), repr(shown)  # no forged line, no escape
    assert await rows(engine) == 1


def _at_the_limits(less: int) -> dict[str, Any]:
    """A battle with ``less`` fewer than the most PCs, units, commanders, traps and cannons."""
    return fort_document(
        pcs=[{"name": f"p{i}", "area": "F0", "position": "top"} for i in range(limits.MAX_PCS - less)],
        units=[
            {"name": f"u{i}", "type": "normal", "area": "A2", "hp": 1, "fort_damage": 0}
            for i in range(limits.MAX_UNITS - less)
        ],
        commanders=[{"name": f"c{i}", "area": "A2", "hp": 1} for i in range(limits.MAX_COMMANDERS - less)],
        traps=[{"kind": "barricade", "edge": "A2-A1", "uses": 1} for _ in range(limits.MAX_TRAPS - less)],
        cannons=[{"shells": 0} for _ in range(limits.MAX_CANNONS - less)],
    )


async def test_the_limits_of_commands_md_in_commands_and_imports_alike(storage: Storage) -> None:
    service = BattleService(storage, SeededDice(1))
    view = await execute(service, "fort start", Where("g", "x"), rounds="3", cannons="11")
    refused(view, "command.out_of_range", max=limits.MAX_CANNONS)
    assert isinstance(await execute(service, "fort import", file=_at_the_limits(1)), EventsView)
    adds = {
        "pcs": lambda n: ("pc add", {"name": f"new{n}"}),
        "units": lambda n: ("unit add", {"name": f"new{n}", "type": "normal", "area": "A2", "hp": "1", "fort_damage": "0"}),  # noqa: E501
        "commanders": lambda n: ("commander add", {"name": f"new{n}", "hp": "1"}),
        "traps": lambda n: ("trap set", {"kind": "mine", "edge": "A1-F0", "uses": "1"}),
    }  # fmt: skip
    n = 0
    for what, add in adds.items():
        path, options = add(n := n + 1)
        assert isinstance(await execute(service, path, **options), EventsView), what  # the last one allowed
        path, options = add(n := n + 1)
        refused(await execute(service, path, **options), "limits.too_many", what=what)
    at_most = _at_the_limits(0)
    assert isinstance(await execute(service, "fort import", Where("g", "copy"), file=at_most), EventsView)
    for key in ("pcs", "units", "commanders", "traps", "cannons"):
        one_more = {**at_most, key: [*at_most[key], {**at_most[key][0], "name": "extra"}]}
        if key in ("traps", "cannons"):
            one_more[key] = [*at_most[key], at_most[key][0]]
        view = await execute(service, "fort import", Where("g", f"over-{key}"), file=one_more)
        error = refused(view, "limits.too_many", what=key)
        assert str(error.values["max"]) in render(error, "ja")
    # HP and damage up to 100,000
    view = await execute(
        service, "unit add", name="big", type="normal", area="A2", hp="100001", fort_damage="0"
    )
    refused(view, "command.out_of_range", max=limits.MAX_HP)
    refused(
        await execute(service, "attack area", unit="u0", damage="100001", radius="1"), "command.out_of_range"
    )
    big = fort_document(units=[{"name": "G", "type": "normal", "area": "A2", "hp": 100_001}])
    refused(await execute(service, "fort import", Where("g", "big"), file=big), "limits.number", max=100_000)


async def test_a_utf8_bom_is_accepted_by_the_console(storage: Storage, tmp_path: Path) -> None:
    service = BattleService(storage, SeededDice(1))
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(fort_document()).encode())
    session = ConsoleSession(service, lang="en", base_dir=tmp_path)
    reply = await session.handle("\ufeff/fort import file:bom.json")
    assert reply is not None and reply.ok, reply
    done = console_bytes(tmp_path / "stdin.db", b"\xef\xbb\xbf/fort start rounds:3\n")
    assert done.stdout.decode("utf-8").startswith("Fort battle begins: 3 rounds"), done


async def test_the_channel_lock_table_is_bounded(storage: Storage) -> None:
    service = BattleService(storage, SeededDice(1), cache_size=10)
    for i in range(300):
        await execute(service, "fort status", Where("g", f"c{i}"))
        await execute(service, "fort start", Where("g", f"c{i % 30}"), rounds="1")
    assert len(service._locks) == 0  # nobody holds or waits for a lock: no entry is kept
    assert len(service._live) <= 10


def test_every_limit_refusal_says_its_limit_in_both_languages() -> None:
    from bot.i18n import catalogue, placeholders

    option_keys = {
        f"command.text_{p}": ("option", "value", "max", "length")
        for p in ("not_unicode", "control", "too_long")
    }
    option_keys |= {
        "command.json_too_large": ("option", "max"),
        "command.json_too_deep": ("option", "max"),
        "command.json_number": ("option", "digits"),
        "command.json_not_unicode": ("option",),
    }
    for lang in ("ja", "en"):
        entries = catalogue(lang)
        for key, values in {**limits.REFUSALS, **option_keys}.items():
            assert key in entries, (lang, key)
            assert placeholders(entries[key]) <= set(values), (lang, key)
            limit = {"max", "digits"} & set(values)
            if limit and key not in (
                "command.text_not_unicode",
                "command.text_control",
                "limits.text_control",
                "limits.text_not_unicode",
            ):
                assert placeholders(entries[key]) & limit, (lang, key)  # the sentence says the limit


async def test_free_texts_of_an_import_are_held_to_the_limits_too(
    storage: Storage, engine: AsyncEngine
) -> None:
    service = BattleService(storage, SeededDice(1))
    unit = {"name": "G", "type": "normal", "area": "A2", "hp": 1, "weakness": "炎\n+3"}
    view = await execute(service, "fort import", file=fort_document(units=[unit]))
    refused(view, "limits.text_control", what="weakness")
    boss = {"name": "隊長", "area": "A2", "hp": 1, "horn": "x" * 101}
    view = await execute(service, "fort import", file=fort_document(commanders=[boss]))
    refused(view, "limits.text_too_long", what="horn", max=100)
    assert await rows(engine) == 0
