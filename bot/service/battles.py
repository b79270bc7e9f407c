"""BattleService: load the channel's battle, check rights, apply the engine, store, answer a view.

Commands for one channel never interleave. In this process an ``asyncio.Lock`` per channel
(``ChannelLocks``) queues them; across processes every write runs as a job of the ``Writer``,
which takes the channel's database lock first, so the command reads the channel's *current*
battle and version, checks rights, applies the rules and writes, all in one transaction that no
other writer of the channel can enter. A battle started in the channel by another process, an
action or a ``/gm remove`` made there, is seen before the command is applied, never after.
State and log row are committed together, and the reply is built only after the commit.

The commands split by kind: lifecycle (start, import) and engine commands here, undo and redo in
``bot.service.undo``, GM rights and the co-GM commands in ``bot.service.rights``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot import rulesets
from bot.command_names import topic_specs
from bot.commands import BuildContext, CommandSpec, Kind, QueryContext, convert, lookup
from bot.rulesets import RulesetBinding
from bot.service import audience, history, rights, undo
from bot.service.audience import TABLE, Viewer
from bot.service.odds import OddsRunner, plan_request
from bot.service.types import Actor, Invocation, Live, Refused, Where
from bot.service.writer import ChannelLocks, Writer
from bot.storage import docpatch
from bot.storage import repository as repo
from bot.storage.models import ACTION, ENDED, RUNNING
from bot.views import (
    ErrorView,
    EventsView,
    ExportView,
    HelpView,
    LogView,
    MapView,
    OddsView,
    RollView,
    StatusView,
    View,
)
from engine import limits
from engine.dice import DiceSource, RecordingDice, ScriptedDice, SeededDice
from engine.errors import EngineError
from engine.ruleset import Event

#: how often a read outside the lock reads the channel's head again when a write came between
RETRIES = 4
#: how many channels' battles stay loaded in memory
CACHE_SIZE = 1000
#: how many (battle, member) rights read from the database are kept (``BattleService._is_gm``)
GRANTS_KEPT = 10_000

R = TypeVar("R")
#: a write job of the service: the open transaction and the channel's battle (None: there is none)
_Job = Callable[[AsyncConnection, Live | None], Awaitable[tuple[Live, R]]]


class BattleService:
    def __init__(
        self,
        engine: AsyncEngine,
        dice: DiceSource | None = None,
        *,
        retries: int = RETRIES,
        cache_size: int = CACHE_SIZE,
        odds: OddsRunner | None = None,
        fast_lane: bool = True,
    ) -> None:
        self.engine = engine
        #: where ``/fort odds`` runs its plans (worker processes)
        self.odds = odds if odds is not None else OddsRunner()
        self._dice = dice if dice is not None else SeededDice()
        self._retries = retries
        self._locks = ChannelLocks()
        # the live states of recently used channels (least recently used dropped past ``cache_size``)
        self._live: OrderedDict[tuple[str, str], Live] = OrderedDict()
        self._cache_size = cache_size
        self._grants: OrderedDict[tuple[int, str], repo.Grants] = OrderedDict()
        #: ``fast_lane``: actions decided on the cached battle are written through the writer's fast lane
        self._writer = Writer(engine, clean=(Refused, EngineError, repo.VersionConflict), fast=fast_lane)
        #: how many commands found their cached battle stale and ran again on the stored one
        self.conflicts = 0

    async def close(self) -> None:
        """Close what the service opened besides the engine (the writer's own database connection)."""
        await self._writer.close()

    # -----------------------------------------------------------------------------------------
    # entry points

    async def execute(self, where: Where, actor: Actor, invocation: Invocation) -> View:
        """Run one command; every refusal is an ``ErrorView`` and changes nothing."""
        try:
            if limits.text_problem(actor.id, limits.NAME_MAX) is not None or not actor.id:
                raise Refused("service.actor_invalid", max=limits.NAME_MAX)
            spec = lookup(invocation.path)
            options = convert(spec, invocation.options)
            if spec.kind is Kind.ROLL:
                return self._roll(actor, options)
            if spec.kind is Kind.GM_ROLE:
                async with self._writer.transaction() as conn:
                    return await rights.set_gm_role(conn, where, actor, options["role"])
            if spec.kind is Kind.ODDS:
                return await self._odds(where, spec, options)
            if spec.kind is Kind.HELP:  # no battle needed; an unknown topic is refused here
                topic = options["command"] or ""
                topic_specs(topic)
                return HelpView(topic=topic)
            async with self._locks.hold((where.guild, where.channel)):
                return await self._run(where, actor, invocation, spec, options)
        except Refused as refused:
            return refused.view
        except EngineError as error:
            return ErrorView(key=error.key, values=dict(error.values))

    async def status(self, where: Where, actor: Actor | None = None) -> StatusView | None:
        """The channel's battle (running, or the last one ended) of any rule set; None if there is none.

        For front-ends that show a battle without a command: the live status message (what the whole
        table may read), autocomplete (what ``actor`` may read).
        """
        async with self._locks.hold((where.guild, where.channel)), self.engine.connect() as conn:
            live = await self._current(conn, where)
            if live is None:
                return None
            viewer = TABLE if actor is None else await self._viewer(conn, where, actor, live)
            return await self._status_view(conn, live, viewer)

    async def status_message(self, battle_id: int) -> int | None:
        """The id of the message a front-end keeps the battle's live status in (None: not stored)."""
        async with self.engine.connect() as conn:
            return await repo.status_message(conn, battle_id)

    async def set_status_message(
        self, battle_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Keep (or, with None, forget) the battle's status message id with the battle, and the
        battle version it shows."""
        async with self._writer.transaction() as conn:
            await repo.set_status_message(conn, battle_id, message_id, version)

    async def stale_status_messages(self) -> list[Where]:
        """Where a running battle's status message shows an older version than the battle's."""
        async with self.engine.connect() as conn:
            return [Where(guild, channel) for guild, channel in await repo.stale_status_messages(conn)]

    def dice_source(self) -> DiceSource:
        """Where this service's dice come from (a seeded source, or the console's script)."""
        return self._dice

    async def language(self, guild: str) -> str:
        async with self.engine.connect() as conn:
            return (await repo.get_settings(conn, guild)).language

    async def set_language(self, guild: str, language: str) -> None:
        async with self._writer.transaction() as conn:
            await repo.set_language(conn, guild, language)

    # -----------------------------------------------------------------------------------------
    # dispatch

    async def _run(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        kind = spec.kind
        if kind in (Kind.START, Kind.IMPORT):
            return await self._create(where, actor, invocation, spec, options)
        if kind in (Kind.STATUS, Kind.MAP, Kind.EXPORT, Kind.LOG):
            return await self._read(where, actor, spec, options)

        async def job(conn: AsyncConnection, live: Live | None) -> tuple[Live, View | _Applied]:
            if live is None:
                raise Refused("service.no_battle")
            self._check_ruleset(spec, live)
            is_gm = await self._is_gm(conn, where, actor, live.head)
            await rights.check_gm_named(conn, spec, is_gm, live.head)
            if kind in (Kind.UNDO, Kind.REDO):
                return await undo.undo_redo(conn, live, actor, spec, options["steps"], invocation)
            if kind in (Kind.GM_ADD, Kind.GM_REMOVE):
                return live, await rights.change_co_gm(conn, live.head, actor, spec, options["user"])
            command = None
            if kind is Kind.QUERY:  # a view of the battle (nothing changes), or a command to apply
                if spec.query is None:
                    group = live.binding.group
                    raise Refused("service.not_supported", command="/" + spec.path, ruleset=group)
                answer = spec.query(live.state, options, QueryContext(actor.id, is_gm, self.dice_source()))
                if isinstance(answer, View):
                    return live, answer
                command = answer
            return await self._engine_command(conn, live, actor, is_gm, invocation, spec, options, command)

        def decide(live: Live) -> tuple[Live, _Applied, repo.WritePlan] | None:
            """An engine command decided on the battle this process holds, without the database (None:
            it needs the database, as for rights not read yet): its write is checked when stored."""
            if live.snapshots is None:
                return None
            self._check_ruleset(spec, live)
            held = None
            if rights.gm_by_itself(actor, live.head):
                is_gm = True
            else:
                held = self._grants.get((live.head.id, actor.id))
                if held is None:
                    return None
                is_gm = rights.gm_by_grants(actor, held)
            if spec.gm and not is_gm:
                return None  # refused with the database, which names the battle's GMs
            return self._engine_plan(
                live, actor, is_gm, invocation, spec, options, None, live.snapshots, held
            )

        # a query's answer and the co-GMs change no battle, so no write checks the cached battle's
        # version: they read the stored one
        fresh = kind in (Kind.QUERY, Kind.GM_ADD, Kind.GM_REMOVE)
        live, view = await self._write(
            where, job, trust_cache=not fresh, decide=decide if kind is Kind.ENGINE else None
        )
        if isinstance(view, _Applied):
            done = view.events
            summaries = await history.summaries(
                self.engine, live.binding, live.head.id, done.seq, done.events, live.document
            )
            answer = replace(done, summaries=summaries)
            shown: View = audience.events_view(answer, live.binding, view.viewer, view.secret_text)
            return shown
        return view

    async def _write(
        self,
        where: Where,
        job: _Job[R],
        *,
        on_battle: bool = True,
        trust_cache: bool = True,
        decide: Callable[[Live], tuple[Live, R, repo.WritePlan] | None] | None = None,
    ) -> tuple[Live, R]:
        """Run ``job`` under the channel's lock in the next group commit; remember the battle it leaves.

        ``job`` gets the channel's battle (``on_battle``; else None): the cached one first (if
        ``trust_cache``), which the write checks (version, still the channel's current battle). If the
        job is refused or its write conflicts and the cache turns out stale, it runs again on the
        stored battle, still under the lock, where no conflict can happen. A refused or retried job
        gives its scripted dice back.

        ``decide``: the job decided on the cached battle without the database, its write going through
        the writer's fast lane; a refusal there, or a write that does not hold, leaves it to ``job``.
        """
        key = (where.guild, where.channel)
        dice = self.dice_source()
        mark: list[int | None] = [None]

        def reset() -> None:
            _restore(dice, mark[0])

        async def attempt(conn: AsyncConnection) -> tuple[Live, R]:
            mark[0] = _mark(dice)
            try:
                cached = self._live.get(key) if on_battle and trust_cache else None
                if cached is not None:
                    try:
                        return await job(conn, cached)
                    except (Refused, EngineError, repo.VersionConflict):
                        # decided on the cached battle: that stands only if it is the stored one
                        if await repo.latest_head(conn, where.guild, where.channel) == cached.head:
                            raise
                        self.conflicts += 1
                        self._live.pop(key, None)
                        reset()
                return await job(conn, await self._current(conn, where) if on_battle else None)
            except BaseException:
                reset()
                raise

        plan, planned = None, None
        cached = self._live.get(key) if decide is not None and self._writer.lane is not None else None
        if decide is not None and cached is not None:
            mark[0] = _mark(dice)
            try:
                decided = decide(cached)
            except (Refused, EngineError):  # perhaps only on a stale battle: ``job`` decides again
                decided = None
            except BaseException:
                reset()
                raise
            if decided is None:
                reset()
            else:
                plan, planned = decided[2], (decided[0], decided[1])
        try:
            live, result = await self._writer.run(
                attempt, channel=key, reset=reset, plan=plan, planned=planned
            )
        except repo.VersionConflict:  # only a write that did not take the lock could conflict
            raise Refused("service.battle_changed") from None
        self._remember(key, live)
        return live, result

    # -----------------------------------------------------------------------------------------
    # loading

    async def _current(self, conn: AsyncConnection, where: Where) -> Live | None:
        """The channel's latest battle (running, or the last one ended) as stored now; the cached
        state when it is at the stored version. In a write job this runs under the channel's lock."""
        key = (where.guild, where.channel)
        for _ in range(self._retries):
            head = await repo.latest_head(conn, where.guild, where.channel)
            if head is None:
                self._live.pop(key, None)
                return None
            cached = self._live.get(key)
            if cached is not None and cached.head == head:
                self._live.move_to_end(key)
                return cached
            loaded = await repo.load_live(conn, head)
            if loaded is None:  # written meanwhile (a read outside the lock): read the head again
                continue
            document, snapshots = loaded
            live = self._materialise(head, document, await repo.has_undone(conn, head.id))
            live.snapshots = snapshots
            self._remember(key, live)
            return live
        raise Refused("service.battle_changed")

    def _remember(self, key: tuple[str, str], live: Live) -> None:
        self._live[key] = live
        self._live.move_to_end(key)
        while len(self._live) > self._cache_size:
            self._live.popitem(last=False)

    def _materialise(self, head: repo.BattleHead, document: dict[str, Any], has_redo: bool) -> Live:
        binding = self._binding(head.ruleset)
        return Live(head, binding, binding.ruleset.import_(document), document, has_redo)

    def _binding(self, name: str | None) -> RulesetBinding:
        binding = rulesets.get(name or "")
        if binding is None:
            raise Refused("service.unknown_ruleset", ruleset=name or None)
        return binding

    def _check_ruleset(self, spec: CommandSpec, live: Live) -> None:
        if spec.ruleset is not None and spec.ruleset != live.binding.name:
            raise Refused("service.wrong_ruleset", command="/" + spec.path, running=live.binding.group)

    async def _status_view(self, conn: AsyncConnection, live: Live, viewer: Viewer = TABLE) -> StatusView:
        return StatusView(
            ruleset=live.binding.name,
            document=audience.document(live.binding, live.document, viewer),
            gms=(live.head.started_by, *await repo.co_gms(conn, live.head.id)),
            ended=live.head.status != RUNNING,
            battle_id=live.head.id,
            version=live.head.version,
        )

    async def _viewer(self, conn: AsyncConnection, where: Where, actor: Actor, live: Live) -> Viewer:
        return Viewer(actor.id, await self._is_gm(conn, where, actor, live.head))

    async def _read(self, where: Where, actor: Actor, spec: CommandSpec, options: dict[str, Any]) -> View:
        """``status``, ``map``, ``export``, ``log``: the channel's battle as committed, read without a lock.

        A read shows what the whole table may know; with ``gm:true`` (and an export, always) what its
        reader may, to them only.
        """
        async with self.engine.connect() as conn:
            live = await self._current(conn, where)
            if live is None:
                raise Refused("service.no_battle")
            self._check_ruleset(spec, live)
            private = bool(options.get("gm")) or spec.kind is Kind.EXPORT
            viewer = await self._viewer(conn, where, actor, live) if private else TABLE
            if spec.kind is Kind.STATUS:
                return replace(await self._status_view(conn, live, viewer), ephemeral=viewer is not TABLE)
            if spec.kind is Kind.MAP:
                filename = f"{live.binding.name}-map-{where.channel}-{live.head.id}.png"
                return MapView(status=await self._status_view(conn, live), filename=filename)
            if spec.kind is Kind.LOG:
                rows = await repo.log(conn, live.head.id, options["last"])
                logged = audience.entries(tuple(history.entry(r) for r in rows), viewer)
                return LogView(ephemeral=viewer is not TABLE, entries=logged)
        return self._export(where, live, options, viewer)

    def _export(self, where: Where, live: Live, options: Mapping[str, Any], viewer: Viewer) -> ExportView:
        """The battle's document as ``viewer`` may read it (to them only if that is more than the table
        may), or (``format:``) the text of another format (``ccfolia``: one line each)."""
        name = f"{live.binding.name}-{where.channel}-{live.head.id}"
        fmt = options.get("format") or "toride"
        exporter = live.binding.exporters.get(fmt)
        if exporter is None:
            document = audience.document(live.binding, live.document, viewer)
            return ExportView(
                ephemeral=document != audience.document(live.binding, live.document, TABLE),
                ruleset=live.binding.name,
                document=document,
                filename=name + ".json",
            )
        return ExportView(
            ruleset=live.binding.name, filename=f"{name}-{fmt}.txt", text=exporter(live.state), format=fmt
        )

    # -----------------------------------------------------------------------------------------
    # commands

    def _build(
        self, spec: CommandSpec, binding: RulesetBinding, options: dict[str, Any], ctx: BuildContext
    ) -> Any:
        build = spec.build if spec.build is not None else binding.builders.get(spec.path)
        if build is None:
            raise Refused("service.not_supported", command="/" + spec.path, ruleset=binding.group)
        return build(options, ctx)

    async def _create(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        """``start`` and ``import``: a new battle in the channel, whose GM is the invoker."""
        if spec.kind is Kind.IMPORT:
            document: dict[str, Any] = options["file"]
            binding = self._import_binding(spec, document)
        else:
            binding = self._binding(spec.ruleset)

        def begin() -> tuple[Any, tuple[Event, ...], dict[str, Any]]:
            """The new battle's state, its events and the command as logged."""
            if spec.kind is Kind.IMPORT:
                state = binding.ruleset.import_(document)
                binding.check_limits(state)
                imported = Event("service.imported", {"format": binding.export_format})
                return state, (imported,), {"command": "import", "document": document}
            command = self._build(spec, binding, options, BuildContext(invoker=actor.id, is_gm=True))
            outcome = binding.ruleset.apply(binding.new_state(), command, self.dice_source())
            return outcome.state, tuple(outcome.events), binding.command_to_json(command)

        async def job(conn: AsyncConnection, _: Live | None) -> tuple[Live, View]:
            head = await repo.latest_head(conn, where.guild, where.channel)
            if head is not None and head.status == RUNNING:
                raise Refused("service.battle_running")
            state, events, command_json = begin()
            memo = binding.export_memo() if binding.export_memo is not None else None
            document = binding.export(state, memo)
            encoded = docpatch.encode(document)
            status = ENDED if binding.is_over(state) else RUNNING
            row = repo.NewRow(
                ACTION, actor.id, invocation.log_text(), command_json, [e.to_json() for e in events]
            )
            try:
                battle_id = await repo.create_battle(
                    conn,
                    guild=where.guild,
                    channel=where.channel,
                    ruleset=binding.name,
                    started_by=actor.id,
                    state=encoded,
                    status=status,
                    row=row,
                )
            except repo.ChannelBusy:
                raise Refused("service.battle_running") from None
            new = repo.BattleHead(battle_id, binding.name, status, 1, actor.id)
            view = EventsView(
                ruleset=binding.name, command=row.command_text, actor=actor.id, seq=1, events=events,
                ended=status == ENDED,
            )  # fmt: skip
            live = Live(new, binding, state, document, encoded=encoded, memo=memo)
            live.snapshots = repo.Snapshots(state_seq=1, pending_bytes=0)
            return live, view

        return (await self._write(where, job, on_battle=False))[1]

    def _import_binding(self, spec: CommandSpec, document: dict[str, Any]) -> RulesetBinding:
        """The rule set whose format an imported document names (the one of ``spec``'s group)."""
        binding = rulesets.by_format(str(document.get("format", "")))
        expected = self._binding(spec.ruleset) if spec.ruleset else None
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

    async def _engine_command(
        self,
        conn: AsyncConnection,
        live: Live,
        actor: Actor,
        is_gm: bool,
        invocation: Invocation,
        spec: CommandSpec,
        options: dict[str, Any],
        command: Any = None,
    ) -> tuple[Live, _Applied]:
        """Applies the command ``spec`` builds from ``options`` (or ``command``, already built by a query)."""
        snapshots = (
            live.snapshots if live.snapshots is not None else await repo.snapshots_of(conn, live.head.id)
        )
        new, applied, plan = self._engine_plan(
            live, actor, is_gm, invocation, spec, options, command, snapshots
        )
        await repo.execute_plan(conn, plan)
        return new, applied

    async def _is_gm(self, conn: AsyncConnection, where: Where, actor: Actor, head: repo.BattleHead) -> bool:
        """Is ``actor`` a GM of the battle ``head`` (the channel ``where``'s current battle)? Keeps what
        the database said: a later command decided on it without the database has its write checked
        against it (``repo.Grants``)."""
        if rights.gm_by_itself(actor, head):
            return True
        held = await rights.grants(conn, where, actor, head)
        self._grants[(head.id, actor.id)] = held
        self._grants.move_to_end((head.id, actor.id))
        while len(self._grants) > GRANTS_KEPT:
            self._grants.popitem(last=False)
        return rights.gm_by_grants(actor, held)

    def _engine_plan(
        self,
        live: Live,
        actor: Actor,
        is_gm: bool,
        invocation: Invocation,
        spec: CommandSpec,
        options: dict[str, Any],
        command: Any,
        snapshots: repo.Snapshots,
        held: repo.Grants | None = None,
    ) -> tuple[Live, _Applied, repo.WritePlan]:
        """The command applied to ``live`` (no database): the battle after it, the answer, the write."""
        binding = live.binding
        if command is None:
            command = self._build(spec, binding, options, BuildContext(invoker=actor.id, is_gm=is_gm))
        if binding.authorize is not None:
            binding.authorize(live.state, command, actor.id, is_gm)
        outcome = binding.ruleset.apply(live.state, command, self.dice_source())
        events = tuple(outcome.events)
        secret_text = audience.text_is_secret(binding, live.state, outcome.state, command, events)
        # only what the command changed is exported and serialised again (docpatch)
        memo = live.memo
        if memo is None and binding.export_memo is not None:
            memo = live.memo = binding.export_memo()
        document = binding.export(outcome.state, memo)
        previous = live.encoded
        if previous is None:
            previous = live.encoded = docpatch.encode(live.document)
        encoded = docpatch.encode(document, previous)
        status = ENDED if binding.is_over(outcome.state) else RUNNING
        row = repo.NewRow(
            kind=ACTION,
            actor=actor.id,
            command_text=invocation.log_text(),
            command=binding.command_to_json(command),
            events=[e.to_json() for e in audience.logged(events, secret_text)],
            delta=docpatch.diff(previous, encoded),
        )
        plan = repo.plan_write(
            live.head,
            state=encoded,
            status=status,
            row=row,
            discard_redo=live.has_redo,
            snapshots=snapshots,
            grants=held,
        )
        written = plan.written
        version = written.version
        head = repo.BattleHead(live.head.id, binding.name, status, version, live.head.started_by)
        view = EventsView(
            ruleset=binding.name,
            command=row.command_text,
            actor=actor.id,
            seq=version,
            events=events,
            ended=status == ENDED,
        )
        applied = _Applied(view, Viewer(actor.id, is_gm), secret_text)
        new = Live(
            head, binding, outcome.state, document, encoded=encoded, memo=memo, snapshots=written.snapshots
        )
        return new, applied, plan

    async def _odds(self, where: Where, spec: CommandSpec, options: Mapping[str, Any]) -> View:
        """``/fort odds`` (anyone: it changes nothing): the battle read under the channel's lock, the
        planner run without it, in a worker process (``bot.service.odds``)."""
        request = plan_request(options)
        async with self._locks.hold((where.guild, where.channel)), self.engine.connect() as conn:
            live = await self._current(conn, where)
        if live is None:
            raise Refused("service.no_battle")
        self._check_ruleset(spec, live)
        if live.binding.is_over(live.state):
            raise Refused("odds.battle_over")
        result = await self.odds.run(live.document, request, (where.guild, where.channel))
        filename = f"{live.binding.name}-odds-{where.channel}-{live.head.id}-{request.seed}.png"
        return OddsView(title=str(live.document.get("title") or ""), result=result, filename=filename)

    def _roll(self, actor: Actor, options: Mapping[str, Any]) -> View:
        from engine.dice import roll

        dice = self.dice_source()
        mark = _mark(dice)
        try:
            result = roll(options["expr"], RecordingDice(dice))
        except EngineError:
            _restore(dice, mark)
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


@dataclass(frozen=True, slots=True)
class _Applied:
    """An engine command applied: its reply before the summaries (read after the commit) and before
    the table's view of it (``audience.events_view``) are added."""

    events: EventsView
    viewer: Viewer
    secret_text: bool


def _mark(dice: DiceSource) -> int | None:
    return dice.position if isinstance(dice, ScriptedDice) else None


def _restore(dice: DiceSource, mark: int | None) -> None:
    """A refused or retried command gives its scripted dice back."""
    if mark is not None and isinstance(dice, ScriptedDice):
        dice.position = mark
