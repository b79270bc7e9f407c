"""Random battles: commands are applied or refused (``RuleError``, nothing else), and invariants hold.

0 ≤ DP ≤ its maximum (half of it for an item), HP within its maximum, spell cards used ≤ declared,
allowances ≥ 0; the log replays to the same state; export and import lose nothing.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import SeededDice
from engine.ruleset import RuleError
from engine.sengensho import SENGENSHO, SengenshoCommand, SengenshoState, dice_values, replay
from engine.sengensho.commands import (
    Damage,
    Declare,
    End,
    Hide,
    Item,
    Join,
    NextTurn,
    Roll,
    Search,
    SetState,
    SpellCard,
    Start,
    Surprise,
)
from engine.sengensho.state import RollKind

NAMES = st.sampled_from(["A", "B", "C", "D"])
SMALL = st.integers(min_value=0, max_value=6)
MAYBE_NAME = st.none() | NAMES

COMMANDS = st.one_of(
    st.builds(
        Join,
        name=st.sampled_from(["A", "E"]),
        dp_max=st.none() | st.integers(0, 30),
        recovery=st.none() | st.integers(0, 8),
        body=st.none() | SMALL,
        endurance=SMALL,
        intellect=SMALL,
        sense=SMALL,
        will=SMALL,
        hp=st.none() | st.integers(1, 30),
        side=st.sampled_from(["pc", "enemy"]),
    ),
    st.just(NextTurn()),
    st.builds(Declare, name=NAMES, dp=st.integers(-1, 30)),
    st.builds(
        Roll,
        name=NAMES,
        base=st.integers(-5, 15),
        dice=st.integers(0, 4),
        cap=st.none() | SMALL,
        target=st.none() | st.integers(0, 40),
        against=MAYBE_NAME,
        kind=st.sampled_from([k.value for k in RollKind]),
    ),
    st.builds(
        Surprise,
        attacker=NAMES,
        target=NAMES,
        distance=st.sampled_from([5, 30, 31, 100]),
        wary=st.booleans(),
        alert=st.booleans(),
        ability=st.booleans(),
    ),
    st.builds(Hide, name=NAMES, base=st.integers(0, 12), dice=SMALL),
    st.builds(Search, name=NAMES, base=st.integers(0, 12), dice=SMALL, target=NAMES),
    st.builds(
        Damage,
        name=NAMES,
        amount=st.integers(0, 20),
        mercy=st.none() | st.sampled_from(["unconscious", "hp1"]),
        via=st.sampled_from(["direct", "barrage", "area"]),
    ),
    st.builds(Item, name=NAMES, holder=MAYBE_NAME, release=st.booleans()),
    st.builds(SetState, name=NAMES, unable=st.none() | st.booleans()),
    st.builds(SpellCard, name=NAMES, declare=st.none() | SMALL, take_from=MAYBE_NAME, use=st.none() | SMALL),
)

#: the four characters every random battle starts with: A and B on the PC side, C and D enemies
CAST = st.tuples(
    *(
        st.builds(
            Join,
            name=st.just(name),
            dp_max=st.integers(0, 30),
            recovery=st.integers(0, 8),
            hp=st.none() | st.integers(1, 30),
            side=st.just(side),
        )
        for name, side in (("A", "pc"), ("B", "pc"), ("C", "enemy"), ("D", "enemy"))
    )
)


def check(state: SengenshoState) -> None:
    assert state.card_allowance[0] >= 0 and state.card_allowance[1] >= 0
    for c in state.characters:
        assert 0 <= c.dp <= c.dp_max
        if c.is_item:
            assert c.dp <= c.dp_max // 2
        if c.hp is not None:
            assert c.max_hp is not None and 0 <= c.hp <= c.max_hp
        assert 0 <= c.cards_used <= c.cards


@settings(max_examples=150, deadline=None)
@given(
    ambush=st.booleans(),
    gm_fixed=st.booleans(),
    seed=st.integers(0, 2**16),
    cast=CAST,
    commands=st.lists(COMMANDS, max_size=40),
    end=st.booleans(),
)
def test_random_battles_keep_the_invariants_and_replay(
    ambush: bool,
    gm_fixed: bool,
    seed: int,
    cast: tuple[Join, ...],
    commands: list[SengenshoCommand],
    end: bool,
) -> None:
    dice = SeededDice(seed)
    start = Start("p", ambush=ambush, gm_fixed=gm_fixed)
    state = SENGENSHO.apply(None, start, dice).state
    log: list[tuple[SengenshoCommand, list[int]]] = [(start, [])]
    for command in [*cast, *commands, *([End()] if end else [])]:
        try:
            outcome = SENGENSHO.apply(state, command, dice)
        except RuleError:
            continue
        state = outcome.state
        log.append((command, dice_values(outcome.events)))
        check(state)
    assert replay(None, log) == state
    assert SENGENSHO.import_(SENGENSHO.export(state)) == state
