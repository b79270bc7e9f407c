"""Palettes anywhere (COMMANDS.md, ``/palette``): a user rolls a line of their own character's chat palette
in any channel of a server: a PC of theirs in the channel's battle, or a sheet they registered on the
server (``/palette register sheet:``, kept per user and server); chat dice fill a pasted line's
``{変数}`` from the same.

As for ``/roll secrets``, Discord cannot give ``/palette`` subcommands beside its options, so there
``register`` and ``forget`` are the words of its ``line:`` (``/パレット 登録 シート:<URL>``), which is
where Discord's client puts them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.commands import nfkc
from bot.commands.sheet_source import read_given
from bot.i18n.names import TextList
from bot.service.actions import mark_dice, restore_dice
from bot.service.cache import BattleCache
from bot.service.locks import ChannelLocks
from bot.service.types import Actor, Refused, Where
from bot.storage.interface import Storage, Transaction
from bot.storage.records import RegisteredSheet
from bot.storage.user_sheets import CAP
from bot.views import NoticeView, PaletteRollView
from engine.common import fold
from engine.dice import DiceSource, RecordingDice
from engine.errors import EngineError
from engine.palette import OwnPalette, choices, expand, parse_palette, roll_line
from engine.sheets.model import MonsterSheet, sheet_from_json, sheet_to_json
from engine.sheets.palette_gen import combined_palette, sheet_variables

#: the words of ``/palette line:`` that register a sheet, and that forget one
REGISTER_WORDS = frozenset({"register", "登録"})
FORGET_WORDS = frozenset({"forget", "登録解除"})
#: how many users' registered sheets a process keeps in memory (chat dice read them often)
USERS_KEPT = 2_000


def request(line: str) -> tuple[str, str] | None:
    """``("register", "")`` or ``("forget", name)`` for ``/palette``'s words, None for a palette line."""
    words = nfkc(line).strip().split(None, 1)
    if not words:
        return None
    head = words[0].lower()
    if head in REGISTER_WORDS:
        return ("register", words[1].strip() if len(words) > 1 else "")
    if head in FORGET_WORDS:
        return ("forget", words[1].strip() if len(words) > 1 else "")
    return None


@dataclass(frozen=True, slots=True)
class Found:
    """A palette the user may roll, and where it is: ``battle`` (a PC of the channel's battle) or
    ``sheet`` (a sheet they registered)."""

    own: OwnPalette
    origin: str


def _encode(hp: int | None, move: int | None, sheet: Any) -> str:
    return json.dumps({"hp": hp, "move": move, "sheet": sheet}, ensure_ascii=False, separators=(",", ":"))


def registered_palette(kept: RegisteredSheet) -> OwnPalette | None:
    """A registered sheet's palette (None: a row this program cannot read any more, never a failure)."""
    try:
        data = json.loads(kept.sheet)
        sheet = sheet_from_json(data["sheet"])
        hp = data.get("hp")
        hp = hp if isinstance(hp, int) else None
        move = data.get("move")
        move = move if isinstance(move, int) else None
        palette = parse_palette(combined_palette(sheet, kept.palette, hp))
    except (ValueError, KeyError, TypeError, EngineError):
        return None
    values = {fold(k): v for k, v in sheet_variables(sheet, hp, hp, move).items()}
    return OwnPalette(kept.name, palette, values)


