"""Every event kind and refusal key of the ordinary battle rule set, with the data fields it carries.

The front-ends' catalogues hold one sentence per key; its placeholders are among these fields. Tests
check that the engine emits and raises nothing outside these tables, and every event exactly these
fields. Besides these, a command may be refused with a shared key: ``limits.*`` (``engine.limits``),
``palette.*`` (``engine.palette``, a PC's palette) and ``dice.*`` (the dice source).

A *roll* is ``{command, text, total, damage, critical, fumble}`` (``text`` BCDice's own), or None where
a number was given. An *effect* is ``EFFECT``'s fields. Rough states are ``unhurt``, ``light``,
``heavy``, ``dying`` (無傷, 軽傷, 重傷, 瀕死). Events with ``audience=()`` are the GM's alone: the
numbers of a monster the table does not know (``bt.damaged``, ``bt.healed``, ``bt.mp``,
``bt.monster_stats``, ``bt.gm_set``); the table reads the ``_rough`` event beside them.
"""

from __future__ import annotations

#: an effect as events show it (B-EFF-1): ``rounds``/``left`` None for one until the end; ``side`` the
#: side that made it; ``mods`` a list of ``{stat: defense|evasion|hit|damage, delta}``
EFFECT = (
    "id",
    "name",
    "target",
    "part",
    "text",
    "rounds",
    "left",
    "until_end",
    "side",
    "made_round",
    "by",
    "mods",
)
#: what the table knows of a kind of monster (B-KNOW-1): ``reputation``/``weakness_value`` once the
#: numbers are known, ``weakness_text`` once the weakness is (else None)
KNOWN = ("numbers", "weakness", "reputation", "weakness_value", "weakness_text")
_HIT = ("target", "part", "by", "amount", "roll")

EVENTS: dict[str, tuple[str, ...]] = {
    "bt.started": ("title", "first"),
    "bt.pc_added": (
        "name",
        "owner",
        "hp",
        "mp",
        "defense",
        "evasion",
        "fortitude",
        "willpower",
        "initiative",
        "sheet",
        "palette",
    ),
    # parts: the parts' names ("" for a monster of one part); known: does the table see its numbers
    "bt.monster_added": ("names", "kind", "parts", "known"),
    # the GM's alone unless the table knows the kind; parts: list of {name hp max_hp mp max_mp defense
    # hit strike evasion}
    "bt.monster_stats": (
        "names",
        "kind",
        "reputation",
        "weakness_value",
        "initiative",
        "fortitude",
        "willpower",
        "level",
        "weakness",
        "move",
        "core",
        "hidden_stats",
        "parts",
    ),
    # learned: what this check taught ("numbers", "weakness")
    "bt.knowledge": ("name", "monster", "total", "roll", "best", *KNOWN, "learned"),
    "bt.revealed": ("monster", *KNOWN),
    # best, best_name: the PC side's best 先制判定 so far
    "bt.initiative": ("name", "total", "roll", "best", "best_name"),
    # how: gm | initiative | no_monsters; enemy_best None while the table does not know that monster
    "bt.first_decided": ("first", "how", "pc_best", "pc_name", "enemy_best", "enemy_name"),
    # ended: the effects that ended as it began (list of EFFECT, B-EFF-1); to_act: who may act
    "bt.turn_started": ("round", "side", "ended", "to_act"),
    "bt.turn_ended": ("round", "side", "not_acted"),
    "bt.round_ended": ("round",),
    # every character of the side standing has acted (B-INIT-2): the turn may end
    "bt.side_done": ("side", "round"),
    "bt.acted": ("name", "acted", "not_acted"),
    # B-DMG-2: amount (rolled or given) + mod (the dealer's ダメージ effects) + weakness − defense (物理)
    # = after_defense; halved (resisted half: rounded up; none: 0); final = what HP lost
    "bt.damaged": (
        *_HIT,
        "kind",
        "element",
        "resisted",
        "side",
        "dealer_side",
        "mod",
        "weakness",
        "defense",
        "after_defense",
        "halved",
        "final",
        "hp_before",
        "hp_after",
        "max_hp",
        "down",
        "destroyed",
    ),
    # the table's line of damage to a monster it does not know: rough states before and after
    "bt.damaged_rough": (*_HIT, "kind", "element", "resisted", "before", "after", "down", "destroyed"),
    "bt.healed": (*_HIT, "gained", "hp_before", "hp_after", "max_hp"),
    "bt.healed_rough": (*_HIT, "before", "after"),
    "bt.pc_down": ("name", "hp"),
    "bt.pc_up": ("name", "hp"),
    # a part other than the core (B-CHAR-3); monster_down: whether the monster is down with it
    "bt.part_destroyed": ("name", "part", "monster_down"),
    "bt.part_restored": ("name", "part", "monster_down"),
    "bt.monster_down": ("name",),
    "bt.monster_up": ("name",),
    # capped: a restore stopped at the maximum
    "bt.mp": ("name", "part", "delta", "mp_before", "mp_after", "max_mp", "capped"),
    # replaced: the id of the effect of that name it replaced, or None
    "bt.effect_added": (*EFFECT, "replaced"),
    # reason: ended (before its time)
    "bt.effect_ended": (*EFFECT, "reason"),
    "bt.effect_extended": (*EFFECT, "delta"),
    "bt.gm_set": ("target", "before", "value"),
    # pcs: list of {name hp max_hp down}; monsters: list of {name down parts: [{name state}]}
    "bt.ended": ("title", "round", "pcs", "monsters"),
}

