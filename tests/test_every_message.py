"""Proof 1 of issue 12: every catalogue message, rendered with the values its callers pass, in both
languages, reads as words: no message key, reason code, ``{``, ``-`` standing for a value, ``(s)``,
plural mark or Python value in it.

Where the values come from:
- *played*: scripted sessions through the console's session and the service (a whole fort battle with
  every command and many mistakes, a 千幻抄 skirmish, sheets) record every call of the catalogue with
  its real values; every reply is rendered as console text and as Discord embeds, and each is checked;
- *every key*: each catalogue text is rendered through ``sentence`` with its recorded values, or
  with sample values where no played call reached it, and English counts of 1 and 2;
- *absent*: the engine's event and refusal tables (``engine.fort.keys``) name the fields that may be
  None; each such event and refusal is rendered with that field None, and must not show a ``-`` or an
  empty gap, but its variant without that part.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import bot.i18n
from bot.console.session import ConsoleSession
from bot.i18n import LANGUAGES, catalogue, placeholders
from bot.i18n.words import say
from bot.registry import rulesets
from bot.render.common import event_line, refusal_text, sentence
from bot.render.text import render
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import open_storage
from bot.storage.interface import Storage
from bot.views import ExportView, PaletteView, View
from engine.battle import keys as battle_keys
from engine.dice import SeededDice
from engine.fort import keys as fort_keys
from engine.ruleset import Event

ROOT = Path(__file__).resolve().parents[1]

# --- what may not reach a user ------------------------------------------------------------------

#: a reason code (``not_an_integer``): every code the engine gives a refusal, and the words' keys
REASON_CODES = {
    code
    for key in catalogue("en")
    if key.startswith("value.reason.") and ("_" in (code := key.removeprefix("value.reason.")) or "." in code)
}
#: dotted key-like words of the bot's own parts (``dice.too_many_dice``, ``command.bad_value``); a gm-set
#: target the user typed (``fort.max_hp``, ``unit.ゴブリン.hp``) is the user's own word
_INTERNAL = re.compile(
    r"\b(?:dice|command|service|console|render|value|place|limits|odds|map|sheet|palette|discord|sg|"
    r"battle|summary|help|cmd|opt)\.[a-z0-9_]+(?:\.[a-z0-9_+]+)*\b"
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.|+]*")
#: ``-`` alone where a value belongs: ``は 1 から - まで``, ``(-)``, ``太矢: -``, ``、-は``
#: (not ``A1-F0``, ``-5``)
_DASH = re.compile(r"(?<![A-Za-z0-9-])-(?![A-Za-z0-9-])")
_GAP = re.compile(r"[:：]\s*→|→\s*[。.、)）]|[(（]\s*[)）]|「」")
#: a battle with one of each thing: its export's fields are the words of ``/gm set`` targets
_ONE_OF_EACH = {
    "format": "toride.fort/1",
    "rounds": 3,
    "pcs": [{"name": "a", "area": "F0", "position": "top", "hp": 5, "move": 10}],
    "units": [{"name": "u", "type": "normal", "area": "A1", "hp": 5, "fort_damage": 1, "arrive_round": 2}],
    "commanders": [{"name": "c", "area": "A2", "hp": 5, "horn": "h"}],
    "traps": [{"kind": "mine", "edge": "A1-F0", "uses": 1}],
    "confused_round": 1,
    "fort": {"hp": 300, "repaired_round": 1},
}


def _typed_words() -> set[str]:
    """snake_case words a user types: option names, and the fields of ``/gm set`` targets."""
    from bot.registry import commands
    from engine.fort.export import export_state, import_state

    words = {opt.name for spec in commands().values() for opt in spec.options}
    targets = [r.gm_targets for r in rulesets() if r.gm_targets is not None]  # bot.gm_targets
    words |= {attr for table in targets for owner in table.owners for attr in owner.attrs}
    words |= {part for table in targets for path in table.whole for part in path.split(".")}
    return words | set(_keys(export_state(import_state(_ONE_OF_EACH))))


def _keys(document: Any) -> Iterator[str]:
    if isinstance(document, Mapping):
        for key, value in document.items():
            yield key
            yield from _keys(value)
    elif isinstance(document, list):
        for value in document:
            yield from _keys(value)


#: the first word of a ``/gm set`` target (``ballista.loaded``, ``unit.ゴブリン.hp``)
_TARGET_HEADS = {"fort", "ballista", "cannon", "trap", "unit", "pc", "commander"}
_REPR = ("{'", "['", "('", "None", "True", "False", "object at 0x", "Traceback", "dict_", "<bot.", "<engine.")
_TYPED: set[str] = set()


def leaks(text: str) -> list[str]:
    """What in ``text`` is not for users (empty if nothing)."""
    found = []
    text = re.sub(r"(?<![\w.])/(?:tmp|work|home|root|var|private)/\S*", "", text)  # a file's path
    text = text.replace("\\_", "_")  # Discord's markdown escape of an underscore (``fort.max\_hp``)
    for mark in ("(s)", *_REPR):
        if mark in text:
            found.append(mark)
    # a brace: a placeholder left (``{unit}``), a repr or JSON; a palette's own variable (``{命中1}``,
    # the syntax a player writes) is not one
    unbraced = re.sub(r"\{[^{}\n]*[^\x00-\x7f][^{}\n]*\}", "", text)
    if "{" in unbraced or "}" in unbraced:
        found.append("{")
    if re.search(r"\[\[\w+:", text):  # a plural mark left unresolved
        found.append("[[")
    if _DASH.search(text.replace("「-」", "").replace('"-"', "")):  # (a quoted ``-`` is one to type)
        found.append("-")
    if _GAP.search(text):  # an absent value left as a hole: ``HP: →10``, ``()``
        found.append("gap")
    if not _TYPED:
        _TYPED.update(_typed_words())
    for word in _WORD.findall(text):
        word = word.strip(".|+")
        head, last = word.split(".", 1)[0], word.rsplit(".", 1)[-1]
        target = head in _TARGET_HEADS and (last in _TYPED or last.isdigit())  # a /gm set target, typed
        key = "." in word and word in catalogue("en") and not target
        if key or word in REASON_CODES or word.startswith("not_one_of"):
            found.append(word)
        for part in word.split("."):  # a code: a snake_case word nobody types
            if re.fullmatch(r"[a-z]+(?:_[a-z0-9]+)+", part) and part not in _TYPED:
                found.append(part)
    found += _INTERNAL.findall(text)
    for lang in LANGUAGES:  # the words of a reason the catalogue lacks
        unknown = catalogue(lang)["value.reason.unknown"]
        if unknown in text:
            found.append(unknown)
    return found


def test_the_leak_finder_finds_what_the_issue_found() -> None:
    """The examples of issue 12, as they were shown: each is caught."""
    examples = [
        "読み込めない戦闘データです: fort.area_invalid: {'area': 'Z9', 'allowed': [...]}",
        "$.units[0].hp: not_an_integer",
        "$.turn: not_one_of_pc|enemy|ended",
        "fort.dice_invalid: {...'dice.too_many_dice'}",
        "fort.hp に「abc」は設定できません(not_an_integer)",
        "(fort.area_invalid)",
        "(too_small)",
        "(not_a_boolean)",
        "hp: は 1 から - までです(「-5」)",
        "敵は混乱中で、-は第3ラウンドには移動できません",
        "この戦闘は終わっています(-)",
        "太矢: -",
        "筋力判定 -",
        "1 shell(s)",
        "Commander(s)",
        "{unit} moves",
        "None",
        "ベルのHP: →10。",
    ]
    assert [e for e in examples if not leaks(e)] == []
    assert leaks("⚠ fort.hpに「abc」は設定できません(整数ではありません)。") == []
    assert leaks("GMがfort.max_hpを300から250に変更しました。HP -5/60、2D6-1") == []


# --- recording every call of the catalogue -------------------------------------------------------

Recorded = dict[tuple[str, str], list[dict[str, Any]]]


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorded]:
    """Every ``t(key, lang, **values)`` the bot makes, by (key, lang), with its values."""
    calls: Recorded = defaultdict(list)
    original = bot.i18n.t

    def recording(key: str, lang: str = bot.i18n.DEFAULT_LANG, **values: Any) -> str:
        calls[(key, lang)].append(values)
        return original(key, lang, **values)

    for name, module in list(sys.modules.items()):
        if (name == "bot" or name.startswith("bot.")) and getattr(module, "t", None) is original:
            monkeypatch.setattr(module, "t", recording)
    yield calls


def _texts(view: View, lang: str) -> list[str]:
    """The view as the console shows it and as Discord shows it (every string of its embeds); none for
    a document the user asked for as it is (an export's JSON, a chat palette's own ``{変数}``)."""
    from bot.discord.embeds import render as discord_render

    if isinstance(view, ExportView | PaletteView):
        return []
    texts = [render(view, lang)]
    reply = discord_render(view, lang, user="gm")
    for embed in [*reply.embeds, *reply.notice, *(e for m in reply.private for e in m)]:
        texts.extend(_strings(embed.to_dict()))
    return texts


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


# --- the played sessions -------------------------------------------------------------------------

#: a fort battle that uses every command, with mistakes between (played with seeded dice)
FORT = """\
/help
/fort status
/fort import file:bad_area.json
/fort import file:bad_hp.json
/fort import file:bad_turn.json
/fort import file:bad_dice.json
/fort import file:not_object.json
/fort import file:not_json.json
/fort start rounds:2 fort_hp:1000 cannons:3 title:北の砦
/fort start rounds:2
/pc add name:アリス position:top hp:30 move:10
/pc add name:ベル position:outside
@bob /pc add name:ボブ position:inside hp:20
@bob /pc add name:ボブ2 owner:carol
/pc add name:カイ hp:-5
/pc sheet name:アリス sheet:fighter.json
/pc palette name:アリス
/pc roll name:アリス line:nothing
/unit add name:ゴブリン type:normal area:A1 hp:30 fort_damage:10 strike:2d+3 weakness:炎属性ダメージ+3
/unit add name:オーガ type:normal area:A2 hp:60 fort_damage:20 strike:2d+6 move:20
/unit add name:槌 type:ram area:B1 hp:40 fort_damage:5 strike:2d
/unit add name:歩兵 type:normal area:B2 hp:100 fort_damage:1 move:20
/unit add name:鳥 type:flying area:B2 hp:20 fort_damage:5 move:20
/unit add name:兵 type:soldier area:F0 hp:20 fort_damage:0 position:top
/unit add name:増援 type:normal area:A2 hp:20 fort_damage:5 arrive_round:2
/unit add name:X type:normal area:F0 hp:5 fort_damage:1
/unit add name:X type:dragon area:A1 hp:5 fort_damage:1
/unit add name:X type:normal area:A1 hp:5 fort_damage:1 weakness:何か
/commander add name:隊長 hp:20 area:A2 horn:敵の打撃点+1
/commander add name:副長 hp:10
/trap set kind:mine edge:A1-F0 uses:2
/trap set kind:barricade edge:B1-F0 uses:2
/trap set kind:mine edge:A1-B2 uses:1
/cannon load cannon:1 check:10
/cannon load cannon:1 check:10 by:アリス
/cannon load cannon:1 check:16 by:アリス
/cannon load cannon:2 by:兵
/cannon load cannon:3 bonus:9 by:アリス
/cannon load cannon:9
/cannon fire cannon:1 unit:ゴブリン by:アリス
/cannon fire cannon:2 area:A2 by:アリス
/cannon fire cannon:3 commander:隊長 by:アリス
/ballista load bolt:太矢 by:アリス
/ballista load by:アリス
/ballista fire unit:オーガ bonus:2 by:アリス
/ballista load bolt:魔力の太矢 by:アリス
/ballista fire area:B1 by:アリス
/ballista load bolt:竜牙の太矢
/attack single unit:ゴブリン bodies:3 by:ベル
/attack single unit:鳥 bodies:3 melee:true by:ベル
/attack area unit:オーガ damage:2d+10 radius:5 kind:magic element:fire by:アリス
/attack area commander:隊長 damage:20 radius:7 kind:fixed by:アリス
/attack area area:B2 damage:K20+5 radius:4 kind:physical targets:1 by:アリス
/attack pierce from:F0 to:B2 damage:2d+5 kind:magic element:lightning resisted:true by:アリス
/attack pierce from:F0 to:F0 damage:3
/attack area unit:オーガ damage:99999d6 radius:3
/fort repair by:アリス
/fort heal amount:15
/fort heal amount:5
/fort siege effect:fixed amount:10
/fort siege effect:titanfoot
/gm undo
/gm redo
/gm undo steps:3
/gm redo steps:5
/fort siege effect:mattock roll:K30+12
/fort siege effect:meteor roll:K40+20
/fort repair by:アリス
/pc move name:アリス position:inside area:A1
/pc move name:ベル area:A1
/pc move name:ベル area:F0
/pc move name:アリス position:outside
/pc hp name:アリス delta:-5
/pc hp name:ベル set:10
/pc hp name:アリス
/unit hp unit:ゴブリン delta:-3
/unit hp unit:オーガ set:50
/unit attack attacker:兵 target:ゴブリン hit:true
/unit attack attacker:兵 target:オーガ
/unit move unit:ゴブリン to:F0
/unit move unit:兵 to:A1
/gm set target:fort.hp value:90
/gm set target:fort.hp value:abc
/gm set target:unit.ゴブリン.area value:Z9
/gm set target:round value:0
/gm set target:ballista.loaded value:maybe
/gm set target:pc.アリス.position value:top
/gm set target:unit.兵.acted value:false
/gm set target:trap.mine.A1-F0.uses value:3
/gm set target:unit.オーガ.hp value:999
/gm set target:nothing value:1
/unit move unit:兵 to:F0 position:outside
/gm add user:carol
/gm add user:carol
/gm remove user:carol
/gm remove user:dave
@bob /fort next
@bob /unit move unit:オーガ to:A1
@bob /pc move name:アリス position:top
/gm set target:pc.ベル.owner value:none
@bob /pc claim name:ベル
@carol /pc claim name:ベル
@carol /pc hp name:ボブ set:5
/gm set target:pc.ボブ2.owner value:GM
@carol /pc hp name:ボブ2 set:1
/fort log last:5
/fort export
/fort export format:ccfolia
/roll expr:2d6+3 命中
/roll expr:K20+5@10 secret:true
/roll expr:2d6+
/fort next
/unit advance unit:オーガ
/unit advance
/unit barrage unit:ゴブリン
/unit barrage unit:オーガ
/unit attack attacker:槌 target:兵 hit:true
/unit attack attacker:オーガ target:兵
/unit attack attacker:兵 target:オーガ hit:true
/unit move unit:槌 to:F0
/pc remove name:ボブ
/unit remove unit:鳥
/trap remove kind:mine edge:A1-F0
/unit move unit:鳥 to:F0 force:true
/commander move name:隊長 to:A1
/commander hp name:隊長 delta:-30
/commander hp name:副長 set:0
/unit advance
/unit move unit:オーガ to:F0
/fort next
/fort status
/fort next
/unit advance
/fort next
/fort status
/fort end outcome:retreat
/fort next
/gm set target:outcome value:none
/gm set target:turn value:ended
/fort log
"""

#: files the played fort battle reads
FILES: dict[str, Any] = {
    "bad_area.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "units": [{"name": "b", "area": "Z9", "type": "normal", "hp": 5}],
    },
    "bad_hp.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "units": [{"name": "c", "area": "A1", "type": "normal", "hp": "abc"}],
    },
    "bad_turn.json": {"format": "toride.fort/1", "rounds": 3, "turn": "later"},
    "bad_dice.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "units": [{"name": "a", "type": "normal", "area": "A1", "hp": 5, "strike": "99999d6"}],
    },
}
TEXTS = {"not_object.json": "[1, 2]", "not_json.json": '{"rounds": 3,'}


async def _console(storage: Storage, folder: Path, lang: str, script: str, seed: int) -> list[str]:
    session = ConsoleSession(
        BattleService(storage, SeededDice(seed)), channel=f"c-{lang}", lang=lang, base_dir=folder
    )
    texts = []
    for line in script.splitlines():
        reply = await session.handle(line)
        if reply is None:
            continue
        if not isinstance(reply.view, ExportView | PaletteView):
            texts.append(reply.text)
        if reply.view is not None:
            texts.extend(_texts(reply.view, lang))
    return texts


async def _skirmish(storage: Storage, lang: str) -> list[str]:
    """The 千幻抄 skirmish of ``tests/data/sg_skirmish.toml`` through the service, each view rendered."""
    raw = tomllib.loads((ROOT / "tests" / "data" / "sg_skirmish.toml").read_text(encoding="utf-8"))
    steps = raw["step"]
    dice = [d for s in steps for d in s.get("dice", ())]
    from engine.dice import ScriptedDice

    service = BattleService(storage, ScriptedDice(dice))
    where = Where("g", f"sg-{lang}")
    texts = []
    for step in steps:
        options = {k: str(v) if not isinstance(v, str) else v for k, v in step.get("options", {}).items()}
        view = await service.execute(
            where, Actor(step["who"]), Invocation(step["path"], options, step["path"])
        )
        texts.extend(_texts(view, lang))
    for path in ("sg status", "sg log", "sg export", "sg end"):
        texts.extend(_texts(await service.execute(where, Actor("gm"), Invocation(path, {}, path)), lang))
    return texts


@pytest.fixture
async def played(tmp_path: Path, recorded: Recorded) -> tuple[dict[str, list[str]], Recorded]:
    for name, document in FILES.items():
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
    for name, text in TEXTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "fighter.json").write_text(
        (ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "fighter.json").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    storage = await open_storage(str(tmp_path / "b.db"))
    texts: dict[str, list[str]] = {}
    try:
        for lang in LANGUAGES:
            texts[lang] = await _console(storage, tmp_path, lang, FORT, seed=12)
            texts[lang] += await _skirmish(storage, lang)
    finally:
        await storage.close()
    return texts, recorded


async def test_every_reply_of_played_battles_reads_as_words(
    played: tuple[dict[str, list[str]], Recorded],
) -> None:
    texts, recorded = played
    for lang in LANGUAGES:
        assert len(texts[lang]) > 300
        bad = sorted({(" ".join(leaks(text)), text[:300]) for text in texts[lang] if leaks(text)})
        assert bad == [], lang
    reached = {key for key, _ in recorded}
    # the played battles reach most of the catalogue with real values: every fort event kind but the
    # few the script does not provoke, and over a hundred refusals and sentence parts
    assert len(reached) > 250
    missed = sorted(set(fort_keys.EVENTS) - reached - _EVENTS_NOT_PLAYED)
    assert missed == [], missed


#: event kinds the played battle does not provoke (each is rendered with sample values below)
_EVENTS_NOT_PLAYED = {"trap.passed", "pc.palette_set", "unit.move_rounded"}


# --- every key, with its recorded values or samples ------------------------------------------------

#: sample values of placeholders no played call reached, by name (shapes the callers pass)
_NUMBERS = re.compile(
    r"(count|n|round|rounds|hp|max_hp|amount|before|after|total|distance|damage|taken|max|min|left|"
    r"uses|uses_after|shells|cannon|cannons|reached|step|steps|seq|line|column|length|digits|limit|"
    r"bodies|radius|targets|moved|requested|runs|seconds|index|dp|dp_max|paid|version|sides|fort_hp|"
    r"fort_max_hp|fort_damage|defense|move|used|extra|healed|check|bonus|crit|falls|p10|p50|p90|"
    r"recovery|initiative|side_total|hidden_total|die|chars|lines|max_lines|max_chars|key_max|"
    r"arrive_round|minimum|delta|set|margin|modifier|base|cap|value|seed|share|p|hold|sum|start)"
)


def _sample(name: str, one: bool) -> Any:
    if name in _DATA:
        return _DATA[name]
    if _NUMBERS.fullmatch(name):
        return 1 if one else 2
    return "ゴブリン"


def _values_for(key: str, lang: str, recorded: Recorded) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The values the played calls gave ``key`` (at most 20), and sample values of its placeholders."""
    text = catalogue(lang)[key]
    # a value still holding a placeholder is filled in later by its caller (Discord's mention of ``{user}``)
    seen = [v for v in recorded.get((key, lang), []) if not any("{" in str(x) for x in v.values())][:20]
    samples = [{n: _sample(n, one) for n in placeholders(text)} for one in (False, True)]
    return seen, samples


