"""The rare commands, each a transaction job (``bot.service.jobs``) under the channel's lock: start
and import (a new battle), undo and redo, ``/gm add`` and ``/gm remove``.

A job reads the channel's battle as stored now, in its own write transaction that no other writer
of the channel can enter (the cached battle when it is at the stored version), checks rights there,
and writes; the battle it leaves is what this process holds next.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from bot import rulesets
from bot.commands import BuildContext, CommandSpec, Kind
from bot.rulesets import RulesetBinding
from bot.service import rights, undo
from bot.service.actions import build, mark_dice, restore_dice
from bot.service.cache import binding_of, check_ruleset
from bot.service.types import Actor, Invocation, Live, Refused, Where, encode
from bot.storage import repository as repo
from bot.storage.models import ACTION, ENDED, RUNNING
from bot.views import EventsView, View
from engine.ruleset import Event

if TYPE_CHECKING:
    from bot.service.battles import BattleService

R = TypeVar("R")
#: a job: the open transaction and the channel's battle as stored (None: there is none)
BattleJob = Callable[[AsyncConnection, Live | None], Awaitable[tuple[Live, R]]]


async def run_job(svc: BattleService, where: Where, job: BattleJob[R], *, on_battle: bool = True) -> R:
    """``job`` in a write transaction under the channel's lock; the battle it leaves is remembered.
    A refused or retried job gives its scripted dice back."""
    key = (where.guild, where.channel)
    dice = svc.dice_source()

    async def attempt(conn: AsyncConnection) -> tuple[Live, R]:
        mark = mark_dice(dice)
        try:
            return await job(conn, await svc.cache.current(where, conn) if on_battle else None)
        except BaseException:
            restore_dice(dice, mark)
            raise

    try:
        live, result = await svc.jobs.run(attempt, channel=key)
    except repo.VersionConflict:  # cannot happen under the channel's lock; said plainly if it does
        svc.cache.forget(key)
        raise Refused("service.battle_changed") from None
    svc.cache.remember(key, live)
    return result


async def on_battle(
    svc: BattleService, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec,
    options: dict[str, Any],
) -> View:  # fmt: skip
    """Undo, redo, ``/gm add`` and ``/gm remove``: a GM of the channel's battle as stored now."""

    async def job(conn: AsyncConnection, live: Live | None) -> tuple[Live, View]:
        if live is None:
            raise Refused("service.no_battle")
        check_ruleset(spec, live)
        is_gm = await svc.cache.is_gm(where, actor, live.head, conn)
        await svc.cache.check_gm_named(spec, is_gm, live.head, conn)
        if spec.kind in (Kind.UNDO, Kind.REDO):
            return await undo.undo_redo(conn, live, actor, spec, options["steps"], invocation)
        view = await rights.change_co_gm(conn, live.head, actor, spec, options["user"])
        svc.cache.drop_grants(live.head, options["user"])
        return live, view

    return await run_job(svc, where, job)


async def create(
    svc: BattleService, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec,
    options: dict[str, Any],
) -> View:  # fmt: skip
    """``start`` and ``import``: a new battle in the channel, whose GM is the invoker."""
    if spec.kind is Kind.IMPORT:
        document: dict[str, Any] = options["file"]
        binding = import_binding(spec, document)
    else:
        binding = binding_of(spec.ruleset)

    def begin() -> tuple[Any, tuple[Event, ...], dict[str, Any]]:
        """The new battle's state, its events and the command as logged."""
        if spec.kind is Kind.IMPORT:
            state = binding.ruleset.import_(document)
            binding.check_limits(state)
            imported = Event("service.imported", {"format": binding.export_format})
            return state, (imported,), {"command": "import", "document": document}
        command = build(spec, binding, options, BuildContext(invoker=actor.id, is_gm=True))
        outcome = binding.ruleset.apply(binding.new_state(), command, svc.dice_source())
        return outcome.state, tuple(outcome.events), binding.command_to_json(command)

    async def job(conn: AsyncConnection, _: Live | None) -> tuple[Live, View]:
        head = await repo.latest_head(conn, where.guild, where.channel)
        if head is not None and head.status == RUNNING:
            raise Refused("service.battle_running")
        state, events, command_json = begin()
        encoded = encode(binding, state)
        status = ENDED if binding.is_over(state) else RUNNING
        logged = [e.to_json() for e in events]
        row = repo.NewRow(ACTION, actor.id, invocation.log_text(), command_json, logged)
        try:
            battle_id = await repo.create_battle(
                conn, guild=where.guild, channel=where.channel, ruleset=binding.name,
                started_by=actor.id, state=encoded, status=status, row=row,
            )  # fmt: skip
        except repo.ChannelBusy:
            raise Refused("service.battle_running") from None
        new = repo.BattleHead(battle_id, binding.name, status, 1, actor.id)
        view = EventsView(
            ruleset=binding.name, command=row.command_text, actor=actor.id, seq=1, events=events,
            ended=status == ENDED,
        )  # fmt: skip
        live = Live(new, binding, state, encoded)
        live.snapshots = repo.Snapshots(state_seq=1, pending_bytes=0)
        return live, view

    return await run_job(svc, where, job, on_battle=False)


def import_binding(spec: CommandSpec, document: dict[str, Any]) -> RulesetBinding:
    """The rule set whose format an imported document names (the one of ``spec``'s group)."""
    binding = rulesets.by_format(str(document.get("format", "")))
    expected = binding_of(spec.ruleset) if spec.ruleset else None
    if "format" not in document:
        raise Refused(
            "service.import_no_format",
            expected=expected.export_format if expected else "toride.fort/1, toride.sengensho/1",
        )
    if binding is None or (expected is not None and binding is not expected):
        raise Refused(
            "service.import_format",
            format=str(document.get("format")),
            expected=expected.export_format if expected else "toride.fort/1, toride.sengensho/1",
        )
    return binding
