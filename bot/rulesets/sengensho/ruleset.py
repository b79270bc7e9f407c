"""The 千幻抄 rule set as one ``RuleSet`` (``RULESET``), found by the name ``sengensho`` in the registry."""

from __future__ import annotations

from importlib import resources
from typing import Any

from bot import gm_targets
from bot.ruleset import Lazy, Names, RuleSet, TextBinding
from bot.rulesets.sengensho import commands, events, names, offers
from bot.rulesets.sengensho import text as sengensho_text
from bot.rulesets.sengensho.gm_targets import TARGETS as GM_TARGETS
from engine.sengensho import SENGENSHO
from engine.sengensho import commands as sc
from engine.sengensho.limits import check_state
from engine.sengensho.visibility import visible


def _presenter() -> Any:
    from bot.rulesets.sengensho.discord import PRESENTER  # discord.py loads with it

    return PRESENTER


RULESET = RuleSet(
    ruleset=SENGENSHO,
    group=commands.GROUP,
    command_to_json=sc.command_to_json,
    commands=commands.COMMANDS,
    authorize=commands.authorize,
    builders={"gm set": gm_targets.builder(sc.GMSet, GM_TARGETS)},
    gm_targets=GM_TARGETS,
    battle_end_kinds=frozenset({"sg.ended"}),
    in_summary=commands.in_summary,
    visible=visible,
    secret_text=commands.secret_text,
    private_reply=commands.private_reply,
    check_limits=check_state,
    offered=frozenset({offers.PATH}),
    text=TextBinding(
        status=sengensho_text.status,
        event_values=events.EVENT_VALUES,
        offers=offers.offers,
        awaiting=offers.awaiting,
    ),
    names=Names(completion=names.completion, candidates=names.candidates),
    discord=Lazy(_presenter),
    catalogues=resources.files("bot.rulesets.sengensho") / "i18n",
)
