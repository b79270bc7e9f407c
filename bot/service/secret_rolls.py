"""Secret rolls kept with their channel (COMMANDS.md, ``/roll``): ``S2d6+5`` or ``secret:true`` (from
``/roll``, chat dice or a palette line) is shown to its roller, kept, listed to the channel's GMs with
``/roll secrets`` and shown to the channel by its roller or a GM with ``/roll reveal number:<n>``.

Discord cannot give one command both options and subcommands, so the two are words of ``/roll``'s own
``expr:`` (``/ダイス 秘密一覧``, ``/ダイス 公開 番号:3``), which is also what Discord's client fills in
when they are typed after the command's name; no dice command begins with them.

Who is a GM here: a member with the server's GM role, and the GMs of the channel's battle (its starter,
its co-GMs, one who took it over) while there is one. A player's ``/roll secrets`` lists
their own. Each roll is kept as data (its command, BCDice's text, its comment), not as a sentence, so a
reveal shows it in the reader's language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot.commands import nfkc
from bot.service.cache import BattleCache
from bot.service.locks import ChannelLocks
from bot.service.types import Actor, Refused, Where
from bot.storage.interface import Storage, Transaction
from bot.storage.records import KeptSecret
from bot.views import PaletteRollView, RevealView, RollView, SecretRoll, SecretsView, View
from engine.dice import DiceError, parse_command

#: the words of ``/roll expr:`` that list the channel's secret rolls
LIST_WORDS = frozenset({"secrets", "秘密一覧"})
#: the word of ``/roll expr:`` that reveals one, and the names its number may be given under
REVEAL_WORDS = frozenset({"reveal", "公開"})
_NUMBER = re.compile(r"^(?:(?:number|番号)\s*[:：]\s*|#|no\.?\s*)?(\d{1,9})$", re.IGNORECASE)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def request(expr: str) -> tuple[str, int | None] | None:
    """``("list", None)`` for ``secrets``, ``("reveal", n)`` for ``reveal number:n`` (``公開 3`` ...), None
    for anything else (a dice command). ``secrets.reveal_number`` if a reveal gives no number."""
    words = nfkc(expr).strip().split(None, 1)
    if not words:
        return None
    head = words[0].lower()
    if head in LIST_WORDS:
        if len(words) > 1:
            raise Refused("secrets.list_extra", extra=words[1])
        return ("list", None)
    if head not in REVEAL_WORDS:
        return None
    match = _NUMBER.match(words[1].strip()) if len(words) > 1 else None
    if match is None:
        raise Refused("secrets.reveal_number", given=words[1] if len(words) > 1 else "")
    return ("reveal", int(match.group(1)))


def private_roll(options: Mapping[str, Any]) -> bool:
    """Will ``/roll``'s reply be for its invoker alone (a secret roll, the list of them)? As typed,
    before the command runs; a reveal, a refusal or a command that does not parse: no."""
    expr = options.get("expr")
    if not isinstance(expr, str):
        return False
    if options.get("secret") in (True, "true", "True"):
        return True
    try:
        asked = request(expr)
        return asked == ("list", None) if asked is not None else parse_command(expr).secret
    except (Refused, DiceError):
        return False


def encode(view: RollView | PaletteRollView) -> str:
    """A secret roll as its row keeps it: what it showed, as data."""
    if isinstance(view, PaletteRollView):
        data: dict[str, Any] = {
            "kind": "palette", "pc": view.pc, "label": view.label, "expanded": view.expanded,
            "text": view.text,
        }  # fmt: skip
    else:
        data = {"kind": "roll", "command": view.command, "text": view.text, "comment": view.comment}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def decode(kept: KeptSecret) -> SecretRoll:
    """A kept row as the roll it was (a row that is not ours reads as its text, never fails)."""
    try:
        data = json.loads(kept.text)
    except ValueError:
        data = None
    if not isinstance(data, Mapping):
        data = {"kind": "roll", "text": kept.text}
    text = str(data.get("text", ""))
    roll: RollView | PaletteRollView
    if data.get("kind") == "palette":
        roll = PaletteRollView(
            actor=kept.roller, pc=str(data.get("pc", "")), label=str(data.get("label", "")),
            expanded=str(data.get("expanded", "")), text=text, secret=True, number=kept.number,
        )  # fmt: skip
    else:
        roll = RollView(
            actor=kept.roller, command=str(data.get("command", "")), text=text,
            comment=str(data.get("comment", "")), secret=True, number=kept.number,
        )  # fmt: skip
    at = kept.created_at if kept.created_at.tzinfo else kept.created_at.replace(tzinfo=UTC)
    return SecretRoll(kept.number, kept.roller, at, roll)


class SecretRolls:
    """Keeping, listing and revealing a channel's secret rolls."""

    def __init__(
        self, storage: Storage, cache: BattleCache, locks: ChannelLocks, clock: Clock = utc_now
    ) -> None:
        self.storage = storage
        self.cache = cache
        self.locks = locks
        self.clock = clock

    async def keep(self, where: Where, actor: Actor, view: View) -> View:
        """``view`` (a secret roll's) with its number in the channel once kept; any other view as it is."""
        if not isinstance(view, RollView | PaletteRollView) or not view.secret:
            return view
        text = encode(view)
        now = self.clock()

        async def job(transaction: Transaction) -> Any:
            return await transaction.keep_secret(where.guild, where.channel, actor.id, text, now)

        kept = await self.storage.run(job, channel=(where.guild, where.channel))
        dropped = tuple(s.number for s in kept.dropped)
        return replace(view, number=kept.secret.number, dropped=dropped)

    async def is_gm(self, where: Where, actor: Actor) -> bool:
        """The server's GM role, or a GM of the channel's battle (Manage Channels alone is not: a
        friends' server gives it to everyone, and a GM's secrets stay secret)."""
        role = (await self.storage.settings(where.guild)).gm_role_id
        if role is not None and role in actor.roles:
            return True
        async with self.locks.hold((where.guild, where.channel)):
            live = await self.cache.current(where)
            return live is not None and await self.cache.is_gm(where, actor, live.head)

    async def answer(self, where: Where, actor: Actor, asked: tuple[str, int | None]) -> View:
        what, number = asked
        gm = await self.is_gm(where, actor)
        kept = [decode(s) for s in await self.storage.secrets(where.guild, where.channel, self.clock())]
        if what == "list":
            shown = kept if gm else [s for s in kept if s.roller == actor.id]
            return SecretsView(secrets=tuple(shown), everyone=gm)
        assert number is not None
        found = next((s for s in kept if s.number == number), None)
        if found is None or not (gm or found.roller == actor.id):
            # a player is not told that another's roll of that number exists
            own = [s.number for s in kept if gm or s.roller == actor.id]
            if not own:
                raise Refused("secrets.none_to_reveal", number=number)
            if own[0] == own[-1]:
                raise Refused("secrets.no_such_one", number=number, only=own[0])
            raise Refused("secrets.no_such", number=number, first=own[0], last=own[-1])
        return RevealView(secret=found, by=actor.id)
