"""A 千幻抄 battle: immutable values (frozen dataclasses with tuples), replaced, never mutated."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class Side(StrEnum):
    PC = "pc"
    ENEMY = "enemy"

    @property
    def other(self) -> Side:
        return Side.ENEMY if self is Side.PC else Side.PC


class Opening(StrEnum):
    """S-START-1: how DP stands when turn progression starts."""

    #: every DP at maximum
    FULL = "full"
    #: DP spent before the turns stays spent; turn 1 recovers as usual
    KEEP = "keep"
    #: DP spent stays spent and turn 1 gives no recovery (a hidden action found out)
    AMBUSH = "ambush"


class GMFixed(StrEnum):
    """S-GM-1: which of the GM side's dice count N × 3.5 instead of being rolled."""

    OFF = "off"
    #: checks (判定) only; damage dice are rolled
    CHECKS = "checks"
    #: damage dice too
    ALL = "all"


class Down(StrEnum):
    """S-MERCY-1: how a character at 0 HP was left."""

    UNCONSCIOUS = "unconscious"
    #: HP 1 and 戦闘不能: can talk and move slowly
    INCAPACITATED = "hp1"


class Evasion(StrEnum):
    """What a surprised character's defence may do (S-SUR-1..4)."""

    REFUSED = "refused"
    #: S-SUR-2: only after winning the perception check against the attacker, and at most 3D
    PERCEIVE_MAX3 = "perceive_max3"
    #: S-SUR-2 inside [アラート]/[識閾結界]: perception succeeds by itself; at most 3D
    MAX3 = "max3"
    MINUS5 = "minus5"
    #: S-SUR-2: inside an [アラート]/[識閾結界] reaching past 30 m, an attack from outside the effective
    #: range is evaded automatically
    AUTO = "auto"


class RollKind(StrEnum):
    CHECK = "check"
    ATTACK = "attack"
    MELEE = "melee"
    ABILITY = "ability"
    EVASION = "evasion"
    GUARD = "guard"
    RESIST = "resist"
    PERCEPTION = "perception"
    STEALTH = "stealth"
    DAMAGE = "damage"


#: S-CORE-3: a character's own rolls: they belong to its step and mark it as having acted
OWN_ROLLS = frozenset({RollKind.CHECK, RollKind.ATTACK, RollKind.MELEE, RollKind.ABILITY})
#: what answers an attack or an ability (S-CORE-4, S-SUR-2); reactions belong to any step
REACTIONS = frozenset({RollKind.EVASION, RollKind.GUARD, RollKind.RESIST, RollKind.PERCEPTION})
#: the defences a surprise restricts (S-SUR-1..5) and a held character cannot make (S-ITEM-2)
DEFENCES = frozenset({RollKind.EVASION, RollKind.GUARD})
#: rolls that a roll ``against`` them must answer with a reaction
ACTIONS_ON_OTHERS = frozenset({RollKind.ATTACK, RollKind.MELEE, RollKind.ABILITY})


@dataclass(frozen=True, slots=True)
class LastRoll:
    """A character's last roll, for contests (``against``). ``against``/``won`` if it was one;
    ``aim`` the key of the character an attack or ability was aimed at (S-ITEM-1/2)."""

    total: int
    kind: RollKind
    turn: int
    against: str | None = None
    won: bool | None = None
    aim: str | None = None


@dataclass(frozen=True, slots=True)
class Surprise:
    """A restriction on a character's defence from ``attacker`` (a key), case ``case`` (S-SUR-1..5).

    Named before its attack (S-SUR-5), it is pending until the attacker's attack ``spent`` it; ``at``
    is then the initiative value the attack was made at (None before the turns); ``unaware`` whether
    the target was caught unaware there, so that the other actions at that value are restricted too.
    """

    case: str
    attacker: str | None
    evasion: Evasion
    at: int | None = None
    unaware: bool = False
    spent: bool = True


