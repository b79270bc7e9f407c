"""Every fort command through the service, with players' refusals, on a real database file.

The numbers are worked out by hand from the rules (RULINGS.md) and the scripted dice.
"""

from __future__ import annotations

from pathlib import Path

from bot.console.parser import parse_line
from bot.registry import commands
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.views import ErrorView, EventsView, ExportView, LogView, StatusView, UndoView, View
from engine.dice import ScriptedDice

HERE = Where("guild", "fort-channel")

#: (line, refusal key or None). Dice: cannon K40 3,4 | ballista K90 3,4 | area: catch d6 2, G1 1,3, G2 2,2
#: | Sol's strike 2,2 | barrage: count 2, strikes 2,2 and 1,1
SCRIPT: list[tuple[str, str | None]] = [
    ("/fort start rounds:3 fort_hp:200 title:T", None),
    ("/pc add name:Alice position:top hp:30", None),
    ("@bob /pc add name:Bob position:outside hp:25", None),
    ("@bob /pc add name:Carl owner:dave", "service.owner_gm_only"),
    ("/pc add name:Dora position:inside owner:dave", None),
    ("/unit add name:G1 type:normal area:A1 hp:40 fort_damage:10 strike:2d+2 defense:1", None),
    ("/unit add name:G2 type:normal area:A1 hp:30 fort_damage:5 strike:2d", None),
    ("/unit add name:Ram type:ram area:A2 hp:60 fort_damage:0 strike:2d+10", None),
    ("/unit add name:Bat type:flying area:B1 hp:20 fort_damage:5", None),
    ("/unit add name:Sol type:soldier area:F0 hp:30 fort_damage:0 strike:2d+3 position:outside", None),
    ("/unit add name:Late type:normal area:B2 hp:20 fort_damage:5 arrive_round:1", None),
    ("@bob /unit add name:X type:normal area:A1 hp:1 fort_damage:1", "service.gm_only"),
    ("/unit add name:G1 type:normal area:A1 hp:1 fort_damage:1", "fort.name_taken"),
    ("/commander add name:Boss hp:50 area:A2", None),
    ("/trap set kind:mine edge:B1-B2 uses:2", None),
    ("/trap set kind:barricade edge:A2-A1 uses:1", None),
    ("/trap remove kind:mine edge:B1-B2", None),
    ("@bob /pc move name:Alice position:inside", "service.not_your_pc"),
    ("@bob /pc move name:Bob position:top", None),
    ("@bob /pc move name:Bob position:outside", None),
    ("/pc hp name:Alice delta:-5", None),
    ("@bob /pc hp name:Bob set:20", None),
    ("/cannon load cannon:1 check:15 by:Alice", None),
    ("@bob /cannon load cannon:2 by:Alice", "service.not_your_pc"),
    ("@bob /fort repair", "fort.equipment_not_at_top"),
    ("/cannon fire cannon:1 unit:Ram by:Alice", None),
    ("/ballista load by:Alice", None),
    ("/ballista fire unit:Bat by:Alice", None),
    ("/attack single unit:G2 bodies:2", None),
    ("/attack area unit:G1 damage:2d+5 radius:5 kind:magic", None),
    ("@bob /attack pierce from:F0 to:A2 damage:20 kind:fixed", None),
    ("@bob /unit attack attacker:G1 target:Sol", "service.enemy_unit_gm_only"),
    ("/fort repair by:Alice", "fort.repair_full"),  # F-FORT-3: the fort is at its maximum
    ("/fort heal amount:12", None),
    ("@bob /fort next", "service.gm_only"),
    ("/fort next", None),
    ("/unit move unit:G1 to:F0", None),
    ("@bob /unit attack attacker:Sol target:G1 hit:true", "fort.not_your_turn"),  # F-TURN-3
    ("/unit attack attacker:Sol target:G1 hit:true", None),  # the GM's, out of turn: carried out, marked
    ("/unit barrage unit:G1 apply_hp:true", None),
    ("/unit advance", None),
    ("@bob /commander move name:Boss to:A1", "service.gm_only"),
    ("/commander move name:Boss to:A1", None),
    ("/unit hp unit:G2 set:3", None),
    ("/fort siege effect:fixed amount:30", None),
    ("/fort repair by:Alice", None),
    ("/commander hp name:Boss delta:-50", None),
    ("/fort next", None),
    ("@bob /gm set target:fort.hp value:1", "service.gm_only"),
    ("/gm set target:fort.hp value:170", None),
    ("/gm undo steps:2", None),
    ("/gm redo", None),
    ("@bob /pc claim name:Alice", "fort.pc_claimed"),  # Alice is the GM's: a claim is refused
    ("/gm set target:pc.Dora.owner value:none", None),
    ("@bob /pc claim name:Dora", None),
    ("/unit remove unit:Late", None),
    ("/pc remove name:Dora", None),
    ("@bob /fort end", "service.gm_only"),
    ("/fort end outcome:retreat", None),
    ("/unit hp unit:G2 set:5", "fort.battle_over"),
]
DICE = [3, 4, 3, 4, 2, 1, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1]


async def run(service: BattleService, text: str) -> View:
    line = parse_line(text)
    assert line is not None
    return await service.execute(
        HERE, Actor(line.user or "gm"), Invocation(line.path, line.options, line.text)
    )


