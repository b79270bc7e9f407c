"""Random rounds through the service, undos and redos among them (hypothesis): every round summary's fort
HP changes add up to end − start, end at the HP the round ended with, and start where the previous round
ended; every action of the round appears with its actor."""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import open_storage
from bot.views import EventsView
from engine.dice import SeededDice
from engine.fort.report import Action, RoundReport

SETUP = (
    "/fort start rounds:4 fort_hp:120",
    "@alice /pc add name:アリス position:top",
    "/unit add name:狼 type:normal area:A1 hp:30 fort_damage:10 defense:1",
    "/unit add name:槌 type:ram area:A2 hp:40 fort_damage:0 strike:2d+3",
    "/unit add name:鳥 type:flying area:B2 hp:20 fort_damage:5 move:20",
    "/unit add name:鬼 type:normal area:B1 hp:50 fort_damage:8 arrive_round:2",
    "/commander add name:隊長 hp:20 area:A2",
    "/trap set kind:mine edge:A1-F0 uses:2",
    "/trap set kind:barricade edge:B1-F0 uses:1",
)
LINES = st.sampled_from(
    [
        "/fort next",
        "/fort next",
        "/fort next",
        "/unit advance",
        "/unit advance",
        "/gm undo",
        "/gm undo steps:2",
        "/gm redo",
        "/gm set target:fort.hp value:90",
        "/gm set target:fort.max_hp value:100",
        "@alice /fort repair",
        "/fort heal amount:12",
        "/fort siege effect:fixed amount:7",
        "/unit hp unit:狼 delta:-20",
        "/commander hp name:隊長 delta:-25",
        "@alice /attack single unit:狼 bodies:2",
        "/fort end",
    ]
)


async def _play(lines: list[str], seed: int, folder: Path) -> list[tuple[RoundReport, int | None]]:
    storage = await open_storage(str(folder / "r.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(seed)), lang="en", base_dir=folder)
        out: list[tuple[RoundReport, int | None]] = []
        for line in (*SETUP, *lines):
            reply = await session.handle(line)
            assert reply is not None
            view = reply.view
            if not isinstance(view, EventsView):
                continue
            for summary in view.summaries:
                assert isinstance(summary.report, RoundReport)
                ended = [
                    e.data["fort_hp"]
                    for e in view.events[: summary.after]
                    if e.kind in ("battle.round_summary", "battle.ended")
                ]
                out.append((summary.report, ended[-1] if ended else None))
                # every action listed with its actor: the text shows each head line
                text = reply.text
                for entry in summary.report.entries:
                    if isinstance(entry, Action):
                        assert re.search(rf"#{entry.seq} {re.escape(entry.actor)}: ", text), (entry, text)
        return out
    finally:
        await storage.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINES, min_size=5, max_size=30), seed=st.integers(0, 2**32 - 1))
def test_random_rounds_through_the_service_add_up(lines: list[str], seed: int) -> None:
    """F-FORT-1..6, F-END-1: the summaries' numbers, whatever the GM did (undo and redo included)."""
    with tempfile.TemporaryDirectory() as folder:
        reports = asyncio.run(_play(lines, seed, Path(folder)))
    ends: dict[int, int] = {}
    for report, ended in reports:
        assert report.adds_up, report
        if ended is not None:
            assert report.fort_end == ended
        if report.kind == "round" and report.round is not None:
            if report.round == 1:
                assert report.fort_start == 120
            elif report.round - 1 in ends:
                assert report.fort_start == ends[report.round - 1], (report, ends)
            if report.fort_end is not None:
                ends[report.round] = report.fort_end
