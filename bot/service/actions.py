"""Actions: an engine command (or a query's answer that is one) decided once, in memory, and stored
as a write plan.

Under the channel's lock (this process's commands of one channel never interleave) the command is
decided on the channel's battle as this process holds it (read first when it holds none) with the
rights kept for the actor (read first when none are kept): the rules, the export and the patch, all
without the database. A refusal ends there: it touches no database. What the action changes is a
``WritePlan``, guarded by the battle's version, "still the channel's current battle" and the rights
it was decided on; the storage stores it (``Storage.store``: in the storage writer's next batch, off
the event loop). If it does not hold there (another process wrote the battle, ended it, or changed
the rights), nothing was written: the battle and the rights are read again and the command decided
again (a few times at most). The reply is built after the commit.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace
from typing import Any

from bot.commands import BuildContext, CommandSpec, Kind, QueryContext
from bot.i18n.names import CommandName
from bot.ruleset import RuleSet
from bot.service import audience, history, rights
from bot.service.audience import TableNumbers, Viewer
from bot.service.cache import BattleCache, check_ruleset
from bot.service.types import Actor, Invocation, Live, Refused, Where, encode
from bot.storage import docpatch
from bot.storage.interface import Storage
from bot.storage.models import ACTION, ENDED, RUNNING
from bot.storage.plans import plan_write
from bot.storage.records import BattleHead, Grants, NewRow, WritePlan
from bot.views import EventsView, View
from engine.dice import DiceSource, ScriptedDice
from engine.errors import EngineError

#: how many times an action is decided in all when its plan does not hold
DECISIONS = 32
#: the longest wait (seconds) before deciding again: a random wait, doubling from 1 ms, so that
#: processes that keep writing one channel take turns
BACKOFF_MAX = 0.1


@dataclass(frozen=True, slots=True)
class Applied:
    """An engine command applied: its reply before the summaries (read after the commit) and before
    the table's view of it (``audience.events_view``) are added."""

    events: EventsView
    viewer: Viewer
    secret_text: bool


class Actions:
    """``Kind.ENGINE`` and ``Kind.QUERY``, on the battles held (``cache``), stored by ``storage``."""

    def __init__(self, cache: BattleCache, storage: Storage, dice: DiceSource, numbers: TableNumbers) -> None:
        self.cache = cache
        self.storage = storage
        self.dice = dice
        self.numbers = numbers
        #: how many actions were decided again because their plan did not hold
        self.conflicts = 0

    async def act(
        self, where: Where, actor: Actor, invocation: Invocation, spec: CommandSpec, options: dict[str, Any]
    ) -> View:
        """Decide, store the plan, answer."""
        key = (where.guild, where.channel)
        dice = self.dice
        for attempt in range(DECISIONS):
            if attempt:
                await asyncio.sleep(random.uniform(0, min(BACKOFF_MAX, 0.001 * 2**attempt)))
            # a query's answer that is a view has no write to check it: it reads the stored battle
            live = self.cache.get(key) if spec.kind is Kind.ENGINE else None
            if live is None:
                live = await self.cache.current(where)
            if live is None:
                raise Refused("service.no_battle")
            check_ruleset(spec, live)
            is_gm, held = await self._rights(where, actor, live, spec)
            command = None
            mark = mark_dice(dice)
            if spec.kind is Kind.QUERY:
                # a shared command (``/pc roll``) is answered as the battle's rule set answers it
                query = live.binding.queries.get(spec.path, spec.query)
                if query is None:
                    group = live.binding.group
                    raise Refused("service.not_supported", command=CommandName(spec.path), ruleset=group)
                try:  # a query that rolls (``/pc roll``) and is refused gives its scripted dice back
                    answer = query(live.state, options, QueryContext(actor.id, is_gm, dice, actor.names))
                except BaseException:
                    restore_dice(dice, mark)
                    raise
                if isinstance(answer, View):
                    return answer
                command = answer
            try:
                if live.snapshots is None:
                    live.snapshots = await self.storage.snapshots(live.head.id)
                new, applied, plan = decide(
                    live, actor, is_gm, invocation, spec, options, command, dice, held
                )
                stored = await self.storage.store(plan, key)
            except BaseException as error:
                restore_dice(dice, mark)
                if not isinstance(error, Refused | EngineError):
                    self.cache.forget(key)  # perhaps stored: read again next time
                raise
            if stored:
                self.cache.remember(key, new)
                return await self._reply(new, applied)
            # the battle or the rights changed elsewhere: read both again and decide again
            restore_dice(dice, mark)
            self.conflicts += 1
            self.cache.forget(key)
            self.cache.drop_grants(live.head, actor.id)
        raise Refused("service.battle_changed")

    async def _rights(
        self, where: Where, actor: Actor, live: Live, spec: CommandSpec
    ) -> tuple[bool, Grants | None]:
        """Is ``actor`` a GM of the battle, and on which rights read from the database (None: none
        needed, they started it or manage the channel)? A GM command refused on rights kept from
        earlier reads them once more, so that a GM role or co-GM given elsewhere counts at once."""
        head = live.head
        if rights.gm_by_itself(actor, head):
            return True, None
        held = self.cache.held(head, actor)
        if held is not None and not (spec.gm and not rights.gm_by_grants(actor, held)):
            return rights.gm_by_grants(actor, held), held
        held = await self.cache.read_grants(where, actor, head)
        is_gm = rights.gm_by_grants(actor, held)
        await self.cache.check_gm_named(spec, is_gm, head)  # a refusal names the battle's GMs
        return is_gm, held

    async def _reply(self, live: Live, applied: Applied) -> View:
        done = applied.events
        summaries = await history.summaries(
            self.storage, live.binding, live.head.id, done.seq, done.events, live.document
        )
        answer = replace(done, summaries=summaries)
        shown = audience.events_view(answer, live.binding, applied.viewer, applied.secret_text)
        if live.binding.visible is not None:
            # S-HIDE-1: the public reply numbered as the table counts the log (a private one counted too)
            number = await self.numbers.number(self.storage, live.head.id, done.seq, not shown.ephemeral)
            shown = shown if shown.ephemeral else replace(shown, seq=number)
        return shown


