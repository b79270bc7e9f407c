"""The exchange in one step: ``/sg attack`` → the answer (回避・ガード・受ける) → damage → mercy.

The same rules as the four-command path (``/sg roll`` attack, ``/sg roll`` evasion against it, the
damage roll, ``/sg damage``), applied one after the other by the bot: the attack is rolled and kept
as an ``Exchange`` until its defender answers (S-CORE-4: a contest, a tie to the defender), within
what a surprise allows (S-SUR-1..5); the GM side answers by itself under ``gm_fixed`` (S-GM-1); a hit
rolls the damage and, at 0 HP, waits for the attacker's choice (S-MERCY-1). Nothing is decided
without its answer: an exchange stays until it is answered (or the GM takes it back).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError
from engine.sengensho.checks import answerers, defence_modifier, dice_cap, parse_kind, restriction, roll
from engine.sengensho.commands import Answer, Attack, Damage, Profile, Roll
from engine.sengensho.items import MERCY_CHOICES, damage
from engine.sengensho.lookup import able, locate
from engine.sengensho.sheet import check_base
from engine.sengensho.state import Character, Evasion, Exchange, GMFixed, RollKind, SengenshoState, Side
from engine.sengensho.throws import rolled_record, throw

#: how an attack may be answered, and the roll each one is
DEFENCE_ROLLS = {"evasion": RollKind.EVASION, "guard": RollKind.GUARD}
TAKE = "take"
DEFENCES = (*DEFENCE_ROLLS, TAKE)
#: the words a stored answer may use for each defence (English and Japanese, as on a sheet)
DEFENCE_WORDS = {
    "evasion": "evasion",
    "evade": "evasion",
    "回避": "evasion",
    "guard": "guard",
    "ガード": "guard",
    "take": TAKE,
    "受ける": TAKE,
}
#: the most dice an answer offered with a button takes (S-CORE-4 does not cap a defence; 0–3 covers a
#: table's usual answers, and any other is typed)
OFFERED_DICE = 3
#: S-GM-1: how the GM side answers by itself when the GM stored nothing for the character
GM_ANSWER = ("evasion", 2)
#: the checks a character may store (``/sg set``)
STORED_CHECKS = (RollKind.ATTACK, RollKind.EVASION, RollKind.GUARD)

_DAMAGE_TERM = re.compile(r"([+-]?)(\d{1,3})(d6?)?")
_ANSWER = re.compile(r"([^\d:：\s]+)\s*[:：]?\s*(\d{0,2})")


def parse_damage(text: str) -> tuple[int, int]:
    """``2d+2`` → (2 dice, base 2); ``2D6+3-1``, ``1d``, ``5`` alike (千幻抄's dice are D6)."""
    flat = unicodedata.normalize("NFKC", text).replace("−", "-").replace(" ", "").lower()
    dice = base = 0
    at = 0
    while at < len(flat):
        match = _DAMAGE_TERM.match(flat, at)
        if match is None or match.end() == at:
            raise RuleError("sg.damage_invalid", damage=text)
        sign = -1 if match.group(1) == "-" else 1
        if match.group(3):
            if sign < 0:
                raise RuleError("sg.damage_invalid", damage=text)
            dice += int(match.group(2))
        else:
            base += sign * int(match.group(2))
        at = match.end()
        if at < len(flat) and flat[at] not in "+-":
            raise RuleError("sg.damage_invalid", damage=text)
    if not flat or dice > 30:
        raise RuleError("sg.damage_invalid", damage=text)
    return dice, base


def parse_answer(text: str) -> tuple[str, int]:
    """A stored answer: ``evasion:2``, ``回避2``, ``guard1``, ``take`` / ``受ける`` → (defence, dice)."""
    flat = unicodedata.normalize("NFKC", text).strip()
    match = _ANSWER.fullmatch(flat)
    defence = DEFENCE_WORDS.get(fold(match.group(1))) if match else None
    if match is None or defence is None:
        raise RuleError("sg.answer_invalid", answer=text, allowed="evasion:2, guard:1, take")
    dice = int(match.group(2) or 0)
    if defence == TAKE and dice:
        raise RuleError("sg.answer_invalid", answer=text, allowed="evasion:2, guard:1, take")
    return defence, dice


# --- /sg set ---------------------------------------------------------------------------------------


def profile(state: SengenshoState, command: Profile, rec: EventRecorder) -> SengenshoState:
    """``/sg set``: the checks, damage and (GM side) answer ``/sg attack`` reads; each checked now."""
    i, c = locate(state, command.name)
    checks = dict(c.checks)
    for kind in STORED_CHECKS:
        text = getattr(command, kind.value)
        if text is None:
            continue
        if text.strip():
            check_base(c, text)  # refused now, not at the attack
            checks[kind.value] = text.strip()
        else:
            checks.pop(kind.value, None)
    damage_text, answer_text = c.damage, c.answer
    if command.damage is not None:
        if command.damage.strip():
            parse_damage(command.damage)
        damage_text = command.damage.strip() or None
    if command.answer is not None:
        if command.answer.strip():
            parse_answer(command.answer)
        answer_text = command.answer.strip() or None
    changed = replace(c, checks=tuple(checks.items()), damage=damage_text, answer=answer_text)
    rec.emit(
        "sg.profile_set",
        {
            "name": c.name,
            "attack": changed.check_for(RollKind.ATTACK),
            "evasion": changed.check_for(RollKind.EVASION),
            "guard": changed.check_for(RollKind.GUARD),
            "damage": damage_text,
            "answer": answer_text,
        },
        c.secret,
    )
    return state.put(i, changed)


# --- /sg attack ------------------------------------------------------------------------------------


def attacker_of(state: SengenshoState, command: Attack) -> tuple[int, Character]:
    """Who attacks: ``name``, or the invoker's one character still standing."""
    if command.name is not None:
        return able(state, command.name)
    own = [
        (i, c)
        for i, c in enumerate(state.characters)
        if command.invoker is not None and c.owner == command.invoker and c.acts
    ]
    if len(own) == 1:
        return own[0]
    if not own:
        raise RuleError("sg.attack_whose")
    raise RuleError("sg.attack_which", names=[c.name for _, c in own])


def attack(state: SengenshoState, command: Attack, rec: EventRecorder) -> SengenshoState:
    """``/sg attack``: the attack rolled as ``/sg roll kind:attack at:<target>``, then its answer asked."""
    i, c = attacker_of(state, command)
    kind = parse_kind(command.kind)
    if kind not in (RollKind.ATTACK, RollKind.MELEE):
        raise RuleError("sg.attack_kind", kind=command.kind)
    waiting = next((x for x in state.exchanges if x.attacker == c.key), None)
    if waiting is not None:
        j = state.find(waiting.awaits())
        assert j is not None
        raise RuleError(
            "sg.exchange_waiting", name=c.name, number=waiting.id, awaits=state.characters[j].name
        )
    check = command.check
    if check is None and command.base is None:
        check = c.check_for(kind)  # the one it stored (S-CORE-4: the base from the sheet)
    if check is None and command.base is None:
        raise RuleError("sg.attack_check_missing", name=c.name)
    damage_text = command.damage if command.damage is not None else c.damage
    if damage_text is None:
        raise RuleError("sg.attack_damage_missing", name=c.name)
    parse_damage(damage_text)
    j, aim = locate(state, command.target)
    if aim.key == c.key:
        raise RuleError("sg.against_self", name=c.name)
    if aim.hidden:
        raise RuleError("sg.target_hidden", name=aim.name)
    if aim.down is not None:
        raise RuleError("sg.character_down", name=aim.name, down=aim.down.value)
    if aim.hp is None:
        raise RuleError("sg.hp_untracked", name=aim.name)
    stored = dict(c.checks)
    if command.check is not None:
        stored[kind.value] = command.check.strip()
    state = state.put(i, replace(c, checks=tuple(stored.items()), damage=damage_text.strip()))
    rolled = Roll(
        name=c.name,
        base=command.base,
        dice=command.dice,
        kind=kind.value,
        check=check,
        at=aim.name,
        gm=command.gm,
    )
    state = roll(state, rolled, rec)
    c, aim = state.characters[i], state.characters[j]
    assert c.last_roll is not None
    defender = answerers(state, aim, kind)[0]
    x = Exchange(state.next_exchange, c.key, aim.key, defender.key, c.last_roll, damage_text.strip())
    state = replace(state, exchanges=(*state.exchanges, x), next_exchange=x.id + 1)
    return ask(state, x, rec)


def choices(state: SengenshoState, x: Exchange) -> tuple[list[tuple[str, int]], list[str], str | None]:
    """What the defender may answer now (S-SUR-1..5, S-CORE-4: its DP), the defences it has no check
    stored for, and the surprise that restricts it."""
    d, a = _character(state, x.defender), _character(state, x.attacker)
    s = restriction(state, d, a)
    allowed: list[tuple[str, int]] = []
    missing: list[str] = []
    for word, kind in DEFENCE_ROLLS.items():
        try:
            defence_modifier(d, s)
        except RuleError:
            break  # refused (S-SUR-1/3), or it has to perceive the attacker first (S-SUR-2)
        if d.held_by is not None or d.down is not None:
            break
        if d.check_for(kind) is None:
            missing.append(word)
            continue
        if s is not None and s.evasion is Evasion.AUTO and kind is RollKind.EVASION:
            allowed.append((word, 0))  # S-SUR-2: evaded automatically
            continue
        cap, _ = dice_cap(d, Roll(name=d.name, base=0, dice=0, kind=kind.value), kind, s)
        most = min(OFFERED_DICE, d.dp, OFFERED_DICE if cap is None else cap)
        allowed.extend((word, n) for n in range(most + 1))
    allowed.append((TAKE, 0))
    return allowed, missing, s.case if s is not None else None


def ask(state: SengenshoState, x: Exchange, rec: EventRecorder) -> SengenshoState:
    """The defender is asked; the GM side under ``gm_fixed`` answers by itself (S-GM-1)."""
    d = _character(state, x.defender)
    allowed, missing, case = choices(state, x)
    own = (
        _gm_answer(d, allowed, missing)
        if d.side is Side.ENEMY and state.gm_fixed is not GMFixed.OFF
        else None
    )
    if own is not None:
        defence, dice = own
        rec.emit("sg.answered_by_itself", {"number": x.id, "name": d.name, "defence": defence, "dice": dice})
        return resolve(state, x, defence, dice, True, rec)
    asked = replace(x, choices=tuple(allowed))
    state = replace(state, exchanges=tuple(asked if e.id == x.id else e for e in state.exchanges))
    rec.emit(
        "sg.answer_awaited",
        {
            "number": x.id,
            "attacker": _character(state, x.attacker).name,
            "name": d.name,
            "aim": _character(state, x.aim).name,
            "owner": d.owner,
            "total": x.roll.total,
            "choices": [[defence, dice] for defence, dice in allowed],
            "missing": missing,
            "surprise": case,
            "dp": d.dp,
        },
        d.secret,
    )
    return state


def _gm_answer(d: Character, allowed: list[tuple[str, int]], missing: list[str]) -> tuple[str, int] | None:
    """The answer the GM side gives by itself (S-GM-1): the one stored (``/sg set answer:``), else
    evasion with 2 dice; fewer dice where the rules or its DP allow fewer; None (the GM is asked)
    where it has no check stored for that defence."""
    defence, dice = parse_answer(d.answer) if d.answer else GM_ANSWER
    if defence == TAKE:
        return TAKE, 0
    offered = [n for word, n in allowed if word == defence]
    if offered:
        return defence, min(dice, max(offered))
    if defence in missing:
        return None
    return TAKE, 0  # the rules leave it no defence (S-SUR-1/3): it takes the attack


# --- /sg answer ------------------------------------------------------------------------------------


def find_exchange(state: SengenshoState, number: int | None, name: str | None) -> Exchange:
    """The exchange an answer is for: by number, else the oldest awaiting ``name``, else the only one."""
    if number is not None:
        found = state.exchange(number)
        if found is None:
            raise RuleError("sg.exchange_unknown", number=number)
        return found
    if name is not None:
        _, c = locate(state, name)
        mine = [x for x in state.exchanges if x.awaits() == c.key]
        if not mine:
            raise RuleError("sg.exchange_none_for", name=c.name)
        return mine[0]
    if len(state.exchanges) == 1:
        return state.exchanges[0]
    if not state.exchanges:
        raise RuleError("sg.exchange_none")
    raise RuleError("sg.exchange_which", numbers=[f"#{x.id}" for x in state.exchanges])


def answer(state: SengenshoState, command: Answer, rec: EventRecorder) -> SengenshoState:
    """``/sg answer``: the defender's answer, or (the target at 0 HP) the attacker's mercy."""
    x = find_exchange(state, command.exchange, command.name)
    if x.mercy is not None:
        if command.mercy is None:
            aim = _character(state, x.aim)
            raise RuleError("sg.mercy_required", name=aim.name, choices=", ".join(MERCY_CHOICES))
        return _mercy(state, x, command.mercy, rec)
    if command.mercy is not None:
        raise RuleError("sg.mercy_not_yet", number=x.id, name=_character(state, x.defender).name)
    defence = DEFENCE_WORDS.get(fold(command.defence))
    if defence is None:
        raise RuleError("sg.defence_invalid", defence=command.defence, allowed=", ".join(DEFENCES))
    return resolve(state, x, defence, command.dice, command.gm, rec)


def resolve(
    state: SengenshoState, x: Exchange, defence: str, dice: int, gm: bool, rec: EventRecorder
) -> SengenshoState:
    """The defence rolled against the attack as it was rolled (a tie to the defender); a hit rolls
    the damage (S-CORE-4: no DP paid) and deals it, at 0 HP after the attacker's choice (S-MERCY-1)."""
    won = False
    if defence in DEFENCE_ROLLS:
        kind = DEFENCE_ROLLS[defence]
        d = _character(state, x.defender)
        check = d.check_for(kind)
        if check is None:
            raise RuleError("sg.defence_check_missing", name=d.name, defence=defence)
        a_i = _index(state, x.attacker)
        attacker = state.characters[a_i]
        kept = attacker.last_roll
        state = state.put(a_i, replace(attacker, last_roll=x.roll))  # contested as it was rolled
        answered = Roll(
            name=d.name, base=None, dice=dice, kind=kind.value, check=check, against=attacker.name, gm=gm
        )
        state = roll(state, answered, rec)
        state = state.put(a_i, replace(state.characters[a_i], last_roll=kept))
        last = _character(state, x.defender).last_roll
        won = bool(last is not None and last.won)
    else:
        rec.emit("sg.took", {"number": x.id, "name": _character(state, x.defender).name})
    if won:
        rec.emit(
            "sg.exchange_missed",
            {
                "number": x.id,
                "attacker": _character(state, x.attacker).name,
                "name": _character(state, x.defender).name,
            },
        )
        return _done(state, x)
    return _hit(state, x, rec)


def _hit(state: SengenshoState, x: Exchange, rec: EventRecorder) -> SengenshoState:
    a, aim = _character(state, x.attacker), _character(state, x.aim)
    count, base = parse_damage(x.damage)
    t = throw(state, a, count, RollKind.DAMAGE, rec)
    total = max(0, base + t.dice_total)
    rec.emit("sg.rolled", rolled_record(a, t, base, total, RollKind.DAMAGE, aim=aim.name))
    assert aim.hp is not None
    if aim.hp - total <= 0:
        waiting = replace(x, mercy=total)
        state = replace(state, exchanges=tuple(waiting if e.id == x.id else e for e in state.exchanges))
        rec.emit(
            "sg.mercy_awaited",
            {"number": x.id, "attacker": a.name, "name": aim.name, "amount": total, "owner": a.owner},
        )
        return state
    return _done(damage(state, Damage(name=aim.name, amount=total), rec), x)


def _mercy(state: SengenshoState, x: Exchange, choice: str, rec: EventRecorder) -> SengenshoState:
    """S-MERCY-1: the attacker's choice at 0 HP, and the damage dealt with it."""
    assert x.mercy is not None
    aim = _character(state, x.aim)
    return _done(damage(state, Damage(name=aim.name, amount=x.mercy, mercy=choice), rec), x)


def _done(state: SengenshoState, x: Exchange) -> SengenshoState:
    return replace(state, exchanges=tuple(e for e in state.exchanges if e.id != x.id))


def _index(state: SengenshoState, key: str) -> int:
    i = state.find(key)
    assert i is not None
    return i


def _character(state: SengenshoState, key: str) -> Character:
    return state.characters[_index(state, key)]
