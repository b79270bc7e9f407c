"""The Sword World 2.5 rating table (威力表), as data."""

from __future__ import annotations

import json
from importlib import resources

KEY_MAX = 100


def _load() -> tuple[tuple[int, ...], ...]:
    data = resources.files("engine.dice").joinpath("data/sw25_rating_table.json")
    raw = json.loads(data.read_text("utf-8"))
    rows: list[tuple[int, ...]] = []
    for key in range(KEY_MAX + 1):
        values = raw[str(key)]
        if len(values) != 10:
            raise ValueError(f"rating table row {key} has {len(values)} values, expected 10")
        # Index by the dice total directly: 0, 1 and 2 (1ゾロ) give nothing.
        rows.append((0, 0, 0, *(int(v) for v in values)))
    return tuple(rows)


#: RATING[key][dice_total] for key 0..100 and dice_total 0..12.
RATING: tuple[tuple[int, ...], ...] = _load()
