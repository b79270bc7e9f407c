"""Random battles: commands are applied or refused (``RuleError``, nothing else), and invariants hold.

0 ≤ DP ≤ its maximum (half of it for an item), HP within its maximum, spell card names unique per
character, allowances ≥ 0, the step one of the declared values; no public event names a character
hidden before and after it (S-HIDE-1), nor does the table's document; the log replays to the same
state; export and import lose nothing.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import SeededDice
from engine.ruleset import Event, RuleError
from engine.sengensho import SENGENSHO, SengenshoCommand, SengenshoState, dice_values, replay
from engine.sengensho.commands import (
    Damage,
    Declare,
    End,
    GMSet,
    Hide,
    Item,
    Join,
    NextStep,
    NextTurn,
    Roll,
    Search,
    SetState,
    SpellCard,
    Start,
    Surprise,
)
from engine.sengensho.state import RollKind
from engine.sengensho.visibility import visible

NAMES = st.sampled_from(["A", "B", "C", "D", "E"])
SMALL = st.integers(min_value=0, max_value=6)
MAYBE_NAME = st.none() | NAMES
CARDS = st.sampled_from(["恋符「マスタースパーク」", "霊符「夢想封印」", "x, y"])

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
        skills=st.none() | st.just("隠密3 感知2"),
        initiative=st.none() | st.integers(0, 30),
        hidden=st.booleans(),
    ),
    st.just(NextTurn()),
    st.just(NextStep()),
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
        at=MAYBE_NAME,
        gm=st.booleans(),
    ),
    st.builds(Roll, name=NAMES, base=st.none(), dice=SMALL, check=st.just("感覚+感知-1"), gm=st.booleans()),
    st.builds(
        Surprise,
        attacker=NAMES,
        target=NAMES,
        distance=st.sampled_from([5, 30, 31, 100]),
        wary=st.booleans(),
        alert=st.booleans(),
        ability=st.booleans(),
    ),
    st.builds(Hide, name=NAMES, base=st.integers(0, 12), dice=SMALL, gm=st.booleans()),
    st.builds(Search, name=NAMES, base=st.integers(0, 12), dice=SMALL, target=MAYBE_NAME),
    st.builds(
        Damage,
        name=NAMES,
        amount=st.integers(0, 20),
        mercy=st.none() | st.sampled_from(["none", "unconscious", "hp1"]),
        via=st.sampled_from(["direct", "barrage", "area"]),
    ),
    st.builds(Item, name=NAMES, holder=MAYBE_NAME, release=st.booleans()),
    st.builds(SetState, name=NAMES, unable=st.none() | st.booleans()),
    st.builds(
        SpellCard,
        name=NAMES,
        declare=st.none() | CARDS,
        take_from=MAYBE_NAME,
        use=st.none() | CARDS,
        card=st.none() | CARDS,
    ),
    st.builds(
        GMSet,
        target=st.sampled_from(["A.surprise", "B.hidden", "C.acted", "step", "gm_fixed", "opening"]),
        value=st.sampled_from(["none", "minus5", "12", "true", "all", "keep"]),
    ),
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
        assert len({k.name for k in c.cards}) == len(c.cards)
    table = visible(SENGENSHO.export(state), None)
    assert not {c.name for c in state.characters if c.hidden} & set(_strings(table["characters"]))


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value (names, wherever they sit)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def check_secrets(before: SengenshoState, after: SengenshoState, events: list[Event]) -> None:
    """S-HIDE-1: a public event never names a character hidden before and after it."""
    hidden = {c.name for c in before.characters if c.hidden} & {c.name for c in after.characters if c.hidden}
    for event in events:
        if event.audience is None:
            assert not hidden & set(_strings(dict(event.data))), (event, hidden)


@settings(max_examples=150, deadline=None)
@given(
    opening=st.sampled_from(["full", "keep", "ambush"]),
    gm_fixed=st.sampled_from(["off", "checks", "all"]),
    seed=st.integers(0, 2**16),
    cast=CAST,
    commands=st.lists(COMMANDS, max_size=40),
    end=st.booleans(),
)
def test_random_battles_keep_the_invariants_and_replay(
    opening: str,
    gm_fixed: str,
    seed: int,
    cast: tuple[Join, ...],
    commands: list[SengenshoCommand],
    end: bool,
) -> None:
    start = Start("p", opening=opening, gm_fixed=gm_fixed)
    state, log = play(start, [*cast, *commands, *([End()] if end else [])], seed)
    assert replay(None, log) == state
    assert SENGENSHO.import_(SENGENSHO.export(state)) == state


def play(
    start: Start, commands: list[SengenshoCommand], seed: int
) -> tuple[SengenshoState, list[tuple[SengenshoCommand, list[int]]]]:
    """Apply every command that the rules accept, checking the invariants after each; the log."""
    dice = SeededDice(seed)
    state = SENGENSHO.apply(None, start, dice).state
    log: list[tuple[SengenshoCommand, list[int]]] = [(start, [])]
    for command in commands:
        try:
            outcome = SENGENSHO.apply(state, command, dice)
        except RuleError:
            continue
        check_secrets(state, outcome.state, list(outcome.events))
        state = outcome.state
        log.append((command, dice_values(outcome.events)))
        check(state)
    return state, log


#: commands around a hidden enemy E: what may give it away
AROUND_E = st.one_of(
    st.builds(Hide, name=st.just("E"), base=st.integers(0, 12), dice=SMALL),
    st.builds(Search, name=NAMES, base=st.integers(0, 12), dice=SMALL, target=st.none() | st.just("E")),
    st.builds(
        Damage,
        name=st.just("E"),
        amount=st.integers(0, 20),
        mercy=st.none() | st.just("hp1"),
        via=st.just("area"),
    ),
    st.builds(
        Roll,
        name=st.just("E"),
        base=st.integers(0, 9),
        dice=SMALL,
        kind=st.sampled_from(["ability", "check", "attack"]),
        against=MAYBE_NAME,
        gm=st.just(True),
    ),
    st.builds(
        Roll,
        name=NAMES,
        base=st.integers(0, 9),
        dice=SMALL,
        kind=st.sampled_from(["resist", "perception"]),
        against=st.just("E"),
    ),
    st.builds(Declare, name=st.just("E"), dp=st.integers(0, 20)),
    st.builds(SpellCard, name=st.just("E"), declare=st.none() | CARDS, use=st.none() | CARDS),
    st.builds(Item, name=st.sampled_from(["A", "E"]), holder=st.sampled_from(["E", "C"])),
    st.builds(
        Surprise,
        attacker=st.sampled_from(["E", "C"]),
        target=st.sampled_from(["A", "E"]),
        distance=st.sampled_from([5, 50]),
        ability=st.booleans(),
    ),
    st.builds(
        GMSet,
        target=st.sampled_from(["E.dp", "E.surprise", "E.unable"]),
        value=st.sampled_from(["3", "minus5", "true"]),
    ),
    st.just(NextTurn()),
    st.just(NextStep()),
    st.just(End()),
)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**16), commands=st.lists(AROUND_E, min_size=5, max_size=30))
def test_a_hidden_character_is_never_named_in_public(seed: int, commands: list[SengenshoCommand]) -> None:
    """S-HIDE-1: whatever happens around a hidden character, no public event names it until it appears."""
    cast: list[SengenshoCommand] = [
        Join(n, dp_max=20, recovery=4, hp=20, side=s) for n, s in (("A", "pc"), ("B", "pc"), ("C", "enemy"))
    ]
    cast.append(Join("E", dp_max=20, recovery=4, hp=20, side="enemy", hidden=True, invoker="gm"))
    play(Start("p"), [*cast, *commands], seed)
