"""The command tree is generated from the command table: one cog per group, every option as specified,
names and descriptions localised from the catalogues."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord_harness import Harness

from bot.commands import WITHIN, CommandSpec, Kind, Option, OptType, groups
from bot.discord.cogs import build_cogs
from bot.discord.labels import valid_name
from bot.discord.translator import CatalogueTranslator
from bot.i18n import catalogue
from bot.registry import commands, rulesets

#: Discord's option types
STRING, INTEGER, BOOLEAN, USER, ATTACHMENT = 3, 4, 5, 6, 11
TYPES = {
    OptType.STR: STRING,
    OptType.DAMAGE: STRING,
    OptType.CHOICE: STRING,
    OptType.INT: INTEGER,
    OptType.BOOL: BOOLEAN,
    OptType.USER: USER,
    OptType.FILE: ATTACHMENT,
    OptType.ROLE: 8,  # Discord's ROLE option type
    OptType.TEXTFILE: ATTACHMENT,
    OptType.SHEET: STRING,
}


def builtin_specs() -> list[CommandSpec]:
    """The commands users get: the generic ones and the built-in rule sets' (no test-only rule set)."""
    builtin = {
        name
        for name, b in ((r.name, r) for r in rulesets())
        if type(b.ruleset).__module__.startswith("engine.")
    }
    return [s for s in commands().values() if s.ruleset is None or s.ruleset in builtin]


def _payloads(harness: Harness) -> dict[str, dict[str, Any]]:
    """Each command's payload as the tree sends it to Discord (without translations), by path."""
    out: dict[str, dict[str, Any]] = {}
    for command in harness.bot.tree.get_commands():
        payload = command.to_dict(harness.bot.tree)
        if isinstance(command, app_commands.Group):
            for sub in payload["options"]:
                out[f"{command.name} {sub['name']}"] = sub
        else:
            out[command.name] = payload
    return out


def registered() -> dict[str, CommandSpec]:
    """The commands Discord has: all but those typed as another's words (``/roll secrets``, in
    ``/roll``'s ``expr:``: Discord cannot give ``/roll`` subcommands beside its options)."""
    return {path: spec for path, spec in commands().items() if WITHIN not in spec.extra}


async def test_one_cog_per_group_and_a_command_for_every_spec(harness: Harness) -> None:
    specs = registered()
    typed_within = {"roll secrets", "roll reveal", "palette register", "palette forget"}
    assert {p for p in commands() if p not in specs} == typed_within
    grouped = groups(specs.values())
    cogs = list(harness.bot.cogs.values())
    assert len(cogs) == len(grouped)
    assert {cog.app_command.name for cog in cogs if cog.app_command is not None} == {
        g for g in grouped if g is not None
    }
    (plain,) = [cog for cog in cogs if cog.app_command is None]
    assert sorted(c.name for c in plain.get_app_commands()) == ["help", "palette", "roll", "settings"]
    assert set(_payloads(harness)) == set(specs)
    for path in (
        "roll",
        "fort start",
        "fort next",
        "pc add",
        "unit add",
        "commander hp",
        "attack pierce",
        "trap set",
        "cannon fire",
        "ballista fire",
        "gm undo",
        "gm set",
        "gm add",
    ):
        assert path in specs


async def test_options_follow_the_spec(harness: Harness) -> None:
    payloads = _payloads(harness)
    for path, spec in registered().items():
        options = {o["name"]: o for o in payloads[path].get("options", [])}
        assert list(options) == [o.name for o in sorted(spec.options, key=lambda o: not o.required)], path
        for opt in spec.options:
            sent = options[opt.name]
            assert sent["type"] == TYPES[opt.type], (path, opt.name)
            assert sent["required"] is opt.required, (path, opt.name)
            assert sent.get("min_value") == opt.min and sent.get("max_value") == opt.max, (path, opt.name)
            if opt.type is OptType.CHOICE:
                assert [c["value"] for c in sent["choices"]] == list(opt.choices), (path, opt.name)


