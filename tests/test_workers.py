"""The suite's parallel run (pytest-xdist, ``-n auto --dist loadgroup`` in pyproject.toml): a test
marked ``xdist_group`` is sent to a worker with the rest of its group, which xdist does by the group
in the test's node id (``...@processes``). When that stops working (as with pytest 9.2 and
pytest-xdist 3.8, whose mark on the node id is lost), the groups' tests run on every worker at once
and nothing else says so: this test does."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("processes")
def test_a_grouped_test_goes_with_its_group(request: pytest.FixtureRequest) -> None:
    grouped = bool(getattr(request.config.option, "loadgroup", False))  # a worker of --dist loadgroup
    assert request.node.nodeid.endswith("@processes") == grouped, request.node.nodeid