async def test_every_fort_command_through_the_service(storage: Storage) -> None:
    dice = ScriptedDice(DICE)
    service = BattleService(storage, dice)
    used: set[str] = set()
    for text, refusal in SCRIPT:
        view = await run(service, text)
        if refusal is None:
            assert view.ok, (text, view)
            assert isinstance(view, EventsView | UndoView), (text, view)
        else:
            assert isinstance(view, ErrorView), (text, view)
            assert view.key == refusal, (text, view)
        line = parse_line(text)
        assert line is not None
        used.add(line.path)
    assert dice.remaining == 0
    for extra in ("/fort status", "/fort map", "/fort log last:100", "/fort export"):
        view = await run(service, extra)
        assert view.ok, extra
        used.add(extra.split(" ")[0][1:] + " " + extra.split(" ")[1])
    fort_paths = {p for p, spec in commands().items() if spec.ruleset in (None, "fort")}
    # the sheet commands go through the service in tests/sheets/test_sheet_commands.py, the odds
    # planner in tests/planner/test_odds_service.py
    sheets = {"pc sheet", "pc palette", "pc roll", "fort odds"}
    # the roster through the service in tests/console/test_roster.py
    sheets |= {"unit list"}
    # /help needs no battle: tests/discord/test_roster_commands.py and tests/console/test_prompt.py
    sheets |= {"help"}
    # /settings (chat dice) needs no battle: tests/discord/test_chat_dice.py
    sheets |= {"settings"}
    # secret rolls and palettes anywhere need no battle: tests/service/test_secret_rolls_service.py,
    # tests/discord/test_secret_rolls_discord.py, tests/discord/test_palette_anywhere.py
    sheets |= {"roll secrets", "roll reveal", "palette", "palette register", "palette forget"}
    # /gm takeover: tests/service/test_gm_rights.py
    sheets |= {"gm takeover"}
    assert fort_paths - used - sheets - {"roll", "fort import", "gm add", "gm remove", "gm role"} == set()

    export = await run(service, "/fort export")
    assert isinstance(export, ExportView)
    doc = export.document
    # 200 - 10 (G1 enters F0) - 5 (G2 enters) - 30 (siege) + 10 (the repair, the GM's out of turn); the
    # GM's 170 undone with the turn, the turn redone
    assert doc["fort"] == {"hp": 165, "max_hp": 200, "repaired_round": 1}
    assert (doc["round"], doc["turn"], doc["outcome"], doc["confused_round"]) == (2, "ended", "retreat", 2)
    units = {u["name"]: (u["area"], u["hp"], u["destroyed"]) for u in doc["units"]}
    assert units == {
        "G1": ("F0", 15, False),  # 40 - 9 (area, magic) - 10 (pierce) - (7 - 1) (Sol's strike)
        "G2": ("F0", 3, False),  # 30 - 10 (2 bodies) - 9 (caught on a 2) - 10 (pierce), then set to 3
        "Ram": ("A1", 29, False),  # 60 - 21 (cannon) - 10 (pierce); it broke the barricade
        "Bat": ("B1", -18, True),  # 20 - 38 (ballista K90+20 on 3,4)
        "Sol": ("F0", 20, False),  # 30 - 10: the pierce from F0 catches soldiers too (F-UNIT-5)
    }
    assert doc["traps"] == [{"kind": "barricade", "edge": "A2-A1", "uses": 0}]
    assert [(p["name"], p["owner"], p["hp"]) for p in doc["pcs"]] == [("Alice", "gm", 25), ("Bob", "bob", 10)]
    assert doc["commanders"] == [{"name": "Boss", "area": "A1", "hp": 0, "max_hp": 50, "horn": None}]

    # /gm set is logged with who did it, and its undo too
    log = await run(service, "/fort log last:200")
    assert isinstance(log, LogView)
    gm_set = next(e for e in log.entries if e.text == "/gm set target:fort.hp value:170")
    assert (gm_set.actor, gm_set.status) == ("gm", "discarded")  # undone, then dropped by a new action
    assert [(e.kind, e.data["before"], e.data["after"]) for e in gm_set.events] == [
        ("battle.gm_set", 165, 170)
    ]
    undo = next(e for e in log.entries if e.text == "/gm undo steps:2")
    assert undo.events[0].data == {"steps": 2, "seqs": [38, 37]}  # 38 accepted lines by then
    status = await run(service, "/fort status")
    assert isinstance(status, StatusView) and status.ended


async def test_a_replay_of_the_log_gives_the_same_battle(storage: Storage, tmp_path: Path) -> None:
    """Dice are stored with the events: the same script with the logged dice gives the same export."""
    first = BattleService(storage, ScriptedDice(DICE))
    for text, _ in SCRIPT:
        await run(first, text)
    log = await run(first, "/fort log last:200")
    assert isinstance(log, LogView)
    logged = [v for entry in log.entries if entry.status == "live" for e in entry.events for _, v in e.dice]
    # the undone and redone rows keep their dice; the live ones hold every die of the battle
    assert sorted(logged) == sorted(DICE)
    from bot.storage import open_storage

    other = await open_storage(str(tmp_path / "again.db"))
    try:
        second = BattleService(other, ScriptedDice(DICE))
        for text, _ in SCRIPT:
            await run(second, text)
        a, b = await run(first, "/fort export"), await run(second, "/fort export")
        assert isinstance(a, ExportView) and isinstance(b, ExportView) and a.document == b.document
    finally:
        await other.close()
