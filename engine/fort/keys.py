"""Every event kind and refusal key of the fort engine, with its data fields: the renderer's catalogue.

An event is ``Event(kind, data, dice)``; its ``kind`` is also the message key. A refusal is
``RuleError(key, **values)``. Names are as stored (NFKC); areas, edges, positions, kinds are plain strings
(``"A1"``, ``"A1-F0"``, ``"top"``, ``"magic"``). A *roll* is a dict ``{command, text, total, damage,
critical, fumble}`` where ``text`` is BCDice's own result text and ``damage`` the number dealt (0 for an
automatic failure, F-DICE-1). Fields that only some events of a kind carry are marked ``?``.
The tests check that the engine emits and raises exactly these keys, with no field outside these lists.
Any event may also carry ``out_of_turn`` (``COMMON_FIELDS``): the side whose turn it was when the GM took
an action of the other side (F-TURN-3).
"""

from __future__ import annotations

#: kind → data fields
EVENTS: dict[str, str] = {
    # battle
    "battle.started": "title rounds fort_hp cannons first",
    "battle.turn_started": "round side",
    "battle.turn_ended": "round side",
    "battle.round_summary": "round fort_hp fort_max_hp units_on_map(names) cannons(shells each)",
    "battle.confused": "round (the enemy turn of that round: no enemy unit moves, F-UNIT-12)",
    "battle.confusion_ended": "round",
    "battle.ended": "outcome(success|collapse|retreat) reason(rounds|collapse|gm) round fort_hp fort_max_hp "
    "warhorn(names of commanders still up: the boss fight gets their 鼓砲)",
    "battle.outcome_set": "before after (the GM records another outcome after the end)",
    "battle.gm_set": "target before after fort_hp_before? fort_hp_after? (the fort's HP, when a value "
    "other than fort.hp moved it: fort.max_hp below it)",
    # fort
    "fort.damaged": "source(enter|turn_start|end|siege) amount before after unit? "
    "roll?(a ram's strike, a siege roll) effect?(mattock|meteor|titanfoot|fixed) "
    "total?(the siege total before − 15)",
    "fort.healed": "amount healed(5 or 0) before after",
    "fort.repaired": "by amount before after",
    # PCs
    "pc.added": "pc owner position hp move",
    "pc.moved": "pc from to from_position to_position distance extra_m(10 for a change of position or "
    "leaving F0 from another position, F-MAP-6) moved_m(this turn, after it) "
    "move(None: not tracked, the metres are a reminder)",
    "pc.hp_changed": "pc delta set before(None: not tracked before) after",
    "pc.removed": "pc",
    "pc.claimed": "pc owner (the invoker, who had no PC of that name before: /pc claim)",
    "pc.sheet_read": "pc source hp max_hp mp max_mp defense evasion vit_resist mnd_resist initiative move "
    "weapons(list of {name, usage, acc, rate, crit, dmg}) lines(palette lines) custom(its own palette)",
    "pc.palette_set": "pc lines custom(False: back to the palette generated from its sheet)",
    "pc.damaged": "pc source(cannon_load|barrage) amount before after(None if HP is not tracked) kind? "
    "element? roll? unit?(the barrage's unit)",
    # units
    "unit.added": "unit type side area position(a soldier's at F0) hp fort_damage strike defense move "
    "weakness arrive_round level?(a monster sheet's) accuracy? evasion?",
    "unit.move_rounded": "unit given move (a move not a multiple of 10 m, as COMMANDS.md's Conventions say)",
    "unit.removed": "unit",
    "unit.arrived": "unit area round",
    "unit.moved": "unit from to path distance extra_m(leaving a position at F0 first) "
    "stopped(None|blocked|barricade|destroyed) blocker(the unit that stopped it) force",
    "unit.repositioned": "unit from_position to_position force (a soldier at F0, F-MAP-4)",
    "unit.advanced": "unit(None: all) moved(how many units reached another area) units(their names) "
    "stayed(names of units that set out but stayed where they were, not destroyed)",
    "unit.hp_changed": "unit delta set before after",
    "unit.damaged": "unit source(single|area|pierce|mine|cannon|ballista|unit_attack) kind element? "
    "raw(list: damage before weakness and defence, one per hit) defense "
    "weakness?(the bonus its weakness added, F-UNIT-15) rolls(list of rolls) taken before after "
    "by? bodies? melee? "
    "applied?(pierce: after defence, before halving) resisted? attacker?",
    "unit.destroyed": "unit area",
    "unit.revived": "unit area",
    "unit.attacked": "attacker target hit (the strike roll and damage follow in unit.damaged)",
    "unit.barrage": "unit target count(the d6) rolls damages total",
    # commanders
    "commander.added": "commander hp area horn(its war-horn effect, or None)",
    "commander.moved": "commander from to distance",
    "commander.hp_changed": "commander before after delta? set? source? unit?",
    # attacks
    "attack.area": "by unit(the target unit, or None) commander(the target commander, or None) area "
    "range(from the actor's area, F-MAP-8) radius kind element? checks(list of {unit, die, caught}) "
    "hit(names of units) characters(names: the target commander, and characters for r ≥ 7) "
    "over_cap(names left out by targets:)",
    "attack.pierce": "by from to areas kind element? resisted hit(names)",
    "attack.character": "character role(pc|commander) targeted source(area|cannon|ballista) by kind element? "
    "damages(one per roll) damage(their total) half(each halved, rounded up) rolls "
    "(its HP is the players' to change: /pc hp, /commander hp)",
    # traps
    "trap.set": "kind edge uses",
    "trap.removed": "kind edge uses",
    "trap.barricade": "unit edge uses_before uses_after stays to (the move is cancelled, F-TRAP-3)",
    "trap.rammed": "unit edge uses_before uses_after (a ram passed, F-UNIT-10)",
    "trap.passed": "unit edge (the barricade that held it is passed, F-TRAP-3)",
    "trap.mine": "unit edge uses_before uses_after (the 2D6+10 roll is in this event's dice; damage follows)",
    # cannons and ballista
    "cannon.loaded": "cannon by before after check(None: a soldier) roll reached(shells the check reached)",
    "cannon.load_failed": "cannon by before check roll (pc.damaged follows)",
    "cannon.fired": "cannon by shells unit commander area checks hit characters over_cap",
    "ballista.loaded": "by bolt magic_bolt",
    "ballista.fired": "by unit commander area bolt hit command checks hit_units characters over_cap",
}

