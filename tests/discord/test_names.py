"""Every command and option name Discord is sent, localized ones too, passes Discord's naming rule.

Discord ("Application Command Naming"): CHAT_INPUT command and option names, and their
``name_localizations``, match ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` (unicode), and a
letter with a lower-case variant must be that variant. A whole command is refused for one bad
localization, so the translator drops a name that breaks the rule; the catalogue test below makes
sure none has to be dropped, so Japanese clients get every Japanese name.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from discord_harness import Harness
from test_tree import builtin_specs

from bot.discord.labels import option_name_key, valid_name
from bot.i18n import catalogue

SUBCOMMAND, GROUP = 1, 2


async def _translated(harness: Harness) -> list[dict[str, Any]]:
    tree = harness.bot.tree
    assert tree.translator is not None
    return [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]


def _named(payloads: list[dict[str, Any]], where: str = "") -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Each list of siblings (the top-level commands, a command's options ...), with where it is."""
    yield where or "/", payloads
    for payload in payloads:
        options = payload.get("options") or []
        if options:
            yield from _named(options, f"{where}/{payload['name']}")


async def test_every_name_and_localized_name_passes_discords_rule(harness: Harness) -> None:
    checked = 0
    for where, siblings in _named(await _translated(harness)):
        for payload in siblings:
            names = [payload["name"], *(payload.get("name_localizations") or {}).values()]
            for name in names:
                assert valid_name(name), (where, name)
                checked += 1
        # Discord also refuses two siblings with one name, in any locale
        for locale in ("ja",):
            shown = [(p.get("name_localizations") or {}).get(locale, p["name"]) for p in siblings]
            assert len(shown) == len(set(shown)), (where, locale, shown)
        base = [p["name"] for p in siblings]
        assert len(base) == len(set(base)), (where, base)
    assert checked > 300  # every command, subcommand and option of both rule sets


def test_every_command_and_option_has_a_valid_japanese_name() -> None:
    """No name falls back to English because the catalogue lacks it or Discord would refuse it:
    /gm, /pc, the hp subcommands and the hp and dp options included (GM, PC, HP and DP are the
    Japanese words; Discord wants them in lower case)."""
    ja = catalogue("ja")
    keys: set[str] = set()
    for spec in builtin_specs():
        if spec.group:
            keys.add(f"cmd.{spec.group}.name")
        keys.add(f"cmd.{spec.path.replace(' ', '.')}.name")
        keys.update(option_name_key(spec, opt) for opt in spec.options)
    missing = sorted(key for key in keys if key not in ja)
    assert missing == []
    refused = sorted((key, ja[key]) for key in keys if not valid_name(ja[key]))
    assert refused == []
    words = ("cmd.gm.name", "cmd.pc.name", "cmd.pc.hp.name", "opt.hp.name", "opt.dp.name")
    assert [ja[k] for k in words] == ["gm", "pc", "hp", "hp", "dp"]


@pytest.mark.parametrize(
    "name",
    [
        "砦", "ラウンド数", "fort_hp", "c値", "hp反映", "gm固定値",  # ours
        "don't", "a-b_c", "x" * 32, "σ", "ß",  # Discord allows the apostrophe; lower-case Greek and German
        "नाम", "हिंदी", "ชื่อ", "ตั้งค่า",  # Devanagari and Thai, with their combining vowel signs
        "١٢٣", "²",  # numbers of any script
    ],
)  # fmt: skip
def test_names_discord_accepts(name: str) -> None:
    assert valid_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "GM", "PC", "HP", "Hp", "砦HP", "Σ", "Ａ",  # a cased letter must be lower case (full-width too)
        "", "x" * 33, "two words", "砦!", "a.b", "名前・種別", "ー・", "x\u200b",  # length, punctuation
        "é".replace("é", "e\u0301"),  # a Latin combining mark is neither a letter nor Devanagari/Thai
    ],
)  # fmt: skip
def test_names_discord_refuses(name: str) -> None:
    assert not valid_name(name)
