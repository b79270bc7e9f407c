"""Issue 23, proof 1: every catalogue sentence names commands, options and choices in its reader's own
words (COMMANDS.md, Conventions, "The reader's own words"), and reads as Japanese text does.

A general rule over the whole catalogue (sentences added later are checked too):
- *as written*: no catalogue text writes a command path, or (Japanese) an option name, as literal text;
  it writes a mark (``[[/cannon load]]``, ``[[rounds:]]``, ``[[first:enemy]]``), and every mark names a
  command, option or choice of the command table;
- *as read*: every sentence, rendered with the values the played battles of ``test_every_message`` give
  it (and sample values otherwise), and every reply of those battles, holds no English command path or
  option in Japanese, no Japanese one in English, no rule id, no space before a Japanese particle and no
  ASCII comma between Japanese words.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from test_every_message import Recorded, _values_for, played, recorded  # noqa: F401

from bot.commands import Usage
from bot.i18n import LANGUAGES, catalogue, raw_catalogue
from bot.i18n.names import MARK, CommandName, OptionName, choice_words, command_text, option_text
from bot.i18n.words import say
from bot.registry import commands, lookup
from bot.render.common import sentence

#: keys that are names themselves (Discord's labels), not sentences
_NAME_KEY = re.compile(r"^(?:cmd\..*\.(?:name|desc)|opt\..*\.(?:name|desc)|choice(?:_word|_also)?\..*)$")
_JA = r"\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f"
_PARTICLES = "が|を|に|で|は|の|と|へ|や|も|から|まで|より"
_RULE_ID = re.compile(r"\b[FS]-[A-Z]+-\d")


@cache
def _words() -> dict[str, dict[str, set[str]]]:
    """Per language: its command paths (``/砦 開始``) and option words (``ラウンド数:``)."""
    table = commands()
    out: dict[str, dict[str, set[str]]] = {}
    for lang in LANGUAGES:
        names = catalogue(lang)
        paths = {command_text(path, names) for path in table}
        paths |= {command_text(spec.group, names) for spec in table.values() if spec.group}
        options = {option_text(o.name, names, s.path) + ":" for s in table.values() for o in s.options}
        out[lang] = {"paths": paths, "options": options}
    return out


def _foreign(text: str, lang: str) -> list[str]:
    """Command paths and options of the other language that ``lang`` does not share."""
    other = "en" if lang == "ja" else "ja"
    mine, theirs = _words()[lang], _words()[other]
    found = []
    for path in sorted(theirs["paths"] - mine["paths"], key=len, reverse=True):
        pattern = r"(?<![\w/.:])" + re.escape(path) + r"(?![\w])"
        if re.search(pattern, text):
            found.append(path)
            text = re.sub(pattern, "", text)
    for option in theirs["options"] - mine["options"]:
        if re.search(r"(?<![\w.\-/])" + re.escape(option), text):
            found.append(option)
    return found


def _strip_names(text: str, lang: str) -> str:
    """``text`` with the language's command paths and option words (and the space after them) taken out:
    a command is a typed token, and a particle after it may stand apart."""
    for word in sorted(_words()[lang]["paths"] | _words()[lang]["options"], key=len, reverse=True):
        text = re.sub(re.escape(word) + r"(?![\w])\s?", "〓", text)
    return text


@cache
def _english_names() -> frozenset[str]:
    """Issue 38 (the refusal matrix): the catalogue's English names of options and choices that a
    Japanese reader never types (those the Japanese catalogue also uses, ``gm``, ``hp``, are left out)."""
    table = commands()
    ja = catalogue("ja")
    words = {o.name for s in table.values() for o in s.options}
    words |= {c for s in table.values() for o in s.options for c in o.choices}
    words -= {part for path in table for part in path.split()}  # a command's words are the paths' check
    shown = {option_text(o.name, ja, s.path).lower() for s in table.values() for o in s.options}
    shown |= {w.lower() for s in table.values() for o in s.options for w in choice_words(o.name, o.choices)}
    return frozenset(w for w in words if len(w) >= 3 and w.isascii() and w.lower() not in shown)


#: what a sentence quotes (the user's input), and the program's own command line (``toride roll 2d6``)
_QUOTED = re.compile(r"「[^」]*」|\"[^\"]*\"|`[^`]*`|\btoride \w+")


def _english_words(text: str) -> list[str]:
    """English option or choice names in a Japanese text, outside what it quotes (the user's input)
    and outside a dotted path the GM typed (``unit.ゴブリン.hp``)."""
    bare = _QUOTED.sub("", text)
    words = re.findall(r"(?<![\w.:/\-<])[a-z_][a-z0-9_]+(?![\w:.>])", bare)
    return sorted({w for w in words if w in _english_names()})


def problems(text: str, lang: str) -> list[str]:
    """What in a reader's text is not in that reader's own words (empty if nothing)."""
    found = [f"foreign {w}" for w in _foreign(text, lang)]
    if lang == "ja":
        found += [f"English name {w}" for w in _english_words(text)]
    if _RULE_ID.search(text):
        found.append("rule id")
    if lang == "ja":
        bare = _strip_names(text, lang)
        if re.search(rf"[^\s\d〓] (?:{_PARTICLES})", bare):
            found.append("space before a particle")
        if re.search(rf"[{_JA}],|,\s*[{_JA}]", text):
            found.append("ASCII comma")
    return found


def test_the_checker_finds_what_the_issue_found() -> None:
    ja = [
        "⚠ /fort start に ラウンド というオプションはありません。使えるもの: rounds, fort_hp",
        "先に /cannon load を。",
        "type: は normal | ram のどれかです",
        "PC アリス が参加しました",
        "霊夢 の攻撃",
        "(第1ラウンド, B2)",
        "完全な不意打ち(S-SUR-3)",
    ]
    assert [t for t in ja if not problems(t, "ja")] == []
    assert problems("Load first with /大砲 装填.", "en") == ["foreign /大砲 装填"]
    assert problems("先に /大砲 装填 を。アリスの緊急修繕。ラウンド数: は 1 から 99 までです", "ja") == []


def _unmarked(text: str, lang: str) -> list[str]:
    """Literal command paths (and in Japanese, options) in a raw catalogue text, outside its marks."""
    bare = MARK.sub("", text)
    table = commands()
    groups = {s.group for s in table.values() if s.group} | {s.name for s in table.values() if not s.group}
    found = [m.group(0) for m in re.finditer(r"(?<![\w/:.\[])/([a-z_]+)\b", bare) if m.group(1) in groups]
    if lang == "ja":
        options = {o.name for s in table.values() for o in s.options}
        found += [
            m.group(0)
            for m in re.finditer(r"(?<![\w\"\\/.\-\[])([a-z_]+):(?!//)", bare)
            if m.group(1) in options
        ]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_writes_a_command_option_or_choice_itself(lang: str) -> None:
    bad = {
        key: found
        for key, text in raw_catalogue(lang).items()
        if not _NAME_KEY.match(key) and (found := _unmarked(text, lang))
    }
    assert bad == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_mark_names_a_command_an_option_or_a_choice(lang: str) -> None:
    table = commands()
    paths = set(table) | {s.group for s in table.values() if s.group}
    options = {o.name: o for s in table.values() for o in s.options}
    bad = []
    seen = 0
    for key, text in raw_catalogue(lang).items():
        for mark in MARK.finditer(text):
            seen += 1
            path, opt, sep, value = mark.group("path", "opt", "sep", "value")
            if path is not None and path.removeprefix("/") not in paths:
                bad.append((key, mark.group(0)))
            if opt is not None and opt not in options:
                bad.append((key, mark.group(0)))
            if opt is not None and path is not None and table[path[1:]].option(opt) is None:
                bad.append((key, mark.group(0)))
            if sep == "=" and opt in options and value not in options[opt].choices:
                bad.append((key, mark.group(0)))
    assert seen > 300
    assert bad == []


def test_every_choice_word_picks_one_choice() -> None:
    """A word the bot prints for a choice (or takes as a short form) never names two choices of an option."""
    for spec in commands().values():
        for opt in spec.options:
            if opt.choices:
                words = choice_words(opt.name, opt.choices)
                assert set(words.values()) == set(opt.choices), (spec.path, opt.name)


#: sample values of the placeholders that name a command or an option, as the bot passes them
_NAMED: dict[str, Any] = {
    "command": CommandName("fort start"),
    "hint": CommandName("fort status"),
    "group": CommandName("fort"),
    "usage": Usage(lookup("fort start")),
    "option": OptionName("rounds", "fort start"),
}


async def test_every_sentence_and_reply_is_in_its_readers_words(
    played: tuple[dict[str, list[str]], Recorded],  # noqa: F811
) -> None:
    texts, recorded_values = played
    bad: list[tuple[str, str, list[str]]] = []
    for lang in LANGUAGES:
        for reply in texts[lang]:
            for line in reply.splitlines():
                if found := problems(line, lang):
                    bad.append((lang, line, found))
        for key in catalogue(lang):
            if _NAME_KEY.match(key):
                continue
            seen, samples = _values_for(key, lang, recorded_values)
            named = {**_NAMED, "hint": OptionName("rounds")} if "option" in key else _NAMED
            samples = [{**v, **{n: w for n, w in named.items() if n in v}} for v in samples]
            rendered: list[str] = [say(key, lang, **values) for values in seen]
            rendered += [_sampled(key, lang, v) for v in samples]
            bad += [(lang, f"{key}: {r}", found) for r in rendered if (found := problems(r, lang))]
    import os

    if os.environ.get("OWN_WORDS_DUMP"):
        with open(os.environ["OWN_WORDS_DUMP"], "w", encoding="utf-8") as out:
            out.write("\n".join(sorted(set(map(repr, bad)))))
    assert sorted(set(map(repr, bad))) == []


def _sampled(key: str, lang: str, values: dict[str, Any]) -> str:
    try:
        return sentence(key, lang, values)
    except (ValueError, TypeError):
        return sentence(key, lang, {name: 2 for name in values})


#: Issue 23, item 7: one term for one thing, in SW2.5's own usage. A retired Japanese word (pattern) and
#: the word that replaces it. 行動不能 stays for 千幻抄's ``unable`` (S-CORE-2: no DP recovery), a state
#: other than 戦闘不能 (S-MERCY-1); ロール stays for the Discord role, so neither is retired as a word.
RETIRED = {
    "部隊": "ユニット",
    "鼓砲": "鼓咆",
    "角笛": "鼓咆",
    "矢弾": "太矢",
    "(?<![gG][mM])固定値": "確定ダメージ",  # gm固定値: the GM's fixed dice (S-GM-1), another thing
    "固定量": "確定ダメージ",
    "確定(?!ダメージ)": "確定ダメージ",
    "情け": "手加減",
    "奇襲": "不意打ち",
    "HP1で行動不能": "HP1で戦闘不能",
    "辺": "経路",
}
#: keys that hold retired words on purpose: the earlier names the console still takes, and the words a
#: choice accepts besides its own (``効果:固定値`` keeps working)
_KEEPS_OLD = re.compile(r"^(?:.*\.was|choice_also\..*)$")


def retired(text: str) -> list[str]:
    """The retired words in a Japanese text, its command paths and option names aside (a renamed one is
    no longer among them, so it is found)."""
    bare = text
    for word in sorted(_words()["ja"]["paths"] | _words()["ja"]["options"], key=len, reverse=True):
        bare = bare.replace(word, "〓")
    return [f"{old} → {new}" for old, new in RETIRED.items() if re.search(old, bare)]


def test_the_retired_word_checker_finds_each_word() -> None:
    assert retired("敵部隊 3") == ["部隊 → ユニット"]
    assert retired("12ダメージ(確定・炎属性)") == ["確定(?!ダメージ) → 確定ダメージ"]
    assert retired("12点の確定ダメージ・炎属性") == []
    assert retired("足止めされた辺") == ["辺 → 経路"]
    assert retired("効果: 固定値") == ["(?<![gG][mM])固定値 → 確定ダメージ"]
    assert retired("/千幻抄 開始 gm固定値:判定のみ") == []


async def test_no_retired_word_comes_back(
    played: tuple[dict[str, list[str]], Recorded],  # noqa: F811
) -> None:
    """Every Japanese catalogue text (descriptions and names too), rendered with the played battles'
    values and with samples, every reply of those battles, and every label the map draws."""
    texts, recorded_values = played
    bad = [("reply", line, found) for line in texts["ja"] for found in [retired(line)] if found]
    for key in raw_catalogue("ja"):
        if _KEEPS_OLD.match(key):
            continue
        if _NAME_KEY.match(key):
            rendered = [catalogue("ja")[key]]
        else:
            seen, samples = _values_for(key, "ja", recorded_values)
            samples = [{**v, **{n: w for n, w in _NAMED.items() if n in v}} for v in samples]
            rendered = [say(key, "ja", **values) for values in seen]
            rendered += [_sampled(key, "ja", v) for v in samples]
        bad += [(key, r, found) for r in rendered if (found := retired(r))]
    bad += [("map", label, found) for label in _map_labels() if (found := retired(label))]
    assert sorted(set(map(repr, bad))) == []


def _map_labels() -> list[str]:
    """Every text the map of a full battle draws in Japanese (the legend, areas, traps, equipment)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "picture"))
    from picture_helpers import battle

    from bot.render.picture import canvas
    from bot.rulesets.fort.pictures import draw

    drawn: list[str] = []
    real = canvas.Canvas.text

    def text(self: canvas.Canvas, x: int, cy: int, text: str, *args: Any, **kwargs: Any) -> int:
        drawn.append(text)
        return real(self, x, cy, text, *args, **kwargs)

    canvas.Canvas.text = text  # type: ignore[method-assign]
    draw._background.cache_clear()  # the legend and the areas are drawn once per language
    try:
        draw.map_png(battle(units=12, commanders=2, pcs=3, traps=4), "ja")
    finally:
        canvas.Canvas.text = real  # type: ignore[method-assign]
        draw._background.cache_clear()
    assert "中央砦" in drawn and "指揮官" in drawn, drawn
    return drawn
