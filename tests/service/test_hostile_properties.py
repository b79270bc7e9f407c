"""Property tests over hostile input (tests/service/hostile.py): command lines, import documents and
bytes on the console's standard input. No exception escapes the console or the service, every reply
is plain text, and a refusal leaves the stored battle byte-identical.

Bounded for CI; ``python tools/fuzz_inputs.py`` runs the same probes over 20,000+ inputs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from hostile import Probe, command_lines, import_documents, stdin_bytes
from hypothesis import given, settings

Probed = tuple[asyncio.Runner, Probe]


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Probed]:
    runner = asyncio.Runner()
    probe = runner.run(Probe.open(tmp_path_factory.mktemp("hostile")))
    yield runner, probe
    runner.run(probe.close())
    runner.close()


@settings(max_examples=300, deadline=None)
@given(line=command_lines())
def test_no_command_line_crashes_and_a_refusal_changes_nothing(probed: Probed, line: str) -> None:
    runner, probe = probed
    runner.run(probe.line(line))
    assert probe.findings == []


@settings(max_examples=120, deadline=None)
@given(text=import_documents())
def test_no_import_document_crashes_and_a_refused_one_stores_nothing(probed: Probed, text: str) -> None:
    runner, probe = probed
    runner.run(probe.document(text))
    assert probe.findings == []


@settings(max_examples=60, deadline=None)
@given(data=stdin_bytes)
def test_no_bytes_on_the_console_stdin_crash_it(probed: Probed, data: bytes) -> None:
    runner, probe = probed
    runner.run(probe.stdin(data))
    assert probe.findings == []