async def test_every_catalogue_message_reads_as_words(played: tuple[dict[str, list[str]], Recorded]) -> None:
    _, recorded = played
    for lang in LANGUAGES:
        bad: list[tuple[str, str, list[str]]] = []
        for key in catalogue(lang):
            if key == "value.reason.unknown":  # the words of a reason the catalogue lacks: a leak's mark
                continue
            seen, samples = _values_for(key, lang, recorded)
            # as its callers fill it in (their values already words), and as ``sentence`` fills in samples
            texts = [say(key, lang, **values) for values in seen] + [_sampled(key, lang, v) for v in samples]
            bad += [(key, text, leaks(text)) for text in texts if leaks(text)]
        assert bad == [], "\n".join(map(repr, bad))


def _sampled(key: str, lang: str, values: dict[str, Any]) -> str:
    """``sentence`` with sample values; numbers everywhere where a text formats its value as one."""
    try:
        return sentence(key, lang, values)
    except (ValueError, TypeError):  # a format spec (``{p:.0%}``) given a name
        return sentence(key, lang, {name: 2 for name in values})


def test_a_sentence_with_a_plural_mark_is_never_filled_in_without_resolving_it() -> None:
    """A catalogue text with ``[[n:one|other]]`` is only passed to ``sentence`` or ``say`` (which resolve
    it), never straight to ``t`` (which would show the mark)."""
    marked = {key for lang in LANGUAGES for key, text in catalogue(lang).items() if "[[" in text}
    assert "fort.status.cannon" in marked
    direct = []
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and first.value in marked:
                    direct.append((str(path.relative_to(ROOT)), first.value))
    assert direct == []


