"""``/gm undo`` and ``/gm redo``: take back the last actions, dice and all, or put them back.

An action's log row keeps the patch it made to the state (``bot.storage.docpatch``, old and new
values), so undo takes back the patches of the actions it undoes, newest first, from the current
state, and redo applies those of the actions it puts back, oldest first; where a patch is missing,
the state is replayed from the last snapshot (``Transaction.state_at``). The battle row's state is written
only when the undo reaches back before it (or a redo puts back actions from before it). The first
action (the start or the import) is the battle itself and stays. A new action after an undo
discards what could be redone.
"""

from __future__ import annotations

from bot.commands import CommandSpec, Kind
from bot.service import audience, history
from bot.service.types import Actor, Invocation, Live, Refused
from bot.storage import docpatch
from bot.storage.interface import Transaction
from bot.storage.models import ENDED, LIVE, NOTE, RUNNING, UNDONE
from bot.storage.plans import plan_write
from bot.storage.records import BattleHead, NewRow
from bot.views import UndoView
from engine.ruleset import Event


async def undo_redo(
    transaction: Transaction, live: Live, actor: Actor, spec: CommandSpec, steps: int, invocation: Invocation
) -> tuple[Live, UndoView]:
    """Undo (or, for ``/gm redo``, redo) up to ``steps`` actions of the battle ``live``, in a job's
    ``transaction``.

    The caller holds the channel's lock and checked that ``actor`` is a GM of the battle.
    """
    redo = spec.kind is Kind.REDO
    head, binding = live.head, live.binding
    if redo:
        rows = await transaction.undone_actions(head.id, steps)
        if not rows:
            raise Refused("service.nothing_to_redo")
        restored, changed = rows[-1], rows
    else:
        rows = await transaction.live_actions(head.id, steps + 1)
        changed = [r for r in rows[:steps] if r.seq != 1]
        if not changed:
            raise Refused("service.nothing_to_undo")
        restored = rows[len(changed)]
    if any(r.delta is None for r in changed):
        document = await transaction.state_at(head.id, restored.seq)
    else:
        document = live.stored_document()  # the patches go from it
        for r in changed:  # redo: oldest first; undo: newest first
            assert r.delta is not None
            document = docpatch.apply(document, r.delta, reverse=not redo)
    state = binding.ruleset.import_(document)
    status = ENDED if binding.is_over(state) else RUNNING
    seqs = [r.seq for r in changed]
    # the battle row's state stays good while every action undone (or redone) comes after it: the
    # current state is it with the patches of the live actions after it. Else it is rewritten.
    snapshots = live.snapshots if live.snapshots is not None else await transaction.snapshots(head.id)
    rewrite = min(seqs) <= snapshots.state_seq
    encoded = docpatch.encode(document)
    note = Event("service.redone" if redo else "service.undone", {"steps": len(changed), "seqs": seqs})
    row = NewRow(
        kind=NOTE,
        actor=actor.id,
        command_text=invocation.log_text(),
        command={"command": spec.path, "steps": steps},
        events=[note.to_json()],
    )
    # the version-checked write first: a conflict leaves nothing written
    plan = plan_write(
        head, state=encoded, status=status, row=row, discard_redo=False, snapshots=snapshots, rewrite=rewrite
    )
    written = await transaction.write(plan)
    version = written.version
    await transaction.set_event_status(head.id, seqs, LIVE if redo else UNDONE)
    has_redo = await transaction.has_undone(head.id)
    new_head = BattleHead(head.id, binding.name, status, version, head.started_by)
    view = UndoView(
        redo=redo,
        entries=tuple(history.entry(r) for r in changed),
        document=document,
        ruleset=binding.name,
        requested=steps,
    )
    live = Live(new_head, binding, state, encoded, has_redo, snapshots=written.snapshots)
    # S-HIDE-1: where actions may be secret, the table reads them by its own numbers (the whole log)
    log = await history.whole_log(transaction, head.id) if binding.visible is not None else None
    return live, audience.undo_view(view, binding, log)