async def test_exact_payload_of_fort_start_and_autocomplete_flags(harness: Harness) -> None:
    start = _payloads(harness)["fort start"]
    assert start["description"] == "Start a fort-defense battle in this channel (you are its GM)."
    rounds, fort_hp, cannons, first, title = start["options"]
    assert rounds == {
        "type": 4,
        "name": "rounds",
        "description": "How many rounds to hold (1-99)",
        "required": True,
        "min_value": 1,
        "max_value": 99,
    }
    assert (fort_hp["name"], fort_hp["required"], fort_hp["min_value"]) == ("fort_hp", False, 1)
    assert cannons["max_value"] == 10
    assert first["choices"] == [{"name": "PCs", "value": "pc"}, {"name": "Enemies", "value": "enemy"}]
    assert title["type"] == STRING and "autocomplete" not in title
    flagged = {
        path: sorted(o["name"] for o in p.get("options", []) if o.get("autocomplete"))
        for path, p in _payloads(harness).items()
    }
    assert flagged["unit move"] == ["to", "unit", "via"]
    assert flagged["unit attack"] == ["attacker", "target"]
    assert flagged["attack pierce"] == ["by", "from", "to"]
    assert flagged["trap set"] == ["edge"]
    assert flagged["pc add"] == [] and flagged["unit add"] == ["area"] and flagged["commander hp"] == ["name"]
    assert flagged["gm set"] == ["target"] and flagged["roll"] == []
    # a group is guild-only; /roll also works in direct messages
    fort = harness.bot.tree.get_command("fort")
    assert fort is not None and fort.to_dict(harness.bot.tree)["dm_permission"] is False


async def test_translations_in_the_payloads_sent_to_discord(harness: Harness) -> None:
    tree = harness.bot.tree
    translator = tree.translator
    assert isinstance(translator, CatalogueTranslator)
    fort = tree.get_command("fort")
    assert fort is not None
    payload = await fort.get_translated_payload(tree, translator)
    assert payload["name"] == "fort" and payload["name_localizations"]["ja"] == "砦"
    assert "en-US" not in payload["name_localizations"]
    start = next(o for o in payload["options"] if o["name"] == "start")
    assert start["name_localizations"] == {"ja": "開始"}
    assert start["description_localizations"] == {
        "ja": "このチャンネルで砦防衛戦闘を始めます(始めた人がGM)。"
    }
    rounds = start["options"][0]
    assert rounds["name_localizations"] == {"ja": "ラウンド数"}
    assert rounds["description_localizations"] == {"ja": "何ラウンド守るか(1〜99)"}
    first = next(o for o in start["options"] if o["name"] == "first")
    assert first["choices"][0]["name_localizations"] == {"ja": "PC側"}
    pierce = next(
        o
        for o in (await tree.get_command("attack").get_translated_payload(tree, translator))["options"]
        if o["name"] == "pierce"
    )  # type: ignore[union-attr]
    names = {o["name"]: o.get("name_localizations", {}).get("ja") for o in pierce["options"]}
    assert names["from"] == "起点" and names["to"] == "終点"
    pc = await tree.get_command("pc").get_translated_payload(tree, translator)  # type: ignore[union-attr]
    assert pc["name_localizations"] == {}  # no Japanese name for /pc: it stays pc
    assert pc["description_localizations"] == {"ja": "PC: 追加、移動、HP、削除"}


async def test_names_can_stay_english() -> None:
    translator = CatalogueTranslator(names=False)
    name = app_commands.locale_str("fort", key="cmd.fort.name", kind="name")
    desc = app_commands.locale_str("x", key="cmd.fort.start.desc", kind="desc")
    assert translator.lookup(name, discord.Locale.japanese) is None
    assert (
        translator.lookup(desc, discord.Locale.japanese)
        == "このチャンネルで砦防衛戦闘を始めます(始めた人がGM)。"
    )
    assert CatalogueTranslator().lookup(name, discord.Locale.japanese) == "砦"
    assert CatalogueTranslator().lookup(name, discord.Locale.american_english) is None
    assert CatalogueTranslator().lookup(name, discord.Locale.french) is None


