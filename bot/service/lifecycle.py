"""The rare commands, each a job of the storage's (``Storage.run``) under the channel's lock: start
and import (a new battle), undo and redo, ``/gm add`` and ``/gm remove``.

A job reads the channel's battle as stored now, in its own write transaction that no other writer
of the channel can enter (the cached battle when it is at the stored version), checks rights there,
and writes; the battle it leaves is what this process holds next. A job's rules run on the event
loop between its statements; the scripted dice it took are given back when it is refused, and before
it is run again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from bot.commands import BuildContext, CommandSpec, Kind
from bot.registry import rulesets
from bot.ruleset import RuleSet
from bot.service import rights, undo
from bot.service.actions import build, mark_dice, restore_dice
from bot.service.cache import BattleCache, binding_of, check_ruleset
from bot.service.types import Actor, Invocation, Live, Refused, Where, encode
from bot.storage.interface import Storage, Transaction
from bot.storage.models import ACTION, ENDED, NOTE, RUNNING
from bot.storage.plans import plan_write
from bot.storage.records import BattleHead, ChannelBusy, NewRow, Snapshots, VersionConflict
from bot.views import EventsView, NoticeView, View
from engine.dice import DiceSource
from engine.ruleset import Event

R = TypeVar("R")
#: a job on the channel's battle: its open transaction and the battle as stored (None: there is none)
BattleJob = Callable[[Transaction, Live | None], Awaitable[tuple[Live, R]]]


class Lifecycle:
    """The rare commands, on the battles held (``cache``), as jobs of ``storage``'s."""

    def __init__(self, cache: BattleCache, storage: Storage, dice: DiceSource) -> None:
        self.cache = cache
        self.storage = storage
        self.dice = dice

    async def _run(self, where: Where, job: BattleJob[R], *, on_battle: bool = True) -> R:
        """``job`` in a write transaction under the channel's lock; the battle it leaves is remembered.
        A refused job gives its scripted dice back, and one run again takes them again."""
        key = (where.guild, where.channel)
        mark = mark_dice(self.dice)

        async def attempt(transaction: Transaction) -> tuple[Live, R]:
            return await job(transaction, await self.cache.current(where, transaction) if on_battle else None)

        try:
            live, result = await self.storage.run(
                attempt, channel=key, reset=lambda: restore_dice(self.dice, mark)
            )
        except VersionConflict:  # cannot happen under the channel's lock; said plainly if it does
            restore_dice(self.dice, mark)
            self.cache.forget(key)
            raise Refused("service.battle_changed") from None
        except BaseException:
            restore_dice(self.dice, mark)
            raise
        self.cache.remember(key, live)
        return result

    async def on_battle(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        """Undo, redo, ``/gm add`` and ``/gm remove``: a GM of the channel's battle as stored now;
        ``/gm takeover``: a member with Manage Channels becomes one."""

        async def job(transaction: Transaction, live: Live | None) -> tuple[Live, View]:
            if live is None:
                raise Refused("service.no_battle")
            check_ruleset(spec, live)
            is_gm = await self.cache.is_gm(where, actor, live.head, transaction)
            if spec.kind is Kind.GM_TAKEOVER:
                return await takeover(transaction, live, actor, invocation, is_gm)
            await self.cache.check_gm_named(spec, is_gm, live.head, transaction)
            if spec.kind in (Kind.UNDO, Kind.REDO):
                return await undo.undo_redo(transaction, live, actor, spec, options["steps"], invocation)
            view = await rights.change_co_gm(transaction, live.head, actor, spec, options["user"])
            self.cache.drop_grants(live.head, options["user"])
            return live, view

        return await self._run(where, job)

    async def create(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        """``start`` and ``import``: a new battle in the channel, whose GM is the invoker, unless one
        runs there."""
        if spec.kind is Kind.IMPORT:
            document: dict[str, Any] = options["file"]
            binding = import_binding(spec, document)
        else:
            binding = binding_of(spec.ruleset)

        async def job(transaction: Transaction, before: Live | None) -> tuple[Live, View]:
            previous = None if before is None else (before.binding.name, before.document())
            state, events, command_json = begin(binding, spec, options, actor, self.dice, previous)
            encoded = encode(binding, state)
            status = ENDED if binding.is_over(state) else RUNNING
            logged = [e.to_json() for e in events]
            row = NewRow(ACTION, actor.id, invocation.log_text(), command_json, logged)
            try:
                battle_id = await transaction.create_battle(
                    guild=where.guild, channel=where.channel, ruleset=binding.name,
                    started_by=actor.id, state=encoded, status=status, row=row,
                )  # fmt: skip
            except ChannelBusy:
                raise Refused("service.battle_running") from None
            new = BattleHead(battle_id, binding.name, status, 1, actor.id)
            view = EventsView(
                ruleset=binding.name, command=row.command_text, actor=actor.id, seq=1, events=events,
                ended=status == ENDED,
            )  # fmt: skip
            return Live(new, binding, state, encoded, snapshots=Snapshots(state_seq=1, pending_bytes=0)), view

        # a start that begins where the channel's last battle ended reads that one (B-VIEW-2)
        after = spec.kind is Kind.START and options.get("from") is not None
        return await self._run(where, job, on_battle=after)


def begin(
    binding: RuleSet,
    spec: CommandSpec,
    options: dict[str, Any],
    actor: Actor,
    dice: DiceSource,
    previous: tuple[str, Mapping[str, Any]] | None = None,
) -> tuple[Any, tuple[Event, ...], dict[str, Any]]:
    """A new battle's state, its events and the command as logged (``start``: by the rules, with
    ``dice``; ``import``: the document read)."""
    if spec.kind is Kind.IMPORT:
        document: dict[str, Any] = options["file"]
        state = binding.ruleset.import_(document)
        binding.check_limits(state)
        imported = Event("service.imported", {"format": binding.export_format})
        return state, (imported,), {"command": "import", "document": document}
    command = build(spec, binding, options, BuildContext(invoker=actor.id, is_gm=True, previous=previous))
    outcome = binding.ruleset.apply(binding.new_state(), command, dice)
    return outcome.state, tuple(outcome.events), binding.command_to_json(command)


def import_binding(spec: CommandSpec, document: dict[str, Any]) -> RuleSet:
    """The rule set whose format an imported document names (the one of ``spec``'s group)."""
    binding = rulesets().by_format(str(document.get("format", "")))
    expected = binding_of(spec.ruleset) if spec.ruleset else None
    formats = expected.export_format if expected else ", ".join(r.export_format for r in rulesets())
    if "format" not in document:
        raise Refused("service.import_no_format", expected=formats)
    if binding is None or (expected is not None and binding is not expected):
        raise Refused("service.import_format", format=str(document.get("format")), expected=formats)
    return binding


async def takeover(
    transaction: Transaction, live: Live, actor: Actor, invocation: Invocation, is_gm: bool
) -> tuple[Live, View]:
    """``/gm takeover``: Manage Channels makes its member a co-GM of the channel's battle (a GM who left, a
    stuck table). The channel is told who took over, and the log keeps it (a note: no action, undo
    skips it). Not battle state: the battle's version moves only for the note's row."""
    if is_gm:
        raise Refused("gm.takeover_already")
    if not actor.manage_channels:
        raise Refused("gm.takeover_not_allowed")
    head = live.head
    await transaction.add_co_gm(head.id, actor.id, actor.id)
    note = Event("gm.took_over", {"user": actor.id})
    row = NewRow(
        kind=NOTE, actor=actor.id, command_text=invocation.log_text(), command={"command": "gm takeover"},
        events=[note.to_json()],
    )  # fmt: skip
    snapshots = live.snapshots if live.snapshots is not None else await transaction.snapshots(head.id)
    plan = plan_write(
        head, state=live.encoded(), status=head.status, row=row, discard_redo=False, snapshots=snapshots
    )
    written = await transaction.write(plan)
    new_head = BattleHead(head.id, head.ruleset, head.status, written.version, head.started_by)
    new = Live(new_head, live.binding, live.state, live.stored, live.has_redo, snapshots=written.snapshots)
    return new, NoticeView(key="gm.took_over", values={"user": actor.id})
