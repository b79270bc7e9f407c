"""千幻抄's ``/gm set`` targets (``engine.sengensho.overrides``) for ``bot.gm_targets``: their words are
``sg.gm_target.*`` (``gm_targets.toml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.gm_targets import GMTargets, Owner

#: a character's values (``<name>.<field>``), those autocomplete offers first
CHARACTER = (
    "hp", "dp", "acted", "declared", "unable", "hidden", "max_hp", "dp_max", "recovery", "cards", "used",
    "exposed", "down", "surprise", "attack_limit", "skills", "attributes", "note", "name",
)  # fmt: skip


def _characters(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [c for c in doc.get("characters", []) if isinstance(c, Mapping)]


TARGETS = GMTargets(
    key="sg.gm_target.",
    whole=("turn", "step", "opening", "gm_fixed", "allowance.pc", "allowance.enemy"),
    owners=(Owner("character", "", CHARACTER, _characters, lambda c: CHARACTER[:6]),),
)
