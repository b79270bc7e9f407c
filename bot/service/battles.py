"""BattleService: load the channel's battle, check permissions, apply the engine, store, answer a view.

Commands for one channel never interleave: an ``asyncio.Lock`` per channel in this process, and
a version check in the database against other processes (the loser reloads and retries, and
after a few tries answers ``service.battle_changed``). State and log row are committed in one
transaction, and the reply is built only after the commit.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot import rulesets
from bot.commands import BuildContext, CommandSpec, Kind, QueryContext, convert, lookup
from bot.rulesets import RulesetBinding
from bot.service import audience, history
from bot.service.audience import TABLE, Viewer
from bot.service.odds import OddsRunner, plan_request
from bot.service.types import Actor, Invocation, Live, Where
from bot.service.writer import Writer
from bot.storage import repository as repo
from bot.storage.models import ACTION, ENDED, NOTE, RUNNING
from bot.views import (
    ErrorView,
    EventsView,
    ExportView,
    LogView,
    MapView,
    NoticeView,
    OddsView,
    RollView,
    StatusView,
    UndoView,
    View,
)
from engine.dice import DiceSource, RecordingDice, ScriptedDice, SeededDice
from engine.errors import EngineError
from engine.ruleset import Event

RETRIES = 4
#: how many channels' battles stay loaded in memory
CACHE_SIZE = 1000


class _Refused(Exception):
    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.view = ErrorView(key=key, values=values)


class BattleService:
    def __init__(
        self,
        engine: AsyncEngine,
        dice: DiceSource | None = None,
        *,
        retries: int = RETRIES,
        cache_size: int = CACHE_SIZE,
        odds: OddsRunner | None = None,
    ) -> None:
        self.engine = engine
        #: where ``/fort odds`` runs its plans (worker processes)
        self.odds = odds if odds is not None else OddsRunner()
        self._dice = dice if dice is not None else SeededDice()
        self._retries = retries
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        # the live states of recently used channels (least recently used dropped past ``cache_size``)
        self._live: OrderedDict[tuple[str, str], Live] = OrderedDict()
        self._cache_size = cache_size
        self._writer = Writer(engine)
        #: how many writes lost the version check (for tests and the benchmark)
        self.conflicts = 0

    # -----------------------------------------------------------------------------------------
    # entry point

    async def execute(self, where: Where, actor: Actor, invocation: Invocation) -> View:
        """Run one command; every refusal is an ``ErrorView`` and changes nothing."""
        try:
            spec = lookup(invocation.path)
            options = convert(spec, invocation.options)
            if spec.kind is Kind.ROLL:
                return self._roll(actor, options)
            if spec.kind is Kind.ODDS:
                return await self._odds(where, spec, options)
            async with self._channel_lock(where):
                return await self._run(where, actor, invocation, spec, options)
        except _Refused as refused:
            return refused.view
        except EngineError as error:
            return ErrorView(key=error.key, values=dict(error.values))

    async def status(self, where: Where, actor: Actor | None = None) -> StatusView | None:
        """The channel's battle (running, or the last one ended) of any rule set; None if there is none.

        For front-ends that show a battle without a command: the live status message (what the whole
        table may read), autocomplete (what ``actor`` may read).
        """
        async with self._channel_lock(where):
            live = await self._load(where, fresh=True)
            if live is None:
                return None
            viewer = TABLE if actor is None else await self._viewer(where, actor, live)
            return await self._status_view(where, live, viewer)

    async def _status_view(self, where: Where, live: Live, viewer: Viewer = TABLE) -> StatusView:
        gms = (live.head.started_by, *(await self._settings(where.guild)).co_gms)
        return StatusView(
            ruleset=live.binding.name,
            document=audience.document(live.binding, live.document, viewer),
            gms=gms,
            ended=live.head.status != RUNNING,
            battle_id=live.head.id,
            version=live.head.version,
        )

    async def _viewer(self, where: Where, actor: Actor, live: Live) -> Viewer:
        return Viewer(actor.id, await self._is_gm(where, actor, live.head.started_by))

    async def status_message(self, battle_id: int) -> int | None:
        """The id of the message a front-end keeps the battle's live status in (None: not stored)."""
        async with self.engine.connect() as conn:
            return await repo.status_message(conn, battle_id)

    async def set_status_message(self, battle_id: int, message_id: int | None) -> None:
        """Keep (or, with None, forget) the battle's status message id with the battle."""
        async with self._writer.transaction() as conn:
            await repo.set_status_message(conn, battle_id, message_id)

    def dice_source(self) -> DiceSource:
        """Where this service's dice come from (a seeded source, or the console's script)."""
        return self._dice

    async def language(self, guild: str) -> str:
        async with self.engine.connect() as conn:
            return (await repo.get_settings(conn, guild)).language

    async def set_language(self, guild: str, language: str) -> None:
        async with self._writer.transaction() as conn:
            current = await repo.get_settings(conn, guild)
            await repo.put_settings(conn, repo.Settings(guild, language, current.gm_role_id, current.co_gms))

    # -----------------------------------------------------------------------------------------

    def _channel_lock(self, where: Where) -> asyncio.Lock:
        key = (where.guild, where.channel)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _odds(self, where: Where, spec: CommandSpec, options: Mapping[str, Any]) -> View:
        """``/fort odds`` (anyone: it changes nothing): the battle read under the channel's lock, the
        planner run without it, in a worker process (``bot.service.odds``)."""
        request = plan_request(options)
        async with self._channel_lock(where):
            live = await self._load(where, fresh=True)
            if live is None:
                raise _Refused("service.no_battle")
            self._check_ruleset(spec, live)
        if live.binding.is_over(live.state):
            raise _Refused("odds.battle_over")
        result = await self.odds.run(live.document, request)
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

    async def _run(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        dice = self.dice_source()
        mark = _mark(dice)
        for attempt in range(self._retries):
            try:
                return await self._once(where, actor, invocation, spec, options, dice, fresh=attempt > 0)
            except repo.VersionConflict:
                self.conflicts += 1
                self._live.pop((where.guild, where.channel), None)
                _restore(dice, mark)
            except BaseException:
                _restore(dice, mark)
                raise
        return ErrorView(key="service.battle_changed")

    async def _once(
        self,
        where: Where,
        actor: Actor,
        invocation: Invocation,
        spec: CommandSpec,
        options: dict[str, Any],
        dice: DiceSource,
        *,
        fresh: bool,
    ) -> View:
        kind = spec.kind
        if kind is Kind.START:
            return await self._start(where, actor, invocation, spec, options, dice)
        if kind is Kind.IMPORT:
            return await self._import(where, actor, invocation, spec, options)
        if kind in (Kind.GM_ADD, Kind.GM_REMOVE):
            return await self._gm_list(where, actor, spec, options)
        if kind in (Kind.UNDO, Kind.REDO):
            return await self._undo_redo(where, actor, invocation, spec, options)
        # commands on the channel's battle (the running one, else the last one, which the rules
        # may still accept a few commands on): writes trust the cache (the version check guards
        # it), reads check the version first
        live = await self._load(where, fresh=fresh or kind is not Kind.ENGINE)
        if live is None:
            raise _Refused("service.no_battle")
        self._check_ruleset(spec, live)
        # a read shows what the whole table may know; with ``gm:true`` (and an export, always)
        # what its reader may, to them only
        private = bool(options.get("gm")) or kind is Kind.EXPORT
        viewer = await self._viewer(where, actor, live) if private else TABLE
        if kind is Kind.STATUS:
            return replace(await self._status_view(where, live, viewer), ephemeral=viewer is not TABLE)
        if kind is Kind.MAP:
            filename = f"{live.binding.name}-map-{where.channel}-{live.head.id}.png"
            return MapView(status=await self._status_view(where, live), filename=filename)
        if kind is Kind.EXPORT:
            return self._export(where, live, options, viewer)
        if kind is Kind.QUERY:
            answer = await self._query(where, actor, spec, options, dice, live)
            if isinstance(answer, View):
                return answer
            return await self._engine_command(where, actor, invocation, spec, options, dice, live, answer)
        if kind is Kind.LOG:
            async with self.engine.connect() as conn:
                rows = await repo.log(conn, live.head.id, options["last"])
            logged = audience.entries(tuple(history.entry(r) for r in rows), viewer)
            return LogView(ephemeral=viewer is not TABLE, entries=logged)
        return await self._engine_command(where, actor, invocation, spec, options, dice, live)

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

    async def _query(
        self,
        where: Where,
        actor: Actor,
        spec: CommandSpec,
        options: Mapping[str, Any],
        dice: DiceSource,
        live: Live,
    ) -> Any:
        """A ``Kind.QUERY`` command: a view of the battle (nothing changes), or an engine command to apply."""
        if spec.query is None:
            raise _Refused("service.not_supported", command="/" + spec.path, ruleset=live.binding.group)
        is_gm = await self._require_gm(where, actor, spec, live.head.started_by)
        return spec.query(live.state, options, QueryContext(invoker=actor.id, is_gm=is_gm, dice=dice))

    # -----------------------------------------------------------------------------------------
    # loading and permissions

    async def _load(self, where: Where, *, fresh: bool) -> Live | None:
        """The channel's latest battle (running, or the last one ended), from the cache if allowed."""
        key = (where.guild, where.channel)
        cached = self._live.get(key)
        if cached is not None and not fresh:
            self._live.move_to_end(key)
            return cached
        async with self.engine.connect() as conn:
            head = await repo.latest_head(conn, where.guild, where.channel)
            if head is None:
                self._live.pop(key, None)
                return None
            if cached is not None and cached.head == head:
                return cached
            document = await repo.load_state(conn, head.id)
            has_redo = await repo.has_undone(conn, head.id)
        live = self._materialise(head, document, has_redo)
        self._remember(key, live)
        return live

    def _remember(self, key: tuple[str, str], live: Live) -> None:
        self._live[key] = live
        self._live.move_to_end(key)
        while len(self._live) > self._cache_size:
            self._live.popitem(last=False)

    async def _refuse_if_running(self, where: Where) -> None:
        live = await self._load(where, fresh=True)
        if live is not None and live.head.status == RUNNING:
            raise _Refused("service.battle_running")

    def _materialise(self, head: repo.BattleHead, document: dict[str, Any], has_redo: bool) -> Live:
        binding = rulesets.get(head.ruleset)
        if binding is None:
            raise _Refused("service.unknown_ruleset", ruleset=head.ruleset)
        return Live(head, binding, binding.ruleset.import_(document), document, has_redo)

    def _check_ruleset(self, spec: CommandSpec, live: Live) -> None:
        if spec.ruleset is not None and spec.ruleset != live.binding.name:
            raise _Refused("service.wrong_ruleset", command="/" + spec.path, running=live.binding.group)

    async def _settings(self, guild: str) -> repo.Settings:
        async with self.engine.connect() as conn:
            return await repo.get_settings(conn, guild)

    async def _is_gm(self, where: Where, actor: Actor, started_by: str | None) -> bool:
        if actor.manage_channels or (started_by is not None and actor.id == started_by):
            return True
        current = await self._settings(where.guild)
        return actor.id in current.co_gms or (
            current.gm_role_id is not None and current.gm_role_id in actor.roles
        )

    async def _require_gm(
        self, where: Where, actor: Actor, spec: CommandSpec, started_by: str | None
    ) -> bool:
        is_gm = await self._is_gm(where, actor, started_by)
        if spec.gm and not is_gm:
            raise _Refused("service.gm_only", command="/" + spec.path)
        return is_gm

    # -----------------------------------------------------------------------------------------
    # commands

    def _build(
        self, spec: CommandSpec, binding: RulesetBinding, options: dict[str, Any], ctx: BuildContext
    ) -> Any:
        build = spec.build if spec.build is not None else binding.builders.get(spec.path)
        if build is None:
            raise _Refused("service.not_supported", command="/" + spec.path, ruleset=binding.group)
        return build(options, ctx)

    async def _start(
        self,
        where: Where,
        actor: Actor,
        invocation: Invocation,
        spec: CommandSpec,
        options: dict[str, Any],
        dice: DiceSource,
    ) -> View:
        binding = self._binding(spec.ruleset)
        await self._refuse_if_running(where)
        command = self._build(spec, binding, options, BuildContext(invoker=actor.id, is_gm=True))
        outcome = binding.ruleset.apply(binding.new_state(), command, dice)
        events = tuple(outcome.events)
        return await self._create(
            where, actor, invocation, binding, outcome.state, events, binding.command_to_json(command)
        )

    async def _import(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        document: dict[str, Any] = options["file"]
        binding = rulesets.by_format(str(document.get("format", "")))
        expected = self._binding(spec.ruleset) if spec.ruleset else None
        if "format" not in document:
            raise _Refused(
                "service.import_no_format",
                expected=expected.export_format if expected else "toride.fort/1, toride.sengensho/1",
            )
        if binding is None or (expected is not None and binding is not expected):
            raise _Refused(
                "service.import_format",
                format=str(document.get("format", "-")),
                expected=expected.export_format if expected else "-",
            )
        await self._refuse_if_running(where)
        state = binding.ruleset.import_(document)
        event = Event("service.imported", {"format": binding.export_format})
        command = {"command": "import", "document": document}
        return await self._create(where, actor, invocation, binding, state, (event,), command)

    async def _create(
        self,
        where: Where,
        actor: Actor,
        invocation: Invocation,
        binding: RulesetBinding,
        state: Any,
        events: tuple[Event, ...],
        command_json: dict[str, Any],
    ) -> View:
        document = binding.ruleset.export(state)
        over = binding.is_over(state)
        row = repo.NewRow(
            kind=ACTION,
            actor=actor.id,
            command_text=invocation.text or "/" + invocation.path,
            command=command_json,
            events=[e.to_json() for e in events],
            state_after=document,
        )
        try:
            async with self._writer.transaction() as conn:
                battle_id = await repo.create_battle(
                    conn,
                    guild=where.guild,
                    channel=where.channel,
                    ruleset=binding.name,
                    started_by=actor.id,
                    state=document,
                    status=ENDED if over else RUNNING,
                    row=row,
                )
        except repo.ChannelBusy:
            raise _Refused("service.battle_running") from None
        head = repo.BattleHead(battle_id, binding.name, ENDED if over else RUNNING, 1, actor.id)
        self._remember((where.guild, where.channel), Live(head, binding, state, document))
        return EventsView(
            ruleset=binding.name,
            command=row.command_text,
            actor=actor.id,
            seq=1,
            events=events,
            ended=over,
        )

    def _binding(self, name: str | None) -> RulesetBinding:
        binding = rulesets.get(name or "")
        if binding is None:
            raise _Refused("service.unknown_ruleset", ruleset=name or "-")
        return binding

    async def _engine_command(
        self,
        where: Where,
        actor: Actor,
        invocation: Invocation,
        spec: CommandSpec,
        options: dict[str, Any],
        dice: DiceSource,
        live: Live,
        command: Any = None,
    ) -> View:
        """Applies the command ``spec`` builds from ``options`` (or ``command``, already built by a query)."""
        is_gm = await self._require_gm(where, actor, spec, live.head.started_by)
        binding = live.binding
        if command is None:
            command = self._build(spec, binding, options, BuildContext(invoker=actor.id, is_gm=is_gm))
        if binding.authorize is not None:
            binding.authorize(live.state, command, actor.id, is_gm)
        outcome = binding.ruleset.apply(live.state, command, dice)
        events = tuple(outcome.events)
        secret_text = audience.text_is_secret(binding, live.state, outcome.state, command, events)
        document = binding.ruleset.export(outcome.state)
        over = binding.is_over(outcome.state)
        row = repo.NewRow(
            kind=ACTION,
            actor=actor.id,
            command_text=invocation.text or "/" + invocation.path,
            command=binding.command_to_json(command),
            events=[e.to_json() for e in audience.logged(events, secret_text)],
            state_after=document,
        )
        key = (where.guild, where.channel)
        status = ENDED if over else RUNNING
        version = await self._writer.commit(repo.Write(live.head, document, status, row, live.has_redo))
        head = repo.BattleHead(live.head.id, binding.name, status, version, live.head.started_by)
        self._remember(key, Live(head, binding, outcome.state, document))
        summaries = await history.summaries(self.engine, binding, head.id, version, events, document)
        view = EventsView(
            ruleset=binding.name,
            command=row.command_text,
            actor=actor.id,
            seq=version,
            events=events,
            summaries=summaries,
            ended=over,
        )
        return audience.events_view(view, binding, Viewer(actor.id, is_gm), secret_text)

    async def _undo_redo(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        redo = spec.kind is Kind.REDO
        async with self.engine.connect() as conn:
            head = await repo.latest_head(conn, where.guild, where.channel)
        if head is None:
            raise _Refused("service.no_battle")
        await self._require_gm(where, actor, spec, head.started_by)
        binding = self._binding(head.ruleset)
        steps: int = options["steps"]
        key = (where.guild, where.channel)
        async with self._writer.transaction() as conn:
            if redo:
                rows = await repo.undone_actions(conn, head.id, steps)
                if not rows:
                    raise _Refused("service.nothing_to_redo")
                restored = rows[-1]
                changed = rows
            else:
                # the first action (start, import) stays: it is the battle itself
                rows = await repo.live_actions(conn, head.id, steps + 1)
                changed = [r for r in rows[:steps] if r.seq != 1]
                if not changed:
                    raise _Refused("service.nothing_to_undo")
                restored = rows[len(changed)]
            assert restored.state_after is not None
            document = restored.state_after
            state = binding.ruleset.import_(document)
            over = binding.is_over(state)
            await repo.set_status(conn, head.id, [r.seq for r in changed], "live" if redo else "undone")
            note = Event(
                "service.redone" if redo else "service.undone",
                {"steps": len(changed), "seqs": [r.seq for r in changed]},
            )
            row = repo.NewRow(
                kind=NOTE,
                actor=actor.id,
                command_text=invocation.text or "/" + invocation.path,
                command={"command": spec.path, "steps": steps},
                events=[note.to_json()],
                state_after=None,
            )
            try:
                version = await repo.write(
                    conn, head, state=document, status=ENDED if over else RUNNING, row=row, discard_redo=False
                )
            except Exception:
                self._live.pop(key, None)
                raise
            has_redo = await repo.has_undone(conn, head.id)
        new_head = repo.BattleHead(
            head.id, binding.name, ENDED if over else RUNNING, version, head.started_by
        )
        self._remember(key, Live(new_head, binding, state, document, has_redo))
        view = UndoView(
            redo=redo,
            entries=tuple(history.entry(r) for r in changed),
            document=document,
            ruleset=binding.name,
            requested=steps,
        )
        return audience.undo_view(view, binding)

    async def _gm_list(self, where: Where, actor: Actor, spec: CommandSpec, options: dict[str, Any]) -> View:
        live = await self._load(where, fresh=True)
        await self._require_gm(where, actor, spec, live.head.started_by if live else None)
        user: str = options["user"]
        async with self._writer.transaction() as conn:
            current = await repo.get_settings(conn, where.guild)
            if spec.kind is Kind.GM_ADD:
                if user in current.co_gms:
                    raise _Refused("gm.already", user=user)
                co_gms = (*current.co_gms, user)
            else:
                if user not in current.co_gms:
                    raise _Refused("gm.not_cogm", user=user)
                co_gms = tuple(u for u in current.co_gms if u != user)
            await repo.put_settings(
                conn, repo.Settings(where.guild, current.language, current.gm_role_id, co_gms)
            )
        return NoticeView(key="gm.added" if spec.kind is Kind.GM_ADD else "gm.removed", values={"user": user})


def _mark(dice: DiceSource) -> int | None:
    return dice.position if isinstance(dice, ScriptedDice) else None


def _restore(dice: DiceSource, mark: int | None) -> None:
    """A refused or retried command gives its scripted dice back."""
    if mark is not None and isinstance(dice, ScriptedDice):
        dice.position = mark
