"""Round summaries (engine/fort/report.py): the fort HP's changes by cause add up to end − start, every
action of the round is listed with who ran it, for scripted rounds and for random ones."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import SETUP, DrawnDice, commands

from engine.dice import ScriptedDice
from engine.fort import (
    FORT,
    AddPC,
    AddUnit,
    AdvanceUnits,
    FortCommand,
    FortState,
    GMSet,
    HealFort,
    NextTurn,
    Repair,
    SetTrap,
    Siege,
    StartBattle,
)
from engine.fort.report import Action, HPChange, RoundReport, TrapSpent, Undo, fort_hp_change, round_report
from engine.ruleset import Event, RuleError


class Table:
    """Commands applied one by one, each logged as an action of ``gm`` (as the service's log keeps it)."""

    def __init__(self, dice: Any) -> None:
        self.dice = dice
        self.state: FortState | None = None
        self.log: list[Action | Undo] = []

    def run(self, command: FortCommand, actor: str = "gm") -> bool:
        try:
            outcome = FORT.apply(self.state, command, self.dice)
        except RuleError:
            return False
        self.state = outcome.state
        self.log.append(Action(len(self.log) + 1, actor, type(command).__name__, tuple(outcome.events)))
        return True


def rounds_of(log: list[Action | Undo]) -> list[tuple[list[Action | Undo], int | None]]:
    """The log cut at each round's end (as ``bot.service.history`` cuts it): each round's entries."""
    out: list[tuple[list[Action | Undo], int | None]] = []
    current: list[Action | Undo] = []
    for entry in log:
        if not isinstance(entry, Action):
            current.append(entry)
            continue
        events = list(entry.events)
        while True:
            ends = [i for i, e in enumerate(events) if e.kind == "battle.round_summary"]
            if not ends:
                break
            current.append(Action(entry.seq, entry.actor, entry.text, tuple(events[: ends[0] + 1])))
            out.append((current, events[ends[0]].data["round"]))
            current = []
            events = events[ends[0] + 1 :]
        if events:
            current.append(Action(entry.seq, entry.actor, entry.text, tuple(events)))
    if current:
        out.append((current, None))
    return out


def test_a_scripted_round_adds_up_with_every_cause() -> None:
    """F-FORT-2, F-FORT-3, F-FORT-4, F-FORT-5: entry damage, the GM's override, a repair, a heal, a siege."""
    table = Table(ScriptedDice([3, 4]))  # the mine's 2D6+10 = 17
    assert table.run(StartBattle(rounds=2, fort_hp=300))
    assert table.run(AddPC(name="アリス", position="top", invoker="alice"), "alice")
    assert table.run(AddUnit(name="ゴブリン", type="normal", area="A1", hp=30, fort_damage=10, strike="2d"))
    assert table.run(SetTrap(kind="mine", edge="A1-F0", uses=2))
    assert table.run(GMSet(target="fort.hp", value="250"))
    assert table.run(Siege(effect="fixed", amount=40))
    assert table.run(Repair(by="アリス", invoker="alice"), "alice")
    assert table.run(HealFort(amount=12))
    assert table.run(NextTurn())
    assert table.run(AdvanceUnits())  # the goblin steps on the mine and enters F0: 10 fort damage
    assert table.run(GMSet(target="fort.max_hp", value="200"))  # the HP follows the maximum down
    assert table.run(NextTurn())
    (entries, number), (next_round, _) = rounds_of(table.log)
    report = round_report(entries, round_=number)
    assert report.round == 1 and report.kind == "round"
    # 300 → GM 250 → siege 210 → repair 220 → heal 225 → goblin 215 → max_hp 200
    assert (report.fort_start, report.fort_end, report.fort_max) == (300, 200, 200)
    assert report.changes == (
        HPChange("enter", "ゴブリン", -10),
        HPChange("siege", "fixed", -40),
        HPChange("repair", "アリス", 10),
        HPChange("heal", None, 5),
        HPChange("gm", None, -65, 2),
    )
    assert report.fort_change == -100 and report.adds_up
    assert report.traps == (TrapSpent("mine", "A1-F0", 1, 1),)
    assert report.destroyed == ()
    # every action, in order, with who ran it; the round's end line is the table's, not listed
    assert [(a.seq, a.actor) for a in report.entries] == [
        (n, "alice" if n in (2, 7) else "gm") for n in range(1, 13)
    ]
    assert all(
        e.kind != "battle.round_summary" for a in report.entries if isinstance(a, Action) for e in a.events
    )
    # the next round starts where this one ended: its first line is the PC side's turn
    assert [e.kind for a in next_round for e in a.events if isinstance(a, Action)] == ["battle.turn_started"]


def test_undos_are_listed_and_the_hp_still_adds_up() -> None:
    """An undone action is not in the round (the log keeps it undone); the GM's undo is listed."""
    override = Event("battle.gm_set", {"target": "fort.hp", "before": 100, "after": 90})
    end = Event("battle.round_summary", {"round": 1, "fort_hp": 90, "fort_max_hp": 100})
    entries: list[Action | Undo] = [
        Action(4, "gm", "/gm set target:fort.hp value:90", (override,)),
        Undo(6, "gm", False, (5,), ("/fort repair",)),
        Action(7, "gm", "/fort next", (end,)),
    ]
    report = round_report(entries)
    assert report.round == 1 and (report.fort_start, report.fort_end) == (100, 90)
    assert report.changes == (HPChange("gm", None, -10),)
    assert report.entries[1] == Undo(6, "gm", False, (5,), ("/fort repair",))


def test_an_override_typed_in_capitals_is_counted() -> None:
    """``/gm set target:ＦＯＲＴ.HP``: the engine reads it as fort.hp, and so does the summary."""
    table = Table(ScriptedDice([]))
    assert table.run(StartBattle(rounds=1, fort_hp=100))
    assert table.run(GMSet(target="ＦＯＲＴ.HP", value="70"))
    report = round_report(table.log)
    assert report.changes == (HPChange("gm", None, -30),)
    assert (report.fort_start, report.fort_end) == (100, 70) and report.adds_up


def test_a_quiet_round_keeps_its_hp() -> None:
    entries = [Action(3, "gm", "/fort next", (Event("battle.round_summary", {"round": 2, "fort_hp": 80}),))]
    report = round_report(entries)
    assert (report.fort_start, report.fort_end, report.changes) == (80, 80, ())
    assert report.adds_up


def test_units_destroyed_arrivals_and_fallen_commanders() -> None:
    entries = [
        Action(2, "gm", "x", (
            Event("unit.destroyed", {"unit": "狼", "area": "A1"}),
            Event("unit.arrived", {"unit": "鬼", "area": "B2", "round": 1}),
            Event("commander.hp_changed", {"commander": "隊長", "before": 20, "after": -3}),
            Event("trap.barricade", {"unit": "鬼", "edge": "B1-F0", "uses_before": 2, "uses_after": 1}),
            Event("trap.rammed", {"unit": "槌", "edge": "B1-F0", "uses_before": 1, "uses_after": 0}),
        )),
    ]  # fmt: skip
    report = round_report(entries, fort_now=50)
    assert report.destroyed == ("狼",)
    assert [(a.unit, a.area) for a in report.arrivals] == [("鬼", "B2")]
    assert report.commanders_down == ("隊長",)
    assert report.traps == (TrapSpent("barricade", "B1-F0", 2, 0),)
    assert (report.fort_start, report.fort_end) == (50, 50)


def _hp_after(entries: list[Action | Undo]) -> int | None:
    """The fort's HP after ``entries`` as their events last tell it: a round's end (or the battle's), or a
    change after it (the GM's ``/gm set fort.hp`` after the end)."""
    last = None
    for entry in entries:
        if isinstance(entry, Action):
            for event in entry.events:
                change = fort_hp_change(event)
                if change is not None:
                    last = change[3]
                elif event.kind in ("battle.round_summary", "battle.ended"):
                    last = event.data["fort_hp"]
    return last


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    rounds=st.integers(2, 4),
    first=st.sampled_from(["pc", "enemy"]),
    script=st.lists(commands, min_size=10, max_size=50),
    data=st.data(),
)
def test_random_rounds_add_up(rounds: int, first: str, script: list[FortCommand], data: Any) -> None:
    """F-FORT-1..6: for any round, start + every change by cause = end; each round starts where the last
    ended; every action is listed."""
    table = Table(DrawnDice(data))
    assert table.run(StartBattle(rounds=rounds, first=first, cannons=2, fort_hp=300))
    for command in (*SETUP, *script):
        table.run(command)
    assert table.state is not None
    previous_end: int | None = None
    reports: list[RoundReport] = []
    for entries, number in rounds_of(table.log):
        report = round_report(entries, round_=number, fort_now=table.state.fort_hp)
        reports.append(report)
        assert report.adds_up, report
        if previous_end is not None:
            assert report.fort_start == previous_end
        ended = _hp_after(entries)
        if ended is not None:
            assert report.fort_end == ended
        previous_end = report.fort_end
        assert [e.seq for e in report.entries] == [e.seq for e in entries]
    assert reports[0].fort_start == 300
    assert reports[-1].fort_end == table.state.fort_hp