# --- absent values --------------------------------------------------------------------------------


def _optional_fields(description: str) -> tuple[set[str], set[str]]:
    """The fields of an ``engine.fort.keys`` description, and those that may be None (``x?``,
    ``x(None…)``)."""
    fields, optional = set(), set()
    for match in re.finditer(r"([a-z_]+)(\?)?(\(([^()]*(\([^()]*\))?[^()]*)\))?", description):
        name, mark, _, note = match.group(1), match.group(2), match.group(3), match.group(4) or ""
        fields.add(name)
        if mark or "None" in note:
            optional.add(name)
    return fields, optional


_DATA: dict[str, Any] = {
    "rolls": [{"text": "(2D6+3) ＞ 7[3,4]+3 ＞ 10"}],
    "roll": {"text": "KeyNo.40c[10]+12 ＞ 2D:[3,3]=6 ＞ 7+12 ＞ 19"},
    "raw": [12],
    "damages": [7, 5],
    "half": [4, 3],
    "checks": [{"unit": "オーガ", "die": 2, "caught": True}],
    "hit": ["ゴブリン"],
    "hit_units": ["ゴブリン"],
    "characters": ["アリス"],
    "over_cap": [],
    "units": ["ゴブリン"],
    "stayed": [],
    "path": ["A1", "F0"],
    "areas": ["F0", "B1"],
    "names": ["ゴブリン"],
    "units_on_map": ["ゴブリン"],
    "pcs": ["アリス", "ベル"],
    "allowed": ["A2", "A1", "F0"],
    "options": ["delta", "set"],
    "weapons": [],
    "lines": 3,
    "source": None,
    "stopped": None,
    "kind": "magic",
    "element": "fire",
    "type": "normal",
    "side": "enemy",
    "first": "pc",
    "turn": "pc",
    "outcome": "success",
    "reason": "not_an_integer",
    "place": "$.units[2].hp",
    "position": "top",
    "from_position": "top",
    "to_position": "outside",
    "area": "A1",
    "from": "A1",
    "to": "F0",
    "edge": "A1-F0",
    "effect": "fixed",
    "action": "barrage",
    "role": "pc",
    "targeted": False,
    "resisted": False,
    "force": False,
    "melee": False,
    "custom": False,
    "magic_bolt": False,
}


