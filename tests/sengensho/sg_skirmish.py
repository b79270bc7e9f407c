"""The skirmish of ``tests/data/sg_skirmish.toml`` as engine commands, built through the bot's own
command table (``bot.commands``), so that the engine, service and Discord tests play the same battle."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.commands import BuildContext, convert
from bot.registry import lookup, rulesets
from engine.sengensho import SengenshoCommand

SCRIPT = Path(__file__).resolve().parents[1] / "data" / "sg_skirmish.toml"
#: the hidden ambusher, whom no public message may name before it strikes
AMBUSHER = "ルーミア"


@dataclass(frozen=True)
class Step:
    label: str
    who: str
    path: str
    options: dict[str, Any] = field(default_factory=dict)
    dice: tuple[int, ...] = ()
    refused: str | None = None

    @property
    def command(self) -> SengenshoCommand:
        """The engine command the bot builds from this step (``who`` is the GM when it is ``gm``)."""
        spec = lookup(self.path)
        binding = rulesets().get("sengensho")
        assert binding is not None
        build = spec.build if spec.build is not None else binding.builders[spec.path]
        command: SengenshoCommand = build(
            convert(spec, self.options), BuildContext(self.who, self.who == "gm")
        )
        return command


def load() -> list[Step]:
    raw = tomllib.loads(SCRIPT.read_text(encoding="utf-8"))
    return [
        Step(
            s["label"], s["who"], s["path"], s.get("options", {}), tuple(s.get("dice", ())), s.get("refused")
        )
        for s in raw["step"]
    ]


SKIRMISH = load()