@dataclass(frozen=True, slots=True)
class Exchange:
    """``/sg attack``: an attack awaiting its answer (攻撃 → 回避・ガード・受ける → ダメージ).

    ``attacker`` and ``aim`` are keys; ``defender`` the key of who answers it (the holder of a held
    item, S-ITEM-1); ``roll`` the attack as rolled, which the answer contests. ``damage`` the formula
    rolled on a hit. ``mercy`` is the damage that brought the target to 0 HP while the attacker
    chooses (S-MERCY-1), None while the defence is awaited.
    """

    id: int
    attacker: str
    aim: str
    defender: str
    roll: LastRoll
    damage: str
    mercy: int | None = None
    #: the answers it was asked with (defence, dice), offered again when it stays unanswered
    choices: tuple[tuple[str, int], ...] = ()

    def awaits(self) -> str:
        """The key of the character whose owner must answer now."""
        return self.attacker if self.mercy is not None else self.defender


@dataclass(frozen=True, slots=True)
class Card:
    """S-CARD-1: a named spell card (``恋符「マスタースパーク」``), declared, then used."""

    name: str
    used: bool = False
    #: the key of the character it was taken over from (S-REIN-1), so that the table, which did not
    #: see a hidden character take it, still sees it where it was (S-HIDE-1)
    taken_from: str | None = None


@dataclass(frozen=True, slots=True)
class Character:
    """S-CORE-1: a character with its attributes and skills (if given), HP, DP and recovery.

    ``held_by`` is the key of the holder while it is an item (S-ITEM-2), ``exposed`` once it was
    noticed as more than an object. ``hidden`` while the table does not know where it is (S-HIDE-1):
    ``hidden_total`` its 身体+〈隠密〉 (None until rolled), ``hidden_turn`` the turn it hid,
    ``searched_by`` who searched it this turn. ``entry_turn`` is the turn a late entrant
    (reinforcement, revealed hidden character) came in: that turn it may declare or take over spell
    cards (S-REIN-1). ``acted``: it made an own roll this turn (S-CORE-3). ``unaware_at`` is the
    initiative at which it was caught unaware this turn (S-SUR-5); ``attack_limit`` names the rule
    (S-SUR-1/2) that holds its next attack to 3D. ``surprises``: those on it, one per attacker
    (S-SUR-5: several attackers may surprise one target together). ``found``: the keys of the
    characters it has found (S-SUR-5: a won search or perception contest, or their appearing; until
    they hide again). ``struck_at``: the initiative value at which it came out of hiding with its
    attack this turn (unseen there, S-SUR-5). ``holder_knows``: while an item, whether its holder knows
    what it carries (S-ITEM-2). ``unnoticed``: the casters whose ability on it this turn it did not
    notice (disguised, or it was unconscious; S-SUR-6): the GM resists those for it.
    """

    name: str
    key: str
    owner: str | None
    side: Side
    dp: int
    dp_max: int
    recovery: int
    attributes: tuple[int, int, int, int, int] | None = None
    skills: tuple[tuple[str, int], ...] = ()
    hp: int | None = None
    max_hp: int | None = None
    declared: int | None = None
    acted: bool = False
    unable: bool = False
    down: Down | None = None
    held_by: str | None = None
    exposed: bool = False
    hidden: bool = False
    hidden_total: int | None = None
    hidden_turn: int | None = None
    searched_by: tuple[str, ...] = ()
    entry_turn: int | None = None
    last_roll: LastRoll | None = None
    surprises: tuple[Surprise, ...] = ()
    unaware_at: int | None = None
    attack_limit: str | None = None
    cards: tuple[Card, ...] = ()
    #: the GM's note (S-ITEM-1: what a hit did to a fragile or awkward item, and the like)
    note: str = ""
    #: S-HIDE-1: the name a player's new character took from it while it hid (it was renamed
    #: ``<name>(2)``); marked for the GM until renamed
    clash: str | None = None
    found: tuple[str, ...] = ()
    struck_at: int | None = None
    holder_knows: bool = False
    unnoticed: tuple[str, ...] = ()
    #: ``/sg set``, ``/sg attack``: the checks it makes (attack, melee, evasion, guard → ``感覚+射撃``)
    checks: tuple[tuple[str, str], ...] = ()
    #: its damage (``2d+2``: dice and a base; S-CORE-4: no DP paid)
    damage: str | None = None
    #: S-GM-1: how the GM side answers an attack by itself (``evasion:2``, ``guard:1``, ``take``)
    answer: str | None = None

    def check_for(self, kind: RollKind) -> str | None:
        """The check it stored for ``kind`` (a melee attack falls back on its attack)."""
        found = dict(self.checks)
        text = found.get(kind.value)
        if text is None and kind is RollKind.MELEE:
            text = found.get(RollKind.ATTACK.value)
        return text

    @property
    def surprise(self) -> Surprise | None:
        """The first surprise on it (S-SUR-5), None if there is none."""
        return self.surprises[0] if self.surprises else None

    def surprise_by(self, attacker: str | None) -> Surprise | None:
        """S-SUR-5: the surprise ``attacker`` (a key; None: the GM's) has on it."""
        return next((s for s in self.surprises if s.attacker == attacker), None)

    @property
    def is_item(self) -> bool:
        return self.held_by is not None

    @property
    def acts(self) -> bool:
        """In the turn order: anyone not knocked out (S-MERCY-1)."""
        return self.down is None

    @property
    def cards_unused(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if not card.used)

    @property
    def secret(self) -> tuple[str, ...] | None:
        """S-HIDE-1: who besides the GM may read about it while it hides (its owner); None: everyone."""
        return secret_of(self)