#: fields whose shape differs by kind (a round summary's cannons are the shells of each)
_KIND_DATA: dict[str, dict[str, Any]] = {"battle.round_summary": {"cannons": [0, 2]}}


def _event_data(key: str, fields: set[str]) -> dict[str, Any]:
    data = {name: _DATA[name] if name in _DATA else _sample(name, False) for name in fields}
    return {**data, **_KIND_DATA.get(key, {})}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_absent_value_is_left_out_of_the_sentence(lang: str) -> None:
    """Each fort event and refusal field that may be None, None: the sentence has no ``-`` and no gap."""
    bad = []
    tables: list[tuple[Mapping[str, str], Callable[[str, dict[str, Any]], str]]] = [
        (fort_keys.EVENTS, lambda key, data: event_line(Event(key, data), lang)),
        (fort_keys.REFUSALS, lambda key, data: refusal_text(key, data, lang)),
    ]
    checked = 0
    for table, show in tables:
        for key, description in table.items():
            fields, optional = _optional_fields(description)
            data = _event_data(key, fields)
            for name in [None, *sorted(optional)]:
                shown = dict(data)
                if name is not None:
                    shown[name] = None
                    checked += 1
                text = show(key, shown)
                problems = leaks(text)
                if re.search(r"\s{2,}|、、|: [、。.]", text):
                    problems.append("gap")
                if problems:
                    bad.append((key, name, text, problems))
    assert checked > 30
    assert bad == []


