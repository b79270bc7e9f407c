"""Issue 34's proof: every hostile body of a property test, sent as the page sends it (its token, its
Origin, JSON) to every route that reads one, is answered with a refusal in words, never a 500. The
drafts are test_prep_hostile's (any JSON value, and any value anywhere in a valid draft)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_prep_hostile import JSON, REPRS, mutated

from bot.prep.app import Prep, serve
from bot.rulesets.builtin import ensure_builtin

ROUTES = ("/api/check", "/api/save", "/api/sheet", "/api/odds", "/api/open")


class Served:
    """``toride prep FILE`` served from a thread of its own (its own event loop) for sync requests."""

    def __init__(self, file: Path) -> None:
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(file, ready), daemon=True)
        self.thread.start()
        assert ready.wait(30)

    def _run(self, file: Path, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        fort = next(r for r in ensure_builtin() if r.prep is not None)
        self.prep = Prep(fort, "ja", file)
        self.runner = self.loop.run_until_complete(serve(self.prep, 0))
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"
        ready.set()
        self.loop.run_forever()

    def post(self, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
        headers = {"X-Toride-Token": self.prep.guard.token, "Origin": self.url,
                   "Content-Type": "application/json"}  # fmt: skip
        request = urllib.request.Request(self.url + path, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def close(self) -> None:
        async def stop() -> None:
            await self.prep.close()
            await self.runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("hostile") / "battle.json")
    yield server
    server.close()


def _refused_in_words(status: int, answer: dict[str, Any]) -> None:
    assert status in (200, 400, 409, 413, 422), (status, answer)
    for refusal in answer.get("refusals", []):
        assert isinstance(refusal["text"], str) and refusal["text"].strip()
        assert not any(word in refusal["text"] for word in REPRS), refusal


def _encoded(value: Any) -> bytes:
    with contextlib.suppress(ValueError):  # an integer too long for JSON's text is no request
        return json.dumps(value, ensure_ascii=False).encode("utf-8")
    assume(False)
    raise AssertionError


HOSTILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                   HealthCheck.function_scoped_fixture])  # fmt: skip


@HOSTILE
@given(body=JSON, route=st.sampled_from(ROUTES))
def test_any_json_body_to_any_route_is_refused_in_words(served: Served, body: Any, route: str) -> None:
    _refused_in_words(*served.post(route, _encoded(body)))


@HOSTILE
@given(draft=mutated(), route=st.sampled_from(ROUTES[:4]), wrap=st.booleans())
def test_a_mutated_draft_to_any_route_is_refused_in_words(
    served: Served, draft: Any, route: str, wrap: bool
) -> None:
    body = {"draft": draft, "options": {"runs": "50"}} if wrap or route != "/api/check" else draft
    _refused_in_words(*served.post(route, _encoded(body)))


def test_bytes_that_are_not_json_are_refused_in_words(served: Served) -> None:
    for body in (b"", b"\xff\xfe", b"[1, 2]", b"nul", b'{"draft": '):
        for route in ROUTES:
            _refused_in_words(*served.post(route, body))
