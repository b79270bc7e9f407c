"""The odds workers per host (issue 39, item 2, ``bot.cpu``): ``TORIDE_ODDS_WORKERS`` if set, else the
CPUs the process may use (affinity, bounded by the cgroup's ``cpu.max``) less one, divided by the shard
processes on the host, at least 1."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import cpu


@pytest.fixture(autouse=True)
def one_process() -> Iterator[None]:
    yield
    cpu.share_host(1)


def test_the_cgroup_quota_bounds_the_cpus(tmp_path: Path) -> None:
    affinity = len(os.sched_getaffinity(0))
    limit = tmp_path / "cpu.max"
    limit.write_text("max 100000\n")
    assert cpu.cpu_quota(limit) == affinity
    limit.write_text("150000 100000\n")  # --cpus 1.5: rounded up
    assert cpu.cpu_quota(limit) == min(affinity, 2)
    limit.write_text("50000 100000\n")
    assert cpu.cpu_quota(limit) == 1
    assert cpu.cpu_quota(tmp_path / "missing") == affinity


def test_the_odds_workers_are_the_hosts_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cpu.ENV_ODDS_WORKERS, raising=False)
    monkeypatch.setattr(cpu, "cpu_quota", lambda: 9)
    assert cpu.odds_workers() == 8  # one CPU left to the bot
    cpu.share_host(4)  # four shard processes on the host (the shard leases say)
    assert cpu.odds_workers() == 2
    cpu.share_host(16)
    assert cpu.odds_workers() == 1
    monkeypatch.setenv(cpu.ENV_ODDS_WORKERS, "3")
    assert cpu.odds_workers() == 3


def test_the_planner_asks_for_its_workers_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.rulesets.fort.planner.runner import OddsRunner

    monkeypatch.setenv(cpu.ENV_ODDS_WORKERS, "5")
    runner = OddsRunner()
    assert runner.workers == 5
    monkeypatch.setenv(cpu.ENV_ODDS_WORKERS, "2")
    assert runner.workers == 2
    assert OddsRunner(workers=7).workers == 7
