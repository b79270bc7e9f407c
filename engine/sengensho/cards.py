"""Named spell cards (S-CARD-1) and a late entrant's cards (S-REIN-1).

A card (``恋符「マスタースパーク」``) belongs to a character: declared, then used. Before the turns
every side declares freely. Once they run, a late entrant (a reinforcement, or a hidden character
appearing, S-HIDE-1) may, in the turn it came in, take over an ally's declared and unused card (the
side's count stays) or declare new ones, which lets the other side declare as many more.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError
from engine.sengensho.commands import SpellCard
from engine.sengensho.lookup import able, locate
from engine.sengensho.state import Card, Character, SengenshoState, Side, secret_of

#: what separates several card names in one ``declare:``
_SEPARATORS = re.compile(r"[,、，]")
#: the longest card name (characters, after NFKC)
CARD_MAX = 64


def card_names(text: str) -> list[str]:
    """``恋符「マスタースパーク」, 霊符「夢想封印」`` → the names, each NFKC and trimmed."""
    names = [unicodedata.normalize("NFKC", n).strip() for n in _SEPARATORS.split(text)]
    if not all(names) or any(len(n) > CARD_MAX for n in names):
        raise RuleError("sg.card_name_invalid", card=text)
    digits = next((n for n in names if n.isdigit()), None)
    if digits is not None:  # the earlier ``declare:2`` (a count): a card is named
        raise RuleError("sg.card_name_digits", card=digits)
    return names


def balance_warning(state: SengenshoState, rec: EventRecorder) -> None:
    """S-CARD-1: warn when the sides' counts differ (at the start, or after a late entrant's cards)."""
    pc, enemy = state.public_side_cards(Side.PC), state.public_side_cards(Side.ENEMY)
    if pc != enemy:
        rec.emit(
            "sg.cards_unbalanced",
            {
                "pc": pc,
                "enemy": enemy,
                "pc_allowance": state.allowance(Side.PC),
                "enemy_allowance": state.allowance(Side.ENEMY),
            },
        )


def late_entrant(state: SengenshoState, c: Character) -> bool:
    """S-REIN-1: a reinforcement (or a hidden character appearing, S-HIDE-1) in the turn it came in."""
    return state.turn >= 1 and c.entry_turn == state.turn


def find_card(c: Character, name: str) -> Card | None:
    """The card of ``c`` named ``name`` (full width and case folded, as names are)."""
    key = fold(name)
    return next((card for card in c.cards if fold(card.name) == key), None)


def _card_of(c: Character, name: str) -> Card:
    card = find_card(c, name)
    if card is None:
        shown = unicodedata.normalize("NFKC", name).strip()
        if not c.cards:
            raise RuleError("sg.card_none", name=c.name, card=shown)
        raise RuleError("sg.card_unknown", name=c.name, card=shown, cards=", ".join(k.name for k in c.cards))
    return card


def take_over(
    state: SengenshoState, i: int, giver: str, name: str | None, rec: EventRecorder
) -> SengenshoState:
    """S-REIN-1: a late entrant takes over a declared, unused card from an ally; the side's count stays."""
    c = state.characters[i]
    if not late_entrant(state, c):
        raise RuleError("sg.cards_not_late_entrant", name=c.name)
    j, ally = locate(state, giver)
    if j == i or ally.side is not c.side:
        raise RuleError("sg.cards_not_ally", name=c.name, ally=ally.name)
    unused = ally.cards_unused
    if name is None:
        if len(unused) != 1:
            raise RuleError(
                "sg.card_which", name=ally.name, cards=", ".join(k.name for k in unused), count=len(unused)
            )
        card = unused[0]
    else:
        card = _card_of(ally, name)
        if card.used:
            raise RuleError("sg.card_used", name=ally.name, card=card.name)
    if find_card(c, card.name) is not None:
        raise RuleError("sg.card_duplicate", name=c.name, card=card.name)
    state = state.put(j, replace(ally, cards=tuple(k for k in ally.cards if k is not card)))
    state = state.put(i, replace(c, cards=(*c.cards, replace(card, taken_from=ally.key))))
    # S-HIDE-1, S-CARD-1: taken by or from a hidden character, it is for the GM and both owners (the
    # giver's is told who took it), and nothing of it is public
    hidden = secret_of(c, ally) is not None
    owners = tuple(dict.fromkeys(o for o in (ally.owner, c.owner) if o))
    rec.emit(
        "sg.cards_taken",
        {
            "name": c.name,
            "from": ally.name,
            "card": card.name,
            "side": c.side.value,
            "side_total": state.side_cards(c.side),
        },
        owners if hidden else None,
    )
    return state