#: key → values
REFUSALS: dict[str, str] = {
    # battle and commands
    "fort.no_battle": "",
    "fort.battle_running": "round",
    "fort.battle_over": "outcome(None: ended by /gm set target:turn without one)",
    "fort.command_invalid": "reason(not_an_object|unknown_type|missing|wrong_type) type? field?",
    "fort.import_invalid": "place(where: '$.units[0].hp') reason(why: a code such as out_of_range, or a "
    "rule's refusal key such as fort.area_invalid) detail(the reason's values: min max allowed ...)",
    "fort.replay_dice_left": "step left",
    "fort.rounds_invalid": "rounds max",
    "fort.fort_hp_invalid": "fort_hp max",
    "fort.cannons_invalid": "cannons max",
    "fort.side_invalid": "side allowed",
    "fort.outcome_invalid": "outcome allowed",
    "fort.not_your_turn": "turn round (a player's action out of its side's turn, F-TURN-3)",
    "fort.enemy_confused": "unit(None: /unit advance of every unit) round",
    "fort.enemy_confused_all": "round",
    "fort.trap_set_gm_only": "round (a player's /trap set once round 1 has begun, F-TURN-3)",
    "fort.gm_set_invalid": "target value reason(a code such as not_an_integer, or a rule's refusal key) "
    "detail(the reason's values: min max allowed ...)",
    "fort.gm_set_target_unknown": "target",
    "fort.option_required": "options",
    "fort.hp_option_required": "options",
    "fort.hp_options_both": "options",
    "fort.value_invalid": "option value minimum",
    "fort.amount_invalid": "amount",
    "fort.dice_invalid": "expression reason(a dice.* key, or not_damage)",
    # names and places
    "fort.name_invalid": "name(empty: none given) max",
    "fort.name_taken": "name",
    "fort.area_invalid": "area allowed",
    "fort.edge_invalid": "edge allowed",
    "fort.edge_not_adjacent": "edge allowed",
    "fort.position_invalid": "position allowed",
    "fort.pierce_same_area": "area",
    "fort.pierce_no_line": "origin target",
    "fort.via_invalid": "via start to",
    # who acts
    "fort.actor_required": "invoker",
    "fort.actor_ambiguous": "pcs",
    "fort.actor_unknown": "name",
    "fort.actor_not_allowed": "name (an enemy unit cannot act for the PC side)",
    "fort.actor_not_pc": "name",
    "fort.actor_inside": "name",
    "fort.equipment_not_at_top": "name area position",
    "fort.equipment_soldier_not_at_f0": "name area",
    "fort.equipment_soldier_not_at_top": "name position",
    "fort.unit_already_acted": "name action(its first main action this turn)",
    # PCs
    "fort.pc_unknown": "name",
    "fort.pc_claimed": "pc owner (its player already: a user id, @name or GM)",
    "fort.pc_move_same": "pc",
    "fort.pc_move_too_far": "pc distance extra move used(metres already moved this turn)",
    "fort.pc_enter_f0_outside": "pc position",
    "fort.position_only_at_f0": "pc area",
    "fort.position_with_area": "pc at(its area now) position(its position now, None away from F0) "
    "area(asked)",
    "fort.pc_hp_untracked": "",
    "fort.sheet_invalid": "reason(not_json, or why) place?(where) detail?(the reason's values)",
    # units and commanders
    "fort.unit_unknown": "name",
    "fort.unit_unknown_near": "name near (units whose names are close: a suggestion)",
    "fort.unit_destroyed": "name",
    "fort.unit_not_arrived": "name arrive_round?",
    "fort.unit_not_enemy": "unit",
    "fort.unit_type_invalid": "type allowed",
    "fort.unit_move_same": "unit area",
    "fort.unit_move_too_far": "unit distance left",
    "fort.unit_halted": "unit reason(blocked|barricade) area",
    "fort.unit_position_only_soldier_f0": "unit area",
    "fort.unit_position_same": "unit position",
    "fort.unit_enter_f0_outside": "unit to position",
    "fort.position_only_soldier": "unit",
    "fort.weakness_invalid": "weakness examples",
    "fort.unit_no_strike": "unit",
    "fort.unit_attack_same_side": "attacker target",
    "fort.unit_attack_pc": "unit pc (a unit's attack names a PC: its damage is the PC's HP)",
    "fort.ram_needs_strike": "unit",
    "fort.enemy_at_f0": "unit",
    "fort.soldier_not_at_f0": "unit area",
    "fort.soldier_reinforcement": "unit",
    "fort.arrive_round_invalid": "arrive_round round rounds",
    "fort.commander_unknown": "name",
    "fort.commander_down": "name",
    "fort.commander_move_same": "commander area",
    "fort.barrage_no_target": "unit area",
    # attacks
    "fort.target_not_enemy": "unit",
    "fort.melee_flying": "unit",
    "fort.melee_other_area": "actor area unit unit_area",
    "fort.melee_position": "actor position",
    "fort.melee_target_position": "actor position",
    "fort.target_one_of": "options",
    "fort.element_invalid": "element allowed",
    "fort.pierce_origin": "pc area origin",
    "fort.bodies_invalid": "bodies max",
    "fort.radius_invalid": "radius max",
    "fort.targets_invalid": "targets",
    "fort.damage_kind_invalid": "kind allowed",
    # fort and equipment
    "fort.repair_used": "round",
    "fort.repair_full": "hp max_hp",
    "fort.siege_effect_invalid": "effect allowed",
    "fort.siege_amount_required": "effect",
    "fort.siege_roll_required": "effect",
    "fort.siege_meteor_rating": "roll",
    "fort.siege_meteor_crit": "roll crit",
    "fort.trap_kind_invalid": "kind allowed",
    "fort.trap_uses_invalid": "uses max",
    "fort.trap_unknown": "kind edge",
    "fort.cannon_unknown": "cannon cannons",
    "fort.cannon_empty": "cannon",
    "fort.cannon_full": "cannon shells",
    "fort.ballista_loaded": "bolt(None: loaded without naming one)",
    "fort.ballista_not_loaded": "",
    "fort.ballista_bolt_forbidden": "bolt",
    "fort.ballista_magic_bolt_used": "",
}