@pytest.mark.parametrize(
    ("key", "values", "ja", "en"),
    [
        (
            "fort.enemy_confused",
            {"unit": None, "round": 3},
            "敵は混乱中で、第3ラウンドには敵ユニットは移動できません。",
            "The enemy is confused: no enemy unit can move in round 3.",
        ),
        (
            "fort.battle_over",
            {"outcome": None},
            "この戦闘は終わっています。GMは /gm 上書き や /gm 取り消し、/砦 終了 結果: が使えます。",
            "This battle is over. The GM may still use /gm set, /gm undo or /fort end outcome:.",
        ),
        (
            "fort.ballista_loaded",
            {"bolt": None},
            "バリスタはすでに装填済みです。",
            "The ballista is already loaded.",
        ),
        (
            "fort.gm_set_invalid",
            {
                "target": "unit.a.hp",
                "value": "31",
                "reason": "out_of_range",
                "detail": {"min": None, "max": 30},
            },
            "unit.a.hpに「31」は設定できません(30 以下の整数にしてください)。",
            'unit.a.hp cannot be set to "31" (it must be a whole number of at most 30).',
        ),
        (
            "fort.import_invalid",
            {"place": "$.units[2].hp", "reason": "not_an_integer", "detail": {}},
            "読み込めない戦闘データです。3番目のユニットのHP: 整数ではありません。",
            "The battle document cannot be imported (the HP of the 3rd unit): it is not a whole number.",
        ),
        (
            "fort.import_invalid",
            {
                "place": "$.pcs[10].sheet.weapons[0].acc",
                "reason": "out_of_range",
                "detail": {"min": 0, "max": None},
            },
            "読み込めない戦闘データです。11番目のPCのシートの1番目の武器の命中: 0 以上の整数にしてください。",
            "The battle document cannot be imported (the accuracy of the 1st weapon of the sheet of the "
            "11th PC): it must be a whole number of at least 0.",
        ),
        (
            "fort.import_invalid",
            {"place": "$.units[21].sharpness", "reason": "not_a_string", "detail": {}},
            "読み込めない戦闘データです。22番目のユニットの「sharpness」: 文字列ではありません。",
            'The battle document cannot be imported ("sharpness" of the 22nd unit): it is not a text.',
        ),
        (
            "fort.import_invalid",
            {"place": "$", "reason": "not_an_object", "detail": {}},
            "読み込めない戦闘データです。ファイル全体: JSONのオブジェクトではありません。",
            "The battle document cannot be imported (the whole file): it is not a JSON object.",
        ),
    ],
)
def test_refusals_without_a_value_read_as_the_variant_without_it(
    key: str, values: dict[str, Any], ja: str, en: str
) -> None:
    assert (refusal_text(key, values, "ja"), refusal_text(key, values, "en")) == (ja, en)


