"""Hostile inputs as hypothesis strategies, and a probe that runs them through the console and the service.

Used by tests/service/test_hostile_properties.py (bounded for CI) and tools/fuzz_inputs.py (a long run).
The probe's properties: no exception escapes the console or the service; every reply is text a
terminal and Discord show as it is (valid Unicode, no control character but a line break); and a
refused command leaves the channel's stored battle byte-identical (state, version, log).
"""

from __future__ import annotations

import contextlib
import io
import json
import traceback
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.commands import CommandSpec, Option, OptType
from bot.console import app
from bot.console.session import ConsoleSession, Quit
from bot.registry import commands
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import make_engine, open_storage
from bot.storage.battles import read_latest_head
from bot.storage.interface import Storage
from bot.storage.tables import battles, events
from bot.views import ErrorView, View
from engine import limits
from engine.dice import SeededDice

CHANNEL = "fuzz"
NAMES = ("G", "Sol", "Alice", "隊長", "Ｇ", "g")
#: values that broke, or could break, a parser, the database or a terminal
NASTY = (
    "9" * 4301,
    "-" + "9" * 4301,
    "0" * 30 + "7",
    "100001",
    "-100001",
    "1e999",
    "NaN",
    "0x1F",
    "−5",
    "１０",
    "٣",
    "\ud800",
    "a\udfffb",
    "\x00",
    "\x1b[31mred\x1b[0m",
    "\u202eevil",
    "\u2066x\u2069",
    "\u2028",
    "\x85",
    "\ufeff",
    "\t",
    "",
    " ",
    '"',
    "'",
    "@",
    "<@123>",
    "<@&456>",
    "x" * 101,
    "名" * 33,
    "2d+100000",
    "999999d6",
    "K40+12@10",
    "2D6>=12",
    "[" * 50,
    "{}",
    "none",
)
hostile_text = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=40),
    st.text(st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Co"]), max_size=6),
    st.integers(-(10**7), 10**7).map(str),
)


def _values(spec: CommandSpec, opt: Option) -> st.SearchStrategy[str]:
    """Values for one option: mostly what the option means (choices, names, numbers, dice), some hostile."""
    sensible: list[st.SearchStrategy[str]] = []
    if opt.choices:
        sensible.append(st.sampled_from(opt.choices))
    if opt.type in (OptType.INT, OptType.DAMAGE):
        lo = opt.min if opt.min is not None else -5
        hi = opt.max if opt.max is not None else 50
        sensible.append(st.integers(lo, min(hi, lo + 60)).map(str))
    if opt.type is OptType.DAMAGE:
        sensible.append(st.sampled_from(("2d+3", "K20", "1d6")))
    if opt.type is OptType.BOOL:
        sensible.append(st.sampled_from(("true", "false", "はい")))
    if opt.type in (OptType.STR, OptType.USER, OptType.ROLE):
        sensible.append(st.sampled_from((*NAMES, "A1", "A2", "F0", "B1", "A2-A1", "fort.hp", "top")))
    if opt.type is OptType.FILE:
        sensible.append(st.sampled_from(("import.json", "nope.json", ".")))
    if not sensible:
        return hostile_text
    return st.one_of(*sensible * 4, hostile_text)