class Palettes:
    """``/palette``: registering sheets, rolling a line, the lines autocomplete offers, chat's values."""

    def __init__(self, storage: Storage, cache: BattleCache, locks: ChannelLocks, dice: DiceSource) -> None:
        self.storage = storage
        self.cache = cache
        self.locks = locks
        self.dice = dice
        self._kept: dict[tuple[str, str], list[RegisteredSheet]] = {}

    # --- where a user's palettes are ---------------------------------------------------------

    async def registered(self, guild: str, user: str) -> list[RegisteredSheet]:
        key = (guild, user)
        kept = self._kept.get(key)
        if kept is None:
            kept = await self.storage.user_sheets(guild, user)
            if len(self._kept) >= USERS_KEPT:
                self._kept.pop(next(iter(self._kept)))
            self._kept[key] = kept
        return kept

    async def found(self, where: Where, actor: Actor) -> list[Found]:
        """The user's palettes here: their PCs in the channel's battle first, then their sheets."""
        out: list[Found] = []
        async with self.locks.hold((where.guild, where.channel)):
            live = await self.cache.current(where)
        if live is not None and live.binding.palettes is not None:
            names = (actor.id, *actor.names)
            out.extend(Found(own, "battle") for own in live.binding.palettes(live.state, actor.id, names))
        taken = {fold(f.own.name) for f in out}
        for kept in await self.registered(where.guild, actor.id):
            own = registered_palette(kept)
            if own is not None and fold(own.name) not in taken:
                out.append(Found(own, "sheet"))
        return out

    @staticmethod
    def pick(found: list[Found], name: str | None) -> Found:
        """The palette ``name`` names, or the only one (a PC of the battle before a registered sheet)."""
        names = TextList(tuple(f.own.name for f in found))
        if not found:
            raise Refused("palette.none_of_yours")
        if name:
            for f in found:
                if fold(f.own.name) == fold(name):
                    return f
            raise Refused("palette.no_such_character", name=name, names=names)
        battle = [f for f in found if f.origin == "battle"]
        if len(battle) == 1:
            return battle[0]
        if len(found) == 1:
            return found[0]
        raise Refused("palette.which_character", names=names)

    # --- the commands --------------------------------------------------------------------------

    async def command(self, where: Where, actor: Actor, options: Mapping[str, Any]) -> Any:
        """``/palette line: [name:] [secret:]`` (or its words ``register``, ``forget``)."""
        line = str(options.get("line") or "")
        asked = request(line)
        if asked is not None and asked[0] == "register":
            if asked[1]:  # a URL typed after the word: Discord fetches only ``sheet:``
                raise Refused("palette.register_where")
            return await self.register(where, actor, options)
        if asked is not None:
            return await self.forget(where, actor, asked[1] or options.get("name"))
        if options.get("sheet") is not None or options.get("file") is not None:
            raise Refused("palette.sheet_without_register")
        return await self.roll(where, actor, options.get("name"), line, bool(options.get("secret")))

    async def register(self, where: Where, actor: Actor, options: Mapping[str, Any]) -> NoticeView:
        read = read_given(options)
        if read is None:
            raise Refused("palette.register_where")
        if isinstance(read, MonsterSheet):
            raise Refused("sheet.monster_for_pc", name=read.name)
        name = (read.name or "").strip()
        if not name:
            raise Refused("palette.sheet_unnamed")
        palette = parse_palette(combined_palette(read.sheet, read.palette, read.hp))
        if not palette.lines:
            raise Refused("palette.sheet_no_lines", name=name)
        kept = RegisteredSheet(
            name=name[:128],
            sheet=_encode(read.hp, read.move, sheet_to_json(read.sheet)),
            palette=read.palette,
            source=read.sheet.source or "",
            updated_at=datetime.now(UTC),
        )

        async def job(transaction: Transaction) -> bool | None:
            return await transaction.keep_user_sheet(where.guild, actor.id, fold(name), kept)

        replaced = await self.storage.run(job)
        self._kept.pop((where.guild, actor.id), None)
        if replaced is None:
            raise Refused("palette.too_many", max=CAP)
        key = "palette.registered_again" if replaced else "palette.registered"
        return NoticeView(key=key, values={"name": name, "lines": len(palette.lines)}, ephemeral=True)

    async def forget(self, where: Where, actor: Actor, name: Any) -> NoticeView:
        if not name:
            raise Refused("palette.forget_which")

        async def job(transaction: Transaction) -> bool:
            return await transaction.forget_user_sheet(where.guild, actor.id, fold(str(name)))

        done = await self.storage.run(job)
        self._kept.pop((where.guild, actor.id), None)
        if not done:
            kept = tuple(s.name for s in await self.registered(where.guild, actor.id))
            if not kept:
                raise Refused("palette.forget_none", name=name)
            raise Refused("palette.forget_unknown", name=name, names=TextList(kept))
        return NoticeView(key="palette.forgotten", values={"name": name}, ephemeral=True)

    async def roll(self, where: Where, actor: Actor, name: Any, line: str, secret: bool) -> PaletteRollView:
        found = self.pick(await self.found(where, actor), name)
        mark = mark_dice(self.dice)
        try:
            expanded, result = roll_line(found.own.palette, line, found.own.values, RecordingDice(self.dice))
        except BaseException:
            restore_dice(self.dice, mark)
            raise
        chosen = expanded.line
        return PaletteRollView(
            actor=actor.id,
            pc=found.own.name,
            label=chosen.label,
            expanded=expanded.command,
            text=result.text,
            secret=secret or result.secret,
            rands=result.rands,
        )

    async def lines(self, where: Where, actor: Actor, name: str | None) -> list[str]:
        """What autocomplete offers for ``line:``: the chosen palette's lines in the sheet's order."""
        try:
            found = self.pick(await self.found(where, actor), name)
        except Refused:
            return []
        return choices(found.own.palette)

    async def expand_chat(self, where: Where, actor: Actor, text: str) -> str:
        """A chat message's first line with its ``{変数}`` filled in from the user's own palette here
        (the one ``/palette`` would roll, else the sheet registered last; the message as it was if they
        have none)."""
        found = await self.found(where, actor)
        if not found:
            return text
        try:
            own = self.pick(found, None).own
        except Refused:  # several: the one registered last
            own = next((f.own for f in found if f.origin == "sheet"), found[0].own)
        defined = own.palette.definitions()

        def lookup(key: str) -> str | None:
            value = defined.get(key)
            return value if value else own.values.get(key, value)

        first, newline, rest = text.partition("\n")
        try:  # an unknown name stays as written: the line is then no command, and nothing is answered
            return expand(first, lookup, strict=False) + newline + rest
        except EngineError:  # a variable of the palette that names itself
            return text