@pytest.mark.parametrize(
    ("kind", "data", "ja", "en"),
    [
        (
            "battle.outcome_set",
            {"before": None, "after": "success"},
            "GMが結果を防衛成功にしました。",
            "The GM set the outcome to the defense held.",
        ),
        (
            "battle.outcome_set",
            {"before": "success", "after": "retreat"},
            "GMが結果を防衛成功から撤退に変更しました。",
            "The GM changed the outcome from the defense held to retreat.",
        ),
        (
            "trap.mine",
            {"unit": "ゴブリン", "edge": "A1-F0", "uses_before": 1, "uses_after": 0},
            "ゴブリンがA1-F0の地雷を踏みました(残り0回)。",
            "ゴブリン sets off the mine on A1-F0 (0 uses left).",
        ),
        (
            "ballista.fired",
            {
                "by": "アリス",
                "unit": "オーガ",
                "commander": None,
                "area": "A2",
                "bolt": None,
                "hit": True,
                "command": "K90+20@10",
                "checks": [],
                "hit_units": ["オーガ"],
                "characters": [],
                "over_cap": [],
            },
            "アリスがバリスタを発射(通常の太矢)(A2): 狙いはオーガ。ユニット: オーガ。",
            "アリス fires the ballista (an ordinary bolt) (A2) at オーガ. Units: オーガ.",
        ),
        (
            "ballista.loaded",
            {"by": "兵", "bolt": "銀の太矢", "magic_bolt": False},
            "兵がバリスタを装填しました(銀の太矢)。",
            "兵 loads the ballista (銀の太矢).",
        ),
        (
            "unit.barrage",
            {"unit": "オーガ", "target": "ベル", "count": 1, "rolls": [], "damages": [13], "total": 13},
            "オーガの同時攻撃: ベルへ d6=1で1回の攻撃、打撃点 13(合計13)。",
            "オーガ's barrage on ベル: d6 = 1, so 1 attack, strikes 13 (total 13).",
        ),
        (
            "trap.set",
            {"kind": "mine", "edge": "A1-F0", "uses": 1},
            "A1-F0に地雷を設置しました(残り1回)。",
            "A mine is set on A1-F0 (1 use).",
        ),
    ],
)
def test_event_sentences_in_words_with_plurals_and_who_acted(
    kind: str, data: dict[str, Any], ja: str, en: str
) -> None:
    assert (event_line(Event(kind, data), "ja"), event_line(Event(kind, data), "en")) == (ja, en)


