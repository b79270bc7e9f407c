"""``/fort odds`` through the service and the console: a worker process answers what the planner
answers in this process, anyone may ask, refusals say why, a plan past its time is stopped."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from odds_targets import broken, sleepy
from PIL import Image

from bot.console.session import ConsoleSession
from bot.rulesets.fort.pictures import odds_chart
from bot.rulesets.fort.planner.runner import OddsRunner
from bot.rulesets.fort.views import OddsView
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.views import ErrorView
from engine.dice import ScriptedDice
from engine.fort.export import import_state
from engine.fort.planner import PlanRequest, parse_pc_damage, plan

HERE = Where("g", "north")
GM, PLAYER = Actor("gm"), Actor("player")
SETUP = (
    ("fort start", {"rounds": 2, "fort_hp": 40, "title": "北の砦"}),
    (
        "unit add",
        {"name": "破城槌", "type": "ram", "area": "A1", "hp": 15, "fort_damage": 0, "strike": "2d+10"},
    ),
    ("unit add", {"name": "ゴブリン隊", "type": "normal", "area": "A2", "hp": 12, "fort_damage": 8}),
)


async def started(service: BattleService) -> None:
    for path, options in SETUP:
        view = await service.execute(HERE, GM, Invocation(path, dict(options)))
        assert view.ok, view


def odds(**options: object) -> Invocation:
    return Invocation("fort odds", dict(options))


async def test_the_worker_answers_what_the_planner_answers(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([]))
    await started(service)
    view = await service.execute(HERE, PLAYER, odds(runs=2000, pc_damage="Alice=2d+4", seed=9))
    assert isinstance(view, OddsView) and view.title == "北の砦"
    assert view.filename == "fort-odds-north-1-9.png"
    live = await service.status(HERE)
    assert live is not None
    request = PlanRequest(runs=2000, attacks=parse_pc_damage("Alice=2d+4"), seed=9)
    assert view.result == plan(import_state(live.document), request)
    # without a seed the service draws one, and the answer says which
    unseeded = await service.execute(HERE, PLAYER, odds())
    assert isinstance(unseeded, OddsView) and unseeded.result is not None and unseeded.result.runs == 10_000
    assert unseeded.filename.endswith(f"-{unseeded.result.seed}.png")


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"pc_damage": "2d:holy"}, "odds.pc_damage_kind"),
        ({"pc_damage": "fireball"}, "fort.dice_invalid"),
        ({"runs": 50}, "command.out_of_range"),
    ],
)
async def test_refusals(storage: Storage, options: dict[str, object], key: str) -> None:
    service = BattleService(storage, ScriptedDice([]))
    assert (await service.execute(HERE, GM, odds())) == ErrorView(key="service.no_battle")
    await started(service)
    refused = await service.execute(HERE, GM, odds(**options))
    assert isinstance(refused, ErrorView) and refused.key == key


async def test_a_battle_that_is_over_or_of_another_rule_set(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([]))
    await started(service)
    assert (await service.execute(HERE, GM, Invocation("fort end", {"outcome": "retreat"}))).ok
    assert (await service.execute(HERE, GM, odds())) == ErrorView(key="odds.battle_over")
    other = Where("g", "sg")
    assert (await service.execute(other, GM, Invocation("sg start", {"title": "千幻"}))).ok
    refused = await service.execute(other, GM, odds())
    assert isinstance(refused, ErrorView) and refused.key == "service.wrong_ruleset"


async def test_a_plan_past_its_time_is_stopped(storage: Storage, tmp_path: Path) -> None:
    pidfile = tmp_path / "worker.pid"
    runner = OddsRunner(time_limit=2.0, target=functools.partial(sleepy, str(pidfile)))
    service = BattleService(storage, ScriptedDice([]), planners={"fort": runner})
    await started(service)
    view = await service.execute(HERE, GM, odds(runs=5000))
    assert view == ErrorView(key="odds.timeout", values={"seconds": 2, "runs": 5000})
    with pytest.raises(ProcessLookupError):  # the worker was killed, and reaped
        os.kill(int(pidfile.read_text(encoding="utf-8")), 0)


async def test_a_worker_that_dies_is_reported(storage: Storage, caplog: pytest.LogCaptureFixture) -> None:
    service = BattleService(storage, ScriptedDice([]), planners={"fort": OddsRunner(target=broken)})
    await started(service)
    assert (await service.execute(HERE, GM, odds())) == ErrorView(key="odds.failed")
    assert "the worker ended without an answer" in caplog.text


@pytest.mark.parametrize(
    ("lang", "said"), [("ja", "防衛予測のグラフを書き出しました: "), ("en", "The odds chart was written to ")]
)
async def test_the_console_writes_the_chart_and_says_where(
    storage: Storage, tmp_path: Path, lang: str, said: str
) -> None:
    console = ConsoleSession(
        BattleService(storage, ScriptedDice([])), channel="north", lang=lang, base_dir=tmp_path
    )
    for line in (
        "/fort start rounds:2 fort_hp:40",
        "/unit add name:破城槌 type:ram area:A1 hp:15 fort_damage:0 strike:2d+10",
    ):
        assert (await console.handle(line)) is not None
    reply = await console.handle("/fort odds runs:500 seed:4")
    assert reply is not None and reply.ok
    path = tmp_path / "fort-odds-north-1-4.png"
    assert reply.text.endswith(said + str(path))
    assert Image.open(path).size == (odds_chart.WIDTH, odds_chart.HEIGHT)