def _quoted(value: str) -> str:
    return f'"{value}"' if not value or any(c.isspace() for c in value) else value


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    """A console line: a command of the table with options it has (or not), or any text at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(hostile_text, hostile_text.map(lambda text: "/" + text)))
    table = commands()
    spec = table[draw(st.sampled_from(sorted(table)))]
    parts = ["/" + spec.path]
    for opt in spec.options:
        if draw(st.integers(0, 5)) < (5 if opt.required else 2):
            parts.append(f"{opt.name}:{_quoted(draw(_values(spec, opt)))}")
    if draw(st.integers(0, 5)) == 0:
        parts.insert(
            draw(st.integers(1, len(parts))), f"{_quoted(draw(hostile_text))}:{_quoted(draw(hostile_text))}"
        )
    users = st.sampled_from(("", "", "", "@alice ", "@gm ", "@bob "))
    user = draw(st.one_of(users, users, users, hostile_text.map(lambda u: f"@{u} ")))
    return user + " ".join(parts)


def base_documents() -> list[dict[str, Any]]:
    """Valid documents of both rule sets, which the mutations start from."""
    unit = {"name": "G", "type": "normal", "area": "A2", "hp": 30, "max_hp": 40, "fort_damage": 5}
    fort = {
        "format": "toride.fort/1",
        "title": "砦",
        "rounds": 3,
        "round": 1,
        "turn": "pc",
        "fort": {"hp": 200, "max_hp": 300},
        "pcs": [{"name": "Alice", "area": "F0", "position": "top", "hp": 20, "owner": "alice"}],
        "units": [unit, {**unit, "name": "Sol", "type": "soldier", "area": "F0"}],
        "commanders": [{"name": "隊長", "area": "A2", "hp": 30}],
        "traps": [{"kind": "mine", "edge": "A1-F0", "uses": 1}],
        "cannons": [{"shells": 2}, {"shells": 0}],
    }
    character = {"name": "霊夢", "dp": 10, "dp_max": 10, "recovery": 2, "side": "pc"}
    sengensho = {"format": "toride.sengensho/1", "title": "庭", "characters": [character]}
    return [fort, sengensho]


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False),
    hostile_text,
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=8,
)
#: raw JSON text no Python value gives: numbers of thousands of digits, NaN, deep brackets, escapes
RAW = (
    "9" * 5000,
    "-" + "9" * 5000,
    "1e400",
    "NaN",
    "Infinity",
    '"\\ud800"',
    '"\\udc00x"',
    '"\\u0000"',
    "[" * 100_000,
    '{"a":' * 30 + "1" + "}" * 30,
    "[" * 25 + "]" * 25,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, Mapping):
        for key, child in value.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, (*prefix, i))
    return out


def _put(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, *rest = path
    if isinstance(document, list):
        copy = list(document)
        copy[head] = _put(copy[head], tuple(rest), value)
        return copy
    return {**document, head: _put(document[head], tuple(rest), value)}


@st.composite
def import_documents(draw: st.DrawFn) -> str:
    """An import file's text: a valid document with values replaced by hostile ones, sometimes raw
    hostile JSON spliced in, a BOM, many units, or any text at all."""
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return draw(st.one_of(hostile_text, st.sampled_from(RAW)))
    document: Any = draw(st.sampled_from(base_documents()))
    for _ in range(draw(st.integers(0, 3))):
        path = draw(st.sampled_from(_paths(document)))
        document = _put(document, path, draw(json_value))
    if choice == 1 and isinstance(document, dict):
        count = draw(st.sampled_from((limits.MAX_UNITS, limits.MAX_UNITS + 1, 5000)))
        unit = {"name": "u", "type": "normal", "area": "A2", "hp": 1}
        document = {**document, "units": [{**unit, "name": f"u{i}"} for i in range(count)]}
    text = json.dumps(document, ensure_ascii=draw(st.booleans()))
    if choice == 2:
        spot = draw(st.integers(0, len(text)))
        text = text[:spot] + draw(st.sampled_from(RAW)) + text[spot:]
    if choice == 3:
        text = "\ufeff" + text
    return text


def _outcome(view: View) -> str:
    return view.key if isinstance(view, ErrorView) else "ok"


@dataclass
class Probe:
    """A console session and its service on a SQLite file; checks one input at a time."""

    storage: Storage
    #: on the same database, to look at what it stored
    engine: AsyncEngine
    session: ConsoleSession
    folder: Path
    inputs: int = 0
    refused: int = 0
    findings: list[str] = field(default_factory=list)
    #: how the replies went: ``ok``, or the refusal's key (``console`` for the console's own)
    outcomes: Counter[str] = field(default_factory=Counter)

    @classmethod
    async def open(cls, folder: Path) -> Probe:
        storage = await open_storage(str(folder / "fuzz.db"))
        engine = make_engine(str(folder / "fuzz.db"))
        service = BattleService(storage, SeededDice(5))
        session = ConsoleSession(service, channel=CHANNEL, lang="ja", base_dir=folder)
        probe = cls(storage, engine, session, folder)
        await probe._ensure_battle()
        return probe

    async def close(self) -> None:
        await self.storage.close()
        await self.engine.dispose()

    @property
    def service(self) -> BattleService:
        return self.session.service

    async def _stored(self, channel: str) -> tuple[Any, ...]:
        """Everything stored of the channel's latest battle: head, state text, log rows."""
        async with self.engine.connect() as conn:
            head = await conn.run_sync(read_latest_head, "console", channel)
            if head is None:
                return (None,)
            state = (await conn.execute(select(battles.c.state).where(battles.c.id == head.id))).scalar()
            count = select(func.count()).where(events.c.battle_id == head.id)
            return (head, state, (await conn.execute(count)).scalar())

    async def _ensure_battle(self) -> None:
        """A running fort battle in the probe's channel (a command may have ended it)."""
        head = (await self._stored(CHANNEL))[0]
        if head is None or head.status != "running":
            document = base_documents()[0]
            view = await self.service.execute(
                Where("console", CHANNEL), Actor("gm"), Invocation("fort import", {"file": document})
            )
            if not view.ok:
                self.findings.append(f"the base battle was refused: {view}")

    def _check_text(self, what: str, text: str) -> None:
        if not limits.is_unicode(text) or any(limits.is_control(c) and c != "\n" for c in text):
            self.findings.append(
                f"{what}: a reply holds control characters or invalid Unicode: {text!r:.300}"
            )

    async def line(self, text: str) -> None:
        """One console line through the session: no exception; a refusal changes nothing."""
        self.inputs += 1
        await self._ensure_battle()
        before = await self._stored(CHANNEL)
        try:
            reply = await self.session.handle(text)
        except Quit:
            return
        except Exception:
            self.findings.append(f"line {text!r:.200}: {traceback.format_exc(limit=-3)}")
            return
        if reply is None:
            return
        self.outcomes[_outcome(reply.view) if reply.view is not None else "console"] += 1
        self._check_text(f"line {text!r:.200}", reply.text)
        if not reply.ok:
            self.refused += 1
            if await self._stored(CHANNEL) != before:
                self.findings.append(
                    f"line {text!r:.200}: refused ({reply.text:.200}) but the battle changed"
                )

    async def document(self, text: str) -> None:
        """One import file, through the console (a file) and the service (as Discord hands it)."""
        self.inputs += 1
        path = self.folder / "import.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        group = "sg" if '"toride.sengensho/1"' in text else "fort"
        for n, how in enumerate(("console", "service")):
            channel = f"import-{self.inputs}-{n}"
            try:
                if how == "console":
                    session = ConsoleSession(self.service, channel=channel, lang="en", base_dir=self.folder)
                    reply = await session.handle(f"/{group} import file:import.json")
                    ok, shown = (reply.ok, reply.text) if reply is not None else (False, "")
                else:
                    view = await self.service.execute(
                        Where("console", channel), Actor("gm"), Invocation(f"{group} import", {"file": text})
                    )
                    ok, shown = view.ok, ""
                    self.outcomes[_outcome(view)] += 1
            except Exception:
                self.findings.append(f"import {how} {text!r:.200}: {traceback.format_exc(limit=-3)}")
                continue
            self._check_text(f"import {text!r:.200}", shown)
            if not ok:
                self.refused += 1
                if await self._stored(channel) != (None,):
                    self.findings.append(f"import {text!r:.200}: refused but a battle was stored")

    async def stdin(self, data: bytes) -> None:
        """Bytes on the console's standard input (not a terminal): read line by line, never a crash."""
        self.inputs += 1
        source = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                await app._lines(self.session, source)
        except Exception:
            self.findings.append(f"stdin {data!r:.200}: {traceback.format_exc(limit=-3)}")
        self._check_text(f"stdin {data!r:.200}", out.getvalue())


stdin_bytes = st.one_of(
    st.binary(max_size=80),
    command_lines().map(lambda line: line.encode("utf-8", "surrogatepass") + b"\n"),
    st.sampled_from(
        (b"\xef\xbb\xbf/fort status\n", b"\xff\xfe\n/fort status\n", b"\xc3\x28\n", b"/fort status\r\n")
    ),
)