def test_every_command_has_descriptions_and_valid_names_in_both_languages() -> None:
    ja, en = catalogue("ja"), catalogue("en")
    for spec in builtin_specs():
        dotted = spec.path.replace(" ", ".")
        for key in ([f"cmd.{spec.group}.desc"] if spec.group else []) + [f"cmd.{dotted}.desc"]:
            assert key in ja and key in en, key
            assert 1 <= len(ja[key]) <= 100 and 1 <= len(en[key]) <= 100, key
        for opt in spec.options:
            special = f"cmd.{dotted}.opt.{opt.name}.desc"
            key = special if special in en else f"opt.{opt.name}.desc"
            assert key in ja and key in en, key
            assert len(ja[key]) <= 100 and len(en[key]) <= 100, key
            for value in opt.choices:
                assert f"choice.{opt.name}.{value}" in ja, (spec.path, value)
    for key, text in ja.items():
        if key.startswith(("cmd.", "opt.")) and key.endswith(".name"):
            assert valid_name(text), (key, text)


async def test_a_new_rule_sets_group_gets_its_cog_generically(harness: Harness) -> None:
    """A rule set registers specs; its cog, options, choices and autocomplete come with no new code."""
    many = tuple(f"c{i}" for i in range(30))
    specs = {
        "sgx roll": CommandSpec(
            "sgx",
            "roll",
            Kind.ENGINE,
            (
                Option("name", OptType.STR, required=True),
                Option("dice", OptType.INT, required=True, min=0, max=20),
                Option("against", OptType.STR),
                Option("mode", OptType.CHOICE, choices=many),
                Option("from", OptType.DAMAGE),
                Option("owner", OptType.USER),
            ),
            ruleset="sgx",
        ),
        "sgx turn": CommandSpec("sgx", "turn", Kind.ENGINE, gm=True, ruleset="sgx"),
    }
    (cog,) = build_cogs(harness.bot.frontend, specs)
    group = cog.app_command
    assert group is not None and group.name == "sgx"
    payload = group.to_dict(harness.bot.tree)
    roll = next(o for o in payload["options"] if o["name"] == "roll")
    assert [(o["name"], o["type"], o["required"]) for o in roll["options"]] == [
        ("name", 3, True),
        ("dice", 4, True),
        ("against", 3, False),
        ("mode", 3, False),
        ("from", 3, False),
        ("owner", 6, False),
    ]
    # thirty choices are more than Discord's 25: offered by autocomplete instead
    mode = next(o for o in roll["options"] if o["name"] == "mode")
    assert mode["autocomplete"] is True and "choices" not in mode
    assert [o["name"] for o in payload["options"]] == ["roll", "turn"]


def _size(payload: dict[str, Any], locale: str | None) -> int:
    """Characters Discord counts for a command: names, descriptions, choice names and values."""

    def pick(d: dict[str, Any], key: str) -> str:
        local = (d.get(f"{key}_localizations") or {}).get(locale) if locale else None
        return str(local or d.get(key, ""))

    total = len(pick(payload, "name")) + len(pick(payload, "description"))
    for choice in payload.get("choices") or []:
        total += len(pick(choice, "name")) + len(str(choice["value"]))
    return total + sum(_size(o, locale) for o in payload.get("options") or [])


#: Discord refuses a command whose names, descriptions and choices pass 4,000 characters in a locale
COMMAND_SIZE = 4000
#: issue 38: every command keeps 10% of it free, so that the next options fit
COMMAND_ROOM = COMMAND_SIZE * 9 // 10