def secret_of(*characters: Character) -> tuple[str, ...] | None:
    """S-HIDE-1: who besides the GM may read of these characters (None: everyone)."""
    # The owners of the hidden ones; None when none of them hides.
    hidden = [c for c in characters if c.hidden]
    if not hidden:
        return None
    return tuple(dict.fromkeys(c.owner for c in hidden if c.owner))


@dataclass(frozen=True, slots=True)
class SengenshoState:
    """A whole battle. ``turn`` is 0 until the GM starts turn progression (S-START-1).

    ``step`` is the initiative value now acting (S-CORE-3), None before the turns or while no one
    is in the order. ``card_allowance`` is how many more spell cards the PC side and the enemy side
    may still declare during the battle, answering a late entrant's new cards (S-REIN-1).
    """

    title: str
    opening: Opening = Opening.FULL
    gm_fixed: GMFixed = GMFixed.OFF
    turn: int = 0
    step: int | None = None
    ended: bool = False
    characters: tuple[Character, ...] = ()
    card_allowance: tuple[int, int] = (0, 0)
    #: ``/sg attack``: the attacks awaiting an answer, oldest first, and the next one's number
    exchanges: tuple[Exchange, ...] = ()
    next_exchange: int = 1

    def find(self, key: str) -> int | None:
        for i, c in enumerate(self.characters):
            if c.key == key:
                return i
        return None

    def exchange(self, number: int) -> Exchange | None:
        return next((x for x in self.exchanges if x.id == number), None)

    def put(self, i: int, character: Character) -> SengenshoState:
        return replace(self, characters=(*self.characters[:i], character, *self.characters[i + 1 :]))

    def side_cards(self, side: Side) -> int:
        """S-CARD-1: the spell cards a side has declared (a card taken over stays counted once)."""
        return sum(len(c.cards) for c in self.characters if c.side is side)

    def shown_holder(self, holder: Character, card: Card) -> Character | None:
        """S-HIDE-1: where the table sees a card (one a hidden character took: with its giver)."""
        i = self.find(card.taken_from) if card.taken_from is not None else None
        giver = self.characters[i] if i is not None else None
        if giver is not None and giver.hidden != holder.hidden:
            return None if giver.hidden else giver
        return None if holder.hidden else holder

    def public_side_cards(self, side: Side) -> int:
        """S-CARD-1, S-HIDE-1: a side's declared cards as the table sees them."""
        return sum(
            1
            for c in self.characters
            for k in c.cards
            if (shown := self.shown_holder(c, k)) is not None and shown.side is side
        )

    def side_unused(self, side: Side) -> int:
        """S-CARD-1: how many of them remain."""
        return sum(len(c.cards_unused) for c in self.characters if c.side is side)

    def allowance(self, side: Side) -> int:
        return self.card_allowance[0 if side is Side.PC else 1]

    def with_allowance(self, side: Side, value: int) -> SengenshoState:
        pc, enemy = self.card_allowance
        return replace(self, card_allowance=(value, enemy) if side is Side.PC else (pc, value))
