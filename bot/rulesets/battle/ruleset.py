"""The ordinary battle as one ``RuleSet`` (``RULESET``), found by the name ``battle`` in the registry."""

from __future__ import annotations

from importlib import resources
from typing import Any

from bot import gm_targets
from bot.ruleset import Lazy, Names, RuleSet, TextBinding
from bot.rulesets.battle import commands, events, names
from bot.rulesets.battle import text as battle_text
from bot.rulesets.battle.gm_targets import TARGETS as GM_TARGETS
from bot.rulesets.battle.palettes import own_palettes, roll_query
from bot.rulesets.battle.summary import summary_extra
from engine.battle import BATTLE
from engine.battle import commands as bc
from engine.battle.limits import check_state
from engine.battle.visibility import secret_text, visible

#: what a round summary lists (B-VIEW-1): damage dealt and taken, healing, who fell, what ended
SUMMARY = frozenset({
    "bt.damaged", "bt.damaged_rough", "bt.healed", "bt.healed_rough", "bt.pc_down", "bt.monster_down",
    "bt.part_destroyed", "bt.effect_added", "bt.effect_ended", "bt.knowledge", "bt.revealed",
    "bt.round_ended", "bt.ended",
})  # fmt: skip


def _presenter() -> Any:
    from bot.rulesets.battle.discord import PRESENTER  # discord.py loads with it

    return PRESENTER


RULESET = RuleSet(
    ruleset=BATTLE,
    group=commands.GROUP,
    command_to_json=bc.command_to_json,
    commands=commands.COMMANDS,
    builders={"gm set": gm_targets.builder(bc.GMSet, GM_TARGETS)},
    gm_targets=GM_TARGETS,
    round_end_kinds=frozenset({"bt.round_ended"}),
    battle_end_kinds=frozenset({"bt.ended"}),
    in_summary=SUMMARY.__contains__,
    visible=visible,
    secret_text=secret_text,
    check_limits=check_state,
    text=TextBinding(
        status=battle_text.status, summary_extra=summary_extra, event_values=events.EVENT_VALUES
    ),
    names=Names(completion=names.completion, candidates=names.candidates),
    palettes=own_palettes,
    offered=frozenset({"battle damage"}),
    queries={"pc roll": roll_query},
    discord=Lazy(_presenter),
    catalogues=resources.files("bot.rulesets.battle") / "i18n",
)