async def test_every_command_fits_discords_size_limit_with_room_to_spare(harness: Harness) -> None:
    """Each command tree (``/sg`` with its exchange, ``/battle``, ``/fort`` ...) at most 3,600 characters,
    in English and in Japanese."""
    tree = harness.bot.tree
    assert tree.translator is not None
    sizes = {}
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, tree.translator)
        for locale in (None, "ja"):
            sizes[command.name, locale] = _size(payload, locale)
        assert len(payload.get("options") or []) <= 25, command.name
    assert {k: v for k, v in sizes.items() if v > COMMAND_ROOM} == {}
    assert sizes["sg", None] > 2000  # the count reads the whole tree (its subcommands' options too)


async def test_no_description_starts_with_a_yes_no_word(harness: Harness) -> None:
    """Issue 38: a description says what the option means, never ``true: …`` (the reader types はい)."""
    tree = harness.bot.tree
    assert tree.translator is not None
    starts = ("true", "false", "はい", "いいえ")
    found = []

    def walk(d: dict[str, Any], where: str) -> None:
        for text in (d.get("description") or "", *(d.get("description_localizations") or {}).values()):
            if text.lower().startswith(starts):
                found.append((where, text))
        for o in d.get("options") or []:
            walk(o, f"{where} {o['name']}")

    for command in tree.get_commands():
        walk(await command.get_translated_payload(tree, tree.translator), "/" + command.name)
    assert found == []


async def test_the_new_fort_options_are_generated_with_choices_names_and_autocomplete(
    harness: Harness,
) -> None:
    """COMMANDS.md (F-MAP-4, F-UNIT-4, F-UNIT-12, F-UNIT-15): ``position:``/``weakness:`` on /unit add,
    ``position:`` on /unit move, ``horn:`` and /commander move, an area effect aimed by ``unit:``,
    ``commander:`` or ``area:``, and ``element:`` with the elements' Japanese names."""
    payloads = _payloads(harness)
    area = payloads["attack area"]
    assert [o["name"] for o in area["options"]] == [
        "damage", "radius", "unit", "commander", "area", "kind", "element", "targets", "by",
    ]  # fmt: skip
    assert {o["name"] for o in area["options"] if o.get("autocomplete")} == {
        "unit",
        "commander",
        "area",
        "by",
    }
    element = next(o for o in area["options"] if o["name"] == "element")
    assert [c["value"] for c in element["choices"]] == [
        "fire", "water", "wind", "earth", "lightning", "energy", "cutting", "impact", "poison", "disease",
        "mind", "curse",
    ]  # fmt: skip
    for path in ("cannon fire", "ballista fire"):
        options = {o["name"]: o for o in payloads[path]["options"]}
        assert all(not options[name]["required"] for name in ("unit", "commander", "area")), path
    assert [(o["name"], o["required"]) for o in payloads["commander move"]["options"]] == [
        ("name", True),
        ("to", True),
    ]
    assert "horn" in {o["name"] for o in payloads["commander add"]["options"]}
    add = {o["name"]: o for o in payloads["unit add"]["options"]}
    assert [c["value"] for c in add["position"]["choices"]] == ["top", "inside", "outside"]
    assert add["weakness"]["type"] == STRING and "position" in {
        o["name"] for o in payloads["unit move"]["options"]
    }
    tree = harness.bot.tree
    translated = await tree.get_command("attack").get_translated_payload(tree, tree.translator)  # type: ignore[union-attr]
    area_ja = next(o for o in translated["options"] if o["name"] == "area")
    element_ja = next(o for o in area_ja["options"] if o["name"] == "element")
    assert element_ja["name_localizations"] == {"ja": "属性"}
    assert [c["name_localizations"]["ja"] for c in element_ja["choices"][:2]] == ["炎", "水・氷"]
    commander = await tree.get_command("commander").get_translated_payload(tree, tree.translator)  # type: ignore[union-attr]
    move = next(o for o in commander["options"] if o["name"] == "move")
    assert move["name_localizations"] == {"ja": "移動"}