def decide(
    live: Live,
    actor: Actor,
    is_gm: bool,
    invocation: Invocation,
    spec: CommandSpec,
    options: dict[str, Any],
    command: Any,
    dice: DiceSource,
    held: Grants | None,
) -> tuple[Live, Applied, WritePlan]:
    """The command applied to ``live`` (no database): the battle after it, the answer, the write."""
    binding = live.binding
    assert live.snapshots is not None
    who = BuildContext(invoker=actor.id, is_gm=is_gm, names=actor.names, document=live.document)
    if command is None:
        command = build(spec, binding, options, who)
    if binding.authorize is not None:
        binding.authorize(live.state, command, who)
    outcome = binding.ruleset.apply(live.state, command, dice)
    events = tuple(outcome.events)
    secret_text = audience.text_is_secret(binding, live.state, outcome.state, command, events)
    # only what the command changed is exported and serialised again (docpatch)
    previous = live.encoded()
    encoded = encode(binding, outcome.state, previous)
    status = ENDED if binding.is_over(outcome.state) else RUNNING
    row = NewRow(
        kind=ACTION,
        actor=actor.id,
        command_text=invocation.log_text(),
        command=binding.command_to_json(command),
        events=[e.to_json() for e in audience.logged(events, secret_text)],
        delta=docpatch.diff(previous, encoded),
    )
    plan = plan_write(
        live.head, state=encoded, status=status, row=row, discard_redo=live.has_redo,
        snapshots=live.snapshots, grants=held,
    )  # fmt: skip
    written = plan.written
    head = BattleHead(live.head.id, binding.name, status, written.version, live.head.started_by)
    view = EventsView(
        ruleset=binding.name, command=row.command_text, actor=actor.id, seq=written.version,
        events=events, ended=status == ENDED,
    )  # fmt: skip
    applied = Applied(view, Viewer(actor.id, is_gm), secret_text)
    after = written.snapshots
    new = Live(head, binding, outcome.state, encoded, snapshots=after)
    return new, applied, plan


def build(spec: CommandSpec, binding: RuleSet, options: dict[str, Any], ctx: BuildContext) -> Any:
    builder = spec.build if spec.build is not None else binding.builders.get(spec.path)
    if builder is None:
        raise Refused("service.not_supported", command=CommandName(spec.path), ruleset=binding.group)
    return builder(options, ctx)


def mark_dice(dice: DiceSource) -> int | None:
    """A command starts: scripted dice count from here (``ScriptedDice.begin``)."""
    return dice.begin() if isinstance(dice, ScriptedDice) else None


def restore_dice(dice: DiceSource, mark: int | None) -> None:
    """A refused or retried command gives its scripted dice back."""
    if mark is not None and isinstance(dice, ScriptedDice):
        dice.rewind(mark)
