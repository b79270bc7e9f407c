"""Hostile inputs, a long run of the probes of tests/service/test_hostile_properties.py.

    python tools/fuzz_inputs.py [--count 20000] [--seed N]

Command lines (60 %), import documents (25 %) and bytes on the console's standard input (15 %), drawn
by hypothesis (tests/service/hostile.py), through the console and the service on a SQLite file. Prints
how many inputs of each kind ran and were refused, and every finding: an exception that escaped, a
reply that is not plain text, or a refusal that changed the stored battle. Exits 1 if there is one.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "service"))

from hostile import Probe, command_lines, import_documents, stdin_bytes
from hypothesis import HealthCheck, given, seed, settings


def _drive(runner: asyncio.Runner, probe: Probe, strategy: Any, method: str, count: int, at: int) -> None:
    @seed(at)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(value: Any) -> None:
        runner.run(getattr(probe, method)(value))

    one()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=20_000, help="inputs in all (default 20000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    kinds = (
        ("command lines", command_lines(), "line", 0.60),
        ("import documents", import_documents(), "document", 0.25),
        ("stdin bytes", stdin_bytes, "stdin", 0.15),
    )
    with tempfile.TemporaryDirectory() as folder, asyncio.Runner() as runner:
        probe = runner.run(Probe.open(Path(folder)))
        try:
            for name, strategy, method, share in kinds:
                before, refused, started = probe.inputs, probe.refused, time.perf_counter()
                _drive(runner, probe, strategy, method, round(args.count * share), args.seed)
                print(
                    f"{name:17} {probe.inputs - before:6} inputs, {probe.refused - refused:6} refusals,"
                    f" {time.perf_counter() - started:6.1f} s"
                )
        finally:
            runner.run(probe.close())
    print(f"{'total':17} {probe.inputs:6} inputs, {len(probe.findings)} findings")
    print("replies:", ", ".join(f"{key} {n}" for key, n in probe.outcomes.most_common()))
    for finding in probe.findings:
        print("-", finding)
    return 1 if probe.findings else 0


if __name__ == "__main__":
    sys.exit(main())
