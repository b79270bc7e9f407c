"""``toride bench dice``: the parse measured apart from the roll, medians of several runs (what it
prints, not how fast: no timed tests)."""

from __future__ import annotations

import pytest

from bot.bench import COMMANDS, figure
from bot.cli import main
from engine.dice import ScriptedDice, parse_command
from engine.dice.command import _compile, parse_command_uncached


def test_the_bench_prints_a_row_per_command_with_three_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "dice", "--runs", "3", "--seconds", "0.001"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "dice engine, one core: median of 3 runs of 0.001 s each (lowest-highest)"
    assert lines[1].split() == ["command", "parse", "µs", "roll", "µs", "roll(text)", "µs", "rolls/s"]
    assert [line.split()[0] for line in lines[2:]] == list(COMMANDS)
    for line in lines[2:]:
        assert len(line.split()) == 1 + 3 * 2 + 1  # each figure: median (lowest-highest); rolls/s


def test_a_figure_is_the_median_of_its_runs() -> None:
    calls = []
    found = figure(lambda: calls.append(1), runs=5, seconds=0.001)
    assert found.low_us <= found.median_us <= found.high_us
    assert found.per_second == pytest.approx(1e6 / found.median_us)


def test_the_uncached_parse_uses_no_cache_and_parses_alike() -> None:
    for command in (*COMMANDS, "SK20+5 comment"):
        cached = parse_command(command)
        before = (parse_command.cache_info().hits, _compile.cache_info().hits)
        uncached = parse_command_uncached(command)
        assert (parse_command.cache_info().hits, _compile.cache_info().hits) == before
        assert uncached is not cached
        assert (uncached.command, uncached.comment, uncached.secret, uncached.kind) == (
            cached.command,
            cached.comment,
            cached.secret,
            cached.kind,
        )
        dice = [3, 4, 5, 6, 1, 2, 3, 4, 5, 6]
        assert uncached.roll(ScriptedDice(dice)) == cached.roll(ScriptedDice(dice))


@pytest.mark.parametrize("words", [["--runs", "0"], ["--runs", "x"], ["--seconds", "0"], ["--seconds", "61"]])
def test_out_of_range_options_are_refused(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["bench", "dice", *words])
    assert done.value.code == 2
    assert "toride bench: error: argument" in capsys.readouterr().err
