"""Commands that change no battle: ``status``, ``map``, ``export`` and ``log`` (the channel's battle as
committed, read from the storage), a rule set's planner (``/fort odds``, in worker processes) and
``/roll``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.commands import CommandSpec, Kind
from bot.i18n.names import CommandName
from bot.service import audience, history
from bot.service.actions import mark_dice, restore_dice
from bot.service.audience import TABLE, Viewer
from bot.service.cache import BattleCache, binding_of, check_ruleset
from bot.service.locks import ChannelLocks
from bot.service.planners import Planners
from bot.service.types import Actor, Invocation, Live, Refused, Where
from bot.storage.interface import Storage
from bot.storage.models import RUNNING
from bot.views import ExportView, LogView, MapView, RollView, StatusView, View
from engine.dice import DiceSource, RecordingDice
from engine.errors import EngineError


class ReadCommands:
    """``status``, ``map``, ``export``, ``log``: the channel's battle as committed, from the battles held
    (``cache``) and ``storage``."""

    def __init__(self, cache: BattleCache, storage: Storage) -> None:
        self.cache = cache
        self.storage = storage

    async def status_view(self, live: Live, viewer: Viewer = TABLE) -> StatusView:
        return StatusView(
            ruleset=live.binding.name,
            document=audience.document(live.binding, live.document(), viewer),
            gms=(live.head.started_by, *await self.storage.co_gms(live.head.id)),
            ended=live.head.status != RUNNING,
            battle_id=live.head.id,
            version=live.head.version,
        )

    async def viewer_of(self, where: Where, actor: Actor, live: Live) -> Viewer:
        return Viewer(actor.id, await self.cache.is_gm(where, actor, live.head))

    async def read(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        """A read shows what the whole table may know; with ``gm:true`` (and an export, always) what its
        reader may, to them only."""
        live = await self.cache.current(where)
        if live is None:
            raise Refused("service.no_battle")
        check_ruleset(spec, live)
        private = bool(options.get("gm")) or spec.kind is Kind.EXPORT
        viewer = await self.viewer_of(where, actor, live) if private else TABLE
        if spec.kind is Kind.EXPORT:
            return export(where, live, options, viewer)
        if spec.kind is Kind.STATUS:
            return replace(await self.status_view(live, viewer), ephemeral=viewer is not TABLE)
        if spec.kind is Kind.MAP:
            filename = f"{live.binding.name}-map-{where.channel}-{live.head.id}.png"
            return MapView(status=await self.status_view(live), filename=filename)
        assert spec.kind is Kind.LOG
        if live.binding.visible is None or viewer.gm:
            rows = await self.storage.log(live.head.id, options["last"])
            logged = audience.entries(tuple(history.entry(r) for r in rows), viewer)
        else:  # S-HIDE-1: numbered as the reader sees the log, secret actions left out
            whole = await history.whole_log(self.storage, live.head.id)
            numbered = audience.numbers(whole, viewer)
            logged = audience.entries(whole, viewer, numbered)[-options["last"] :]
        return LogView(ephemeral=viewer is not TABLE, entries=logged)


def export(where: Where, live: Live, options: Mapping[str, Any], viewer: Viewer) -> ExportView:
    """The battle's document as ``viewer`` may read it (to them only if that is more than the table
    may), or (``format:``) the text of another format (``ccfolia``: one line each)."""
    name = f"{live.binding.name}-{where.channel}-{live.head.id}"
    fmt = options.get("format") or "toride"
    exporter = live.binding.exporters.get(fmt)
    if exporter is None:
        whole = live.document()
        document = audience.document(live.binding, whole, viewer)
        return ExportView(
            ephemeral=document != audience.document(live.binding, whole, TABLE),
            ruleset=live.binding.name,
            document=document,
            filename=name + ".json",
        )
    return ExportView(
        ruleset=live.binding.name, filename=f"{name}-{fmt}.txt", text=exporter(live.state), format=fmt
    )


async def plan(
    cache: BattleCache, locks: ChannelLocks, planners: Planners, where: Where, spec: CommandSpec,
    options: Mapping[str, Any],
) -> View:  # fmt: skip
    """A rule set's planner (``/fort odds``: anyone, it changes nothing): its options read first, the
    battle read under the channel's lock, the planner run without it, in worker processes
    (``RuleSet.planner``)."""
    binding = binding_of(spec.ruleset)
    planner = planners.of(binding)
    if planner is None:
        raise Refused("service.not_supported", command=CommandName(spec.path), ruleset=binding.group)
    request = planner.request(options)
    async with locks.hold((where.guild, where.channel)):
        live = await cache.current(where)
    if live is None:
        raise Refused("service.no_battle")
    check_ruleset(spec, live)
    battle = f"{where.channel}-{live.head.id}"
    return await planner.answer(request, live.state, live.document(), (where.guild, where.channel), battle)


def roll(dice: DiceSource, actor: Actor, options: Mapping[str, Any]) -> View:
    from engine.dice import roll

    mark = mark_dice(dice)
    try:
        result = roll(options["expr"], RecordingDice(dice))
    except EngineError:
        restore_dice(dice, mark)
        raise
    return RollView(
        ephemeral=False,
        actor=actor.id,
        command=options["expr"],
        text=result.text,
        secret=bool(options["secret"]) or result.secret,
        comment=result.comment,
        rands=result.rands,
    )