REFUSALS: dict[str, tuple[str, ...]] = {
    "bt.no_battle": (),
    "bt.battle_over": ("title",),
    "bt.already_running": ("title",),
    "bt.command_invalid": ("reason", "type", "field"),
    "bt.name_invalid": ("name", "max"),
    "bt.replay_dice_left": ("step", "left"),
    "bt.name_taken": ("name",),
    "bt.unknown_character": ("name",),
    "bt.not_a_pc": ("name",),
    "bt.not_a_monster": ("name",),
    "bt.unknown_monster": ("monster",),
    "bt.unknown_part": ("name", "part", "parts"),
    "bt.no_parts": ("name",),
    "bt.part_required": ("name", "parts"),
    # B-CHAR-1, B-DMG-4: who may act as whom
    "bt.enemy_gm_only": ("name",),
    "bt.not_your_pc": ("name",),
    "bt.owner_gm_only": ("name",),
    # B-INIT-2: name None for the PC side's action named by no one; turn: whose turn it is
    "bt.not_your_turn": ("name", "turn", "round"),
    "bt.actor_down": ("name",),
    "bt.turns_gm_only": (),
    "bt.turn_not_done": ("names", "round"),
    "bt.no_turn": (),
    "bt.side_invalid": ("side", "allowed"),
    "bt.kind_invalid": ("kind", "allowed"),
    "bt.element_invalid": ("element", "allowed"),
    "bt.resisted_invalid": ("resisted", "allowed"),
    "bt.resisted_count": ("targets", "given"),
    "bt.duration_invalid": ("rounds", "max"),
    "bt.mod_invalid": ("mod", "allowed"),
    # reason: a dice.* key, or not_damage / not_check (a command of another kind, or a comparison)
    "bt.dice_invalid": ("expression", "reason"),
    "bt.value_invalid": ("field", "value"),
    "bt.sheet_invalid": ("max",),
    "bt.count_invalid": ("count", "max"),
    "bt.parts_required": ("name",),
    "bt.core_invalid": ("core", "parts"),
    "bt.part_twice": ("part",),
    "bt.knowledge_rolled": ("name", "monster"),
    "bt.initiative_closed": ("round",),
    "bt.initiative_rolled": ("name", "total"),
    # enemy: the monster of the highest 先制値 (no PC has rolled its 先制判定, no first side set)
    "bt.initiative_needed": ("enemy",),
    "bt.targets_required": (),
    "bt.target_twice": ("target",),
    # mp: what is left; cost: what was to be spent
    "bt.mp_short": ("name", "mp", "cost"),
    "bt.unknown_effect": ("target", "name", "effects"),
    "bt.effect_which": ("target", "name", "ids"),
    "bt.not_your_effect": ("target", "name"),
    "bt.effect_until_end": ("target", "name"),
    "bt.extend_invalid": ("name", "left", "rounds", "max"),
    "bt.set_target_invalid": ("target", "fields"),
    # reason: a code of value.reason.* (out_of_range, not_an_integer ...) or None, detail: its values
    "bt.set_value_invalid": ("target", "value", "reason", "detail"),
    # place: the path in the document (pcs.0.hp); reason: missing, not_int, out_of_range,
    # unknown_value, duplicate_name, unknown_reference, wrong_format, ...; detail: its values
    "bt.import_invalid": ("place", "reason", "detail"),
}
