"""PCs with their players (issue 34, item 4): an imported battle keeps each PC's owner exactly, a PC
without one is claimed once (``/pc claim``), and ``owned_by`` says whose a PC is: a user id, a
player's name (``@はなこ``, or ``はなこ`` as the prep page saves it) or ``GM``."""

from __future__ import annotations

from typing import Any

import pytest
from fort_helpers import Run

from engine.fort import (
    FORT,
    AddPC,
    ClaimPC,
    Repair,
    StartBattle,
    command_from_json,
    command_to_json,
    replay,
)
from engine.fort.export import export_state, import_state
from engine.fort.lookup import GM_OWNER, owned_by
from engine.fort.restore import restore_state
from engine.ruleset import Event

#: a battle as the prep page saves it: one PC a Discord user's, one a player's by name, the GM's NPC,
#: and one nobody's yet
DOC: dict[str, Any] = {
    "format": "toride.fort/1",
    "rounds": 3,
    "fort": {"hp": 280, "max_hp": 300},
    "pcs": [
        {"name": "ガルド", "area": "F0", "position": "top", "hp": 40, "owner": "123"},
        {"name": "リナ", "area": "F0", "position": "top", "hp": 30, "owner": "@はなこ"},
        {"name": "ボス", "area": "F0", "position": "inside", "hp": 50, "owner": "GM"},
        {"name": "ノラ", "area": "F0", "position": "outside", "hp": 25},
    ],
}


def owners(state: Any) -> dict[str, str | None]:
    return {p.name: p.owner for p in state.pcs}


def test_an_import_keeps_every_owner_exactly_and_a_pc_without_one_has_none() -> None:
    state = import_state(DOC)
    expected = {"ガルド": "123", "リナ": "@はなこ", "ボス": "GM", "ノラ": None}
    assert owners(state) == expected
    exported = export_state(state)
    assert [p["owner"] for p in exported["pcs"]] == ["123", "@はなこ", "GM", None]
    assert owners(restore_state(exported)) == expected  # as the database loads it again
    assert owners(import_state(exported)) == expected


def test_a_pc_without_an_owner_is_claimed_by_the_first_who_asks_once() -> None:
    run = Run(import_state(DOC))
    assert run(ClaimPC(name="ノラ", invoker="555")) == [Event("pc.claimed", {"pc": "ノラ", "owner": "555"})]
    assert run.pc("ノラ").owner == "555"
    # a second claim, by another player or by the owner, says whose it is; nothing changes
    refused = run.refused(ClaimPC(name="ノラ", invoker="777"), "fort.pc_claimed")
    assert refused.values == {"pc": "ノラ", "owner": "555"}
    assert run.refused(ClaimPC(name="ノラ", invoker="555"), "fort.pc_claimed").values["owner"] == "555"
    # so is a claim of a PC the file gave a player, or the GM
    assert run.refused(ClaimPC(name="ｶﾞﾙﾄﾞ", invoker="555"), "fort.pc_claimed").values == {
        "pc": "ガルド",
        "owner": "123",
    }
    assert run.refused(ClaimPC(name="リナ", invoker="はなこ"), "fort.pc_claimed").values["owner"] == "@はなこ"
    assert run.refused(ClaimPC(name="ボス", invoker="555"), "fort.pc_claimed").values["owner"] == "GM"
    run.refused(ClaimPC(name="誰か", invoker="555"), "fort.pc_unknown")


def test_a_claim_is_logged_as_its_command_and_replays() -> None:
    claim = ClaimPC(name="ノラ", invoker="555")
    assert command_to_json(claim) == {"type": "ClaimPC", "name": "ノラ", "invoker": "555"}
    assert command_from_json(command_to_json(claim)) == claim
    run = Run(import_state(DOC))
    run(claim)
    assert replay(run.initial, run.log) == run.state


def test_a_claim_is_no_action_of_a_turn() -> None:
    """F-TURN-3 binds actions to their side's turn; taking up one's PC is none: it is carried out in
    the enemy side's turn, unmarked."""
    run = Run(import_state({**DOC, "turn": "enemy"}))
    assert run(ClaimPC(name="ノラ", invoker="555")) == [Event("pc.claimed", {"pc": "ノラ", "owner": "555"})]


@pytest.mark.parametrize(
    ("owner", "invoker", "names", "owns"),
    [
        ("123", "123", (), True),  # a Discord user id
        ("123", "456", (), False),
        ("はなこ", "はなこ", (), True),  # the console's user is its name
        ("@はなこ", "はなこ", (), True),  # a player by name: the console's user of that name
        ("@Hanako", "hanako", (), True),  # compared as names are (case folded, NFKC)
        ("@ｈａｎａｋｏ", "555", ("Hanako",), True),  # Discord: the user's username or display name
        ("@はなこ", "555", ("たろう", "Taro"), False),
        ("@はなこ", "@はなこ", (), True),
        ("@", "", (), False),
        ("はなこ", "555", ("はなこ",), True),  # a name as the prep page saves it (the @ left out)
        ("123", "456", ("123",), False),  # digits are a Discord id: no one who calls themselves so
        ("@123", "456", ("123",), True),  # ... unless written as a name
        (GM_OWNER, "gm", (), False),  # the GM's: no player's (a GM acts for it as GM)
        (GM_OWNER, "GM", ("GM",), False),
        (None, "123", (), False),  # nobody's
        ("123", None, (), False),
    ],
)
def test_owned_by(owner: str | None, invoker: str | None, names: tuple[str, ...], owns: bool) -> None:
    assert owned_by(owner, invoker, names) is owns


def test_by_left_out_is_the_pc_the_user_owns_by_name() -> None:
    """COMMANDS.md: ``by:`` left out is the invoking user's PC; F-FORT-3: a PC at the top repairs."""
    run = Run(import_state(DOC))
    events = run(Repair(invoker="はなこ"))
    assert events == [Event("fort.repaired", {"by": "リナ", "amount": 10, "before": 280, "after": 290})]
    # the GM's NPC is nobody's PC: the GM names it with by:
    run = Run(import_state(DOC))
    assert run.refused(Repair(invoker="GM"), "fort.actor_required").values == {"invoker": "GM"}


def test_a_pc_added_is_its_adders_or_the_owner_named() -> None:
    """F-MAP-7: a PC joins at F0; its owner is the invoker or ``owner`` (a GM's ``GM`` included)."""
    run = Run()
    run(StartBattle(rounds=3))
    run(AddPC(name="A", invoker="123"))
    run(AddPC(name="B", owner="GM", invoker="gm"))
    run(AddPC(name="C"))
    assert owners(run.s) == {"A": "123", "B": "GM", "C": None}
    assert run(ClaimPC(name="C", invoker="9")) == [Event("pc.claimed", {"pc": "C", "owner": "9"})]
    assert FORT.export(run.s)["pcs"][2]["owner"] == "9"