def give(state: SengenshoState, i: int, to: str, name: str | None, rec: EventRecorder) -> SengenshoState:
    """S-CARD-1, S-REIN-1: the giver's owner hands a declared, unused card over to a late entrant."""
    giver = state.characters[i]
    j, _ = locate(state, to)
    if j == i:
        raise RuleError("sg.against_self", name=giver.name)
    return take_over(state, j, giver.name, name, rec)


def declare_cards(state: SengenshoState, i: int, text: str, rec: EventRecorder) -> SengenshoState:
    """S-REIN-1: new cards: free before the turns; then a late entrant's, and as many for the other side."""
    c = state.characters[i]
    if c.hidden:
        raise RuleError("sg.cards_hidden", name=c.name)
    names = card_names(text)
    folded = [fold(n) for n in names]
    twice = [n for n, k in zip(names, folded, strict=True) if find_card(c, n) or folded.count(k) > 1]
    if twice:
        raise RuleError("sg.card_duplicate", name=c.name, card=twice[0])
    count, answer = len(names), 0
    if state.turn >= 1:
        if late_entrant(state, c):
            answer = count
            state = state.with_allowance(c.side.other, state.allowance(c.side.other) + count)
        elif state.allowance(c.side) >= count:
            state = state.with_allowance(c.side, state.allowance(c.side) - count)
        else:
            raise RuleError("sg.cards_closed", name=c.name, count=count, allowance=state.allowance(c.side))
    state = state.put(i, replace(c, cards=(*c.cards, *(Card(n) for n in names))))
    rec.emit(
        "sg.cards_declared",
        {
            "name": c.name,
            "cards": names,
            "count": count,
            "side": c.side.value,
            "side_total": state.public_side_cards(c.side),
            "answer": answer,
            "other_side": c.side.other.value,
        },
    )
    if state.turn >= 1:
        balance_warning(state, rec)
    return state


def use_card(state: SengenshoState, i: int, name: str, rec: EventRecorder) -> SengenshoState:
    """S-CARD-1: a declared card is used (発動/展開): it can no longer be taken over (S-REIN-1)."""
    c = state.characters[i]
    card = _card_of(c, name)
    if card.used:
        raise RuleError("sg.card_used", name=c.name, card=card.name)
    cards = tuple(replace(k, used=True) if k is card else k for k in c.cards)
    changed = replace(c, cards=cards)
    rec.emit(
        "sg.cards_used",
        {"name": c.name, "card": card.name, "unused": len(changed.cards_unused)},
        c.secret,
    )
    return state.put(i, changed)


def spellcard(state: SengenshoState, command: SpellCard, rec: EventRecorder) -> SengenshoState:
    """S-CARD-1, S-REIN-1: ``declare``, ``take_from`` (with ``card``), then ``use``, by name."""
    i, c = able(state, command.name)
    if command.card is not None and command.take_from is None and command.give_to is None:
        raise RuleError("sg.card_needs_take_from", name=c.name)
    if (command.declare, command.take_from, command.use, command.give_to) == (None, None, None, None):
        raise RuleError("sg.nothing_to_change", name=c.name)
    if sum(x is not None for x in (command.declare, command.take_from, command.give_to)) > 1:
        raise RuleError("sg.declare_or_take", name=c.name)
    if command.give_to is not None:
        state = give(state, i, command.give_to, command.card, rec)
    elif command.take_from is not None:
        state = take_over(state, i, command.take_from, command.card, rec)
    elif command.declare is not None:
        state = declare_cards(state, i, command.declare, rec)
    if command.use is not None:
        state = use_card(state, i, command.use, rec)
    return state
