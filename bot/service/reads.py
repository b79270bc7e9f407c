"""Commands that change no battle: ``status``, ``map``, ``export`` and ``log`` (the channel's battle as
committed, read by the storage reader, ``bot.storage.reader``), ``/fort odds`` (the planner, in a
worker process) and ``/roll``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.commands import CommandSpec, Kind
from bot.service import audience, history
from bot.service.actions import mark_dice, restore_dice
from bot.service.audience import TABLE, Viewer
from bot.service.cache import check_ruleset
from bot.service.odds import plan_request
from bot.service.types import Actor, Invocation, Live, Refused, Where
from bot.storage import repository as repo
from bot.storage.models import RUNNING
from bot.views import ExportView, LogView, MapView, OddsView, RollView, StatusView, View
from engine.dice import DiceSource, RecordingDice
from engine.errors import EngineError

if TYPE_CHECKING:
    from bot.service.battles import BattleService


async def status_view(svc: BattleService, live: Live, viewer: Viewer = TABLE) -> StatusView:
    return StatusView(
        ruleset=live.binding.name,
        document=audience.document(live.binding, live.document(), viewer),
        gms=(live.head.started_by, *await svc.reader.run(repo.read_co_gms, live.head.id)),
        ended=live.head.status != RUNNING,
        battle_id=live.head.id,
        version=live.head.version,
    )


async def viewer_of(svc: BattleService, where: Where, actor: Actor, live: Live) -> Viewer:
    return Viewer(actor.id, await svc.cache.is_gm(where, actor, live.head))


async def read(
    svc: BattleService, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec,
    options: dict[str, Any],
) -> View:  # fmt: skip
    """``status``, ``map``, ``export``, ``log``: the channel's battle as committed.

    A read shows what the whole table may know; with ``gm:true`` (and an export, always) what its
    reader may, to them only.
    """
    live = await svc.cache.current(where)
    if live is None:
        raise Refused("service.no_battle")
    check_ruleset(spec, live)
    private = bool(options.get("gm")) or spec.kind is Kind.EXPORT
    viewer = await viewer_of(svc, where, actor, live) if private else TABLE
    if spec.kind is Kind.EXPORT:
        return export(where, live, options, viewer)
    if spec.kind is Kind.STATUS:
        return replace(await status_view(svc, live, viewer), ephemeral=viewer is not TABLE)
    if spec.kind is Kind.MAP:
        filename = f"{live.binding.name}-map-{where.channel}-{live.head.id}.png"
        return MapView(status=await status_view(svc, live), filename=filename)
    assert spec.kind is Kind.LOG
    if live.binding.visible is None or viewer.gm:
        rows = await svc.reader.run(repo.read_log, live.head.id, options["last"])
        logged = audience.entries(tuple(history.entry(r) for r in rows), viewer)
    else:  # S-HIDE-1: numbered as the reader sees the log, secret actions left out
        whole = await svc.reader.run(history.read_whole_log, live.head.id)
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


async def odds(svc: BattleService, where: Where, spec: CommandSpec, options: Mapping[str, Any]) -> View:
    """``/fort odds`` (anyone: it changes nothing): the battle read under the channel's lock, the
    planner run without it, in a worker process (``bot.service.odds``)."""
    request = plan_request(options)
    async with svc.channel_lock(where):
        live = await svc.cache.current(where)
    if live is None:
        raise Refused("service.no_battle")
    check_ruleset(spec, live)
    if live.binding.is_over(live.state):
        raise Refused("odds.battle_over")
    document = live.document()
    result = await svc.odds.run(document, request, (where.guild, where.channel))
    filename = f"{live.binding.name}-odds-{where.channel}-{live.head.id}-{request.seed}.png"
    return OddsView(title=str(document.get("title") or ""), result=result, filename=filename)


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