#: fields any event may carry besides its own
COMMON_FIELDS = frozenset({"out_of_turn"})

#: refusal key → the rule that refuses it: the GM's detail (the bot's command log), never the players' text
RULES: dict[str, str] = {
    "fort.enemy_at_f0": "F-MAP-7",
    "fort.soldier_reinforcement": "F-MAP-7",
    "fort.soldier_not_at_f0": "F-MAP-7",
    "fort.position_only_at_f0": "F-MAP-4",
    "fort.position_with_area": "F-MAP-4",
    "fort.pc_move_too_far": "F-MAP-6",
    "fort.melee_position": "F-MAP-5",
    "fort.melee_target_position": "F-MAP-5",
    "fort.pierce_same_area": "F-MAP-3",
    "fort.pierce_no_line": "F-MAP-3",
    "fort.pierce_origin": "F-MAP-3",
    "fort.not_your_turn": "F-TURN-3",
    "fort.trap_set_gm_only": "F-TURN-3",
    "fort.enemy_confused": "F-UNIT-12",
    "fort.enemy_confused_all": "F-UNIT-12",
    "fort.melee_flying": "F-UNIT-11",
    "fort.unit_already_acted": "F-UNIT-14",
    "fort.unit_attack_pc": "F-UNIT-7",
    "fort.bodies_invalid": "F-UNIT-3",
    "fort.radius_invalid": "F-UNIT-4",
    "fort.barrage_no_target": "F-UNIT-8",
    "fort.unit_halted": "F-TRAP-3",
    "fort.repair_full": "F-FORT-3",
    "fort.repair_used": "F-FORT-3",
    "fort.siege_amount_required": "F-FORT-5",
    "fort.siege_roll_required": "F-FORT-5",
    "fort.cannon_empty": "F-CAN-3",
    "fort.cannon_full": "F-CAN-2",
    "fort.ballista_bolt_forbidden": "F-BAL-1",
    "fort.ballista_magic_bolt_used": "F-BAL-1",
}


def fields(description: str) -> frozenset[str]:
    """The field names of one catalogue line (words before any ``(`` comment, ``?`` stripped)."""
    names: set[str] = set()
    depth = 0
    word = ""
    for ch in description + " ":
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and (ch.isalnum() or ch == "_"):
            word += ch
            continue
        if word and depth <= 1:
            names.add(word)
        word = ""
    return frozenset(names)