def test_every_event_part_renderer_is_exercised() -> None:
    """The sentence parts of the rule sets' event values belong to event kinds of the engine's table (so
    the tests above render them)."""
    parts = rulesets().event_values
    known = set(fort_keys.EVENTS) | set(battle_keys.EVENTS)
    assert set(parts) - known - {k for k in parts if k.startswith("sg.")} == set()


def test_no_rule_id_in_the_players_text() -> None:
    """Rule ids (``F-MAP-7``) are the GM's detail: the command log has them (``engine.fort.keys.RULES``),
    the catalogues do not."""
    with_ids = [
        k for lang in LANGUAGES for k, text in catalogue(lang).items() if re.search(r"F-[A-Z]+-\d", text)
    ]
    assert with_ids == []
    assert set(fort_keys.RULES) <= set(fort_keys.REFUSALS)


@pytest.mark.parametrize(
    ("n", "en"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (102, "102nd"),
        (111, "111th"),
    ],
)
def test_english_ordinals(n: int, en: str) -> None:
    from bot.i18n.words import ordinal

    assert (ordinal(n, "en"), ordinal(n, "ja")) == (en, str(n))


def test_plural_marks_follow_their_count() -> None:
    from bot.i18n.words import plurals

    text = "{n} [[n:shell|shells]], [[m:is|are]] {m}"
    assert plurals(text, {"n": 1, "m": 2}) == "{n} shell, are {m}"
    assert plurals(text, {"n": "0", "m": "1"}) == "{n} shells, is {m}"


@pytest.mark.parametrize(
    ("commanders", "line"),
    [
        (
            [{"name": "隊長", "hp": 5, "max_hp": 20}, {"name": "副長", "hp": 0, "max_hp": 10}],
            "  Commander 隊長 still standing: the boss fight starts with the war-horn (鼓咆) effect "
            "on the enemy.",
        ),
        (
            [{"name": "隊長", "hp": 5, "max_hp": 20}, {"name": "副長", "hp": 3, "max_hp": 10}],
            "  Commanders 隊長, 副長 still standing: the boss fight starts with the war-horn (鼓咆) "
            "effect on the enemy.",
        ),
    ],
)
def test_the_final_summary_names_the_commanders_still_up_in_proper_english(
    commanders: list[dict[str, Any]], line: str
) -> None:
    """F-UNIT-12: "Commander" for one, "Commanders" for several (never "Commander(s)")."""
    from bot.rulesets.fort.text import summary_extra
    from bot.views import Summary

    document = {"fort": {"hp": 50, "max_hp": 100}, "outcome": "success", "commanders": commanders}
    lines = summary_extra(Summary("final", None, (), document), "en")
    assert lines[-1] == line
