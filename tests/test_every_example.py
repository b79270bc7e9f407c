"""Issue 38, item 1, and issue 37, item 5: every example the bot prints runs as printed.

The examples are collected from what the bot prints, not copied here: every ``/help <topic>`` (every group
and every command) in both languages, in the console's form (``help_text``) and in Discord's (the embed the
bot sends, its markdown escapes taken off as the reader's client shows them), and every command in
README.md that is written out in full (a code span or a line of a code block with a value given; the
console sessions, which run as sessions, are tests/console/test_readme.py's). A new example is covered
without a line here.

Each runs in a fresh battle of its command's kind (the fort, 千幻抄 ``/sg``, the ordinary battle
``/battle``; generic commands in a fort), typed by the battle's GM: in the console through
``ConsoleSession``, in Discord through the Discord stand-in (tests/discord/discord_harness.py), its words
split as Discord's client splits them (a value runs to the next option; quotes are kept, never taken
off). What an example presupposes (a unit or character it names, a loaded cannon, a file it reads) is
set up first from the same commands, in the reader's language: ``PRESUPPOSES`` says it, command by
command. A refusal (or an internal error) fails the example.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "discord"))
sys.path.insert(0, str(Path(__file__).resolve().parent / "sheets"))
from discord_harness import (
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    Attachment,
    Harness,
    Member,
    Result,
    Role,
)
from sheet_fixtures import fixture_text

import bot.sheet_fetch
from bot.commands import WITHIN, CommandSpec, Kind, OptType, SheetSource, norm_word
from bot.console.parser import parse_line
from bot.console.session import ConsoleSession
from bot.discord import embeds
from bot.i18n import catalogue, t
from bot.i18n.marks import resolve_marks
from bot.registry import Registry, lookup, rulesets, use
from bot.render.help_text import help_text
from bot.rulesets.builtin import BUILTIN
from bot.service import BattleService
from bot.storage import open_storage
from bot.views import ExportView, HelpView
from engine.dice import SeededDice

ROOT = Path(__file__).resolve().parents[1]
#: the bot's own rule sets (a test-only one another folder installs prints no examples)
BUILT_IN = Registry(BUILTIN)
LANGS = ("ja", "en")
FORMS = ("console", "discord")
#: Discord's locale of a reader of each language
LOCALES = {"ja": "ja", "en": "en-US"}
MANAGE_GUILD = 1 << 5
#: the GM who types every example (Manage Server and Manage Channels: ``/gm role``, ``/settings``)
GMS = {
    lang: Member(
        400000000000000101 + n,
        "gm",
        locale=LOCALES[lang],
        permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS | MANAGE_GUILD,
    )
    for n, lang in enumerate(LANGS)
}
#: another member, with Manage Channels: ``/gm takeover`` is typed by one who is not the battle's GM
MODS = {
    lang: Member(
        400000000000000111 + n, "mod", locale=LOCALES[lang], permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS
    )
    for n, lang in enumerate(LANGS)
}
#: a player, owner of a character (``/sg attack`` without ``name:``: the typist's own)
PLAYERS = {
    lang: Member(400000000000000131 + n, "player", locale=LOCALES[lang]) for n, lang in enumerate(LANGS)
}
TYPISTS = {"gm": GMS, "mod": MODS, "player": PLAYERS}


def mentioned(lang: str) -> dict[str, Member | Role]:
    """The members and roles examples and set-ups name (``@bob``, ``@GM``, ``@player``)."""
    return {
        "bob": Member(400000000000000121, "bob"),
        "GM": Role(500000000000000001, "GM"),
        "player": PLAYERS[lang],
    }


# --- what the bot prints ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    text: str
    lang: str
    form: str
    #: where it is printed (``/help 砦``, ``README.md:132``)
    source: str

    @property
    def spec(self) -> CommandSpec:
        line = parse_line(self.text)
        assert line is not None, self.text
        return lookup(line.path)

    def __str__(self) -> str:
        return f"{self.lang}-{self.form}: {self.text}"


def topics() -> list[str]:
    """Every ``/help`` topic: each group, and each command (``/help unit list``)."""
    table = rulesets().table
    groups = list(table.help_groups())
    return groups + [spec.path for spec in table.specs.values() if spec.path not in groups]


def discord_lines(lang: str, topic: str) -> list[str]:
    """``/help topic`` as Discord shows it: the embeds' lines, markdown escapes and indents taken off."""
    reply = embeds.render(HelpView(topic=topic), lang)
    lines: list[str] = []
    for message in reply.messages:
        for embed in message:
            for line in (embed.description or "").splitlines():
                lines.append(re.sub(r"\\(.)", r"\1", line.strip("　 \u200b")))
    return lines


def help_examples(lang: str, form: str) -> list[Example]:
    """The examples ``/help <topic>`` prints for every topic, in order, each once."""
    head, _, tail = t("help.example", lang, example="\0").strip().partition("\0")
    found: dict[str, Example] = {}
    for topic in topics():
        if form == "console":
            lines = [line.strip() for line in help_text(lang, topic).splitlines()]
        else:
            lines = discord_lines(lang, topic)
        for line in lines:
            if line.startswith(head) and line.endswith(tail):
                text = line[len(head) : len(line) - len(tail)]
                found.setdefault(text, Example(text, lang, form, f"/help {topic}"))
    return list(found.values())


#: a code span or a code block's line that is a command; a block line's comment follows 3 spaces
SPAN = re.compile(r"`(/[^`\n]+)`")
BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
SESSION = re.compile(r"^\$ toride console .*<<'EOF'\n", re.M)
#: what a placeholder or a pattern is written with (``[steps:n]``, ``<URL>``, ``threats|commanders``)
PLACEHOLDER = re.compile(r"[<>\[\]|…]|\.\.\.")


def readme_examples(form: str) -> list[Example]:
    """README.md's commands written out in full: a value given (an option's, or the words after a
    command), no placeholder; each once, read by a reader of the language its command is written in.
    Its console sessions are run as sessions elsewhere."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    candidates: list[tuple[int, str]] = []
    for block in BLOCK.finditer(readme):
        if SESSION.search(readme, max(0, block.start() - 200), block.start() + 200):
            continue
        line_no = readme.count("\n", 0, block.start()) + 2
        for n, line in enumerate(block.group(1).splitlines()):
            if line.startswith("/"):
                candidates.append((line_no + n, re.split(r" {3,}", line)[0].strip()))
    prose = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), readme)
    for span in SPAN.finditer(prose):
        candidates.append((prose.count("\n", 0, span.start()) + 1, span.group(1)))
    found: dict[str, Example] = {}
    for line_no, text in candidates:
        if PLACEHOLDER.search(text) or text.startswith("//"):
            continue
        try:
            line = parse_line(text)
        except Exception:  # a near miss the README shows on purpose (``/砦 状態``), or no command
            continue
        if line is None or not line.options or any(not value for value in line.options.values()):
            continue  # a command named, not an example of it
        # read by a reader of the language its command and option names are in
        words = text.split()
        names = [word.partition(":")[0] for word in words[:2]] + [
            w.partition(":")[0] for w in words if ":" in w
        ]
        lang = "en" if " ".join(names).isascii() else "ja"
        found.setdefault(text, Example(text, lang, form, f"README.md:{line_no}"))
    return list(found.values())


def every_example() -> list[Example]:
    found: dict[tuple[str, str, str], Example] = {}
    for form in FORMS:
        for example in (*(e for lang in LANGS for e in help_examples(lang, form)), *readme_examples(form)):
            found.setdefault((example.lang, example.form, example.text), example)
    return list(found.values())


# --- what an example presupposes -------------------------------------------------------------------

# the set-up's lines, written once in the catalogues' marks (resolved in the reader's words); ``{unit}``
# is the name the example gives its ``unit:`` option (a name it does not give: ``DEFAULTS``)
FORT = "[[/fort start]] [[rounds:]]3"


def pc(name: str, position: str = "top") -> str:
    return f"[[/pc add]] [[name:]]{{{name}}} [[position:{position}]] [[hp:]]30"


def unit(name: str, kind: str = "normal", area: str = "A1", position: str = "") -> str:
    return (
        f"[[/unit add]] [[name:]]{{{name}}} [[type:{kind}]] [[area:]]{area} [[hp:]]30 [[fort_damage:]]10"
        " [[strike:]]2d+3" + (f" [[position:{position}]]" if position else "")
    )


def sg_character(name: str, side: str = "pc", skills: str = "") -> str:
    return (
        f"[[/sg join]] [[name:]]{{{name}}} [[body:]]3 [[endurance:]]2 [[intellect:]]3 [[sense:]]4 [[will:]]3"
        f" [[hp:]]10 [[side:{side}]]" + (f" [[skills:]]{skills}" if skills else "")
    )


def palette(name: str) -> str:
    return f"[[/pc palette]] [[name:]]{{{name}}} [[file:]]chat.txt"


COMMANDER = "[[/commander add]] [[name:]]{name} [[hp:]]60 [[area:]]A2"
SHEET = "[[/palette register]] [[file:]]gard.json"
SG = "[[/sg start]]"
SG_TURN = "[[/sg turn]]"
BATTLE = "[[/battle start]] [[first:pc]]"
GARD = "[[/battle pc]] [[name:]]{gard} [[hp:]]35 [[mp:]]12"
GOBLIN = "[[/battle monster]] [[name:]]{goblin} [[hp:]]16 [[reputation:]]5 [[weakness_value:]]11 [[count:]]3"
PROTECTION = "[[/battle effect]] [[target:]]{gard} [[name:]]{protection} [[rounds:]]3"
SECRET = "[[/roll]] [[expr:]]S2d6"

#: the names an example's set-up uses where the example gives none
DEFAULTS = {
    "ja": {
        "reimu": "霊夢",
        "marisa": "魔理沙",
        "by": "アリス",
        "unit": "ゴブリン",
        "gard": "ガルド",
        "goblin": "ゴブリン",
        "protection": "プロテクション",
    },
    "en": {
        "reimu": "Reimu",
        "marisa": "Marisa",
        "by": "Alice",
        "unit": "Goblins",
        "gard": "Gard",
        "goblin": "Goblin",
        "protection": "Protection",
    },
}
#: the battle each rule set's examples run in (generic commands: a fort); a presupposition that begins
#: with a start or an import of its own begins its battle itself
BATTLES = {"fort": (FORT,), "sengensho": (SG,), "battle": (BATTLE,)}
#: what the examples of a command presuppose, after its battle has begun
PRESUPPOSES: dict[str, tuple[str, ...]] = {
    # the repair heals the fort: it is damaged first
    "fort repair": (pc("by"), "[[/fort siege]] [[effect:fixed]] [[amount:]]20"),
    **{f"pc {name}": (pc("name"),) for name in ("hp", "move", "remove", "palette", "sheet")},
    "pc roll": (pc("name"), palette("name")),
    # a PC no one owns comes with an imported battle (``run`` writes unowned.json)
    "pc claim": ("[[/fort import]] [[file:]]unowned.json",),
    **{f"unit {name}": (unit("unit"),) for name in ("remove", "move", "advance", "hp", "list")},
    # a character in its melee area (an enemy starts outside the fort, and moves in)
    "unit barrage": (pc("by", "outside"), unit("unit"), "[[/unit move]] [[unit:]]{unit} [[to:]]F0"),
    # a soldier unit starts at the fort (outside its walls, to fight there), and attacks an enemy there
    "unit attack": (
        unit("target"),
        "[[/unit move]] [[unit:]]{target} [[to:]]F0",
        unit("attacker", "soldier", "F0", "outside"),
    ),
    "commander move": (COMMANDER,),
    "commander hp": (COMMANDER,),
    **{f"attack {name}": (pc("by"), unit("unit")) for name in ("single", "area", "pierce")},
    "cannon load": (pc("by"),),
    "cannon fire": (pc("by"), unit("unit"), "[[/cannon load]] [[cannon:]]{cannon} [[check:]]16 [[by:]]{by}"),
    "ballista load": (pc("by"),),
    "ballista fire": (pc("by"), unit("unit"), "[[/ballista load]] [[by:]]{by}"),
    "trap remove": ("[[/trap set]] [[kind:mine]] [[edge:]]{edge} [[uses:]]2",),
    "gm undo": (pc("by"), unit("unit")),  # two actions to take back
    "gm redo": (pc("by"), "[[/gm undo]]"),
    "gm remove": ("[[/gm add]] [[user:]]{user}",),
    "gm set": ("[[/pc add]] [[file:]]garudo.json",),  # README: ``target:pc.ガルド.evasion``
    "roll reveal": (SECRET, SECRET, SECRET),  # README reveals #3
    # your own character (your PC here) and a registered sheet
    "palette": (pc("by"), palette("by"), SHEET),
    "palette forget": (SHEET,),
    "sg turn": (sg_character("reimu"),),
    # two initiatives: Marisa declares a lower DP
    "sg next": (
        sg_character("reimu"),
        sg_character("marisa", "enemy"),
        SG_TURN,
        "[[/sg declare]] [[name:]]{marisa} [[dp:]]10",
    ),
    "sg declare": (sg_character("name"), SG_TURN),
    "sg roll": (sg_character("name"), SG_TURN),
    # a complete surprise within 30 m comes after the attacker's stealth was contested
    "sg surprise": (
        sg_character("target"),
        sg_character("attacker", "enemy"),
        "[[/sg roll]] [[name:]]{target} [[dice:]]1 [[base:]]5 [[kind:perception]]",
        "[[/sg roll]] [[name:]]{attacker} [[dice:]]1 [[base:]]5 [[kind:stealth]] [[against:]]{target}",
    ),
    "sg hide": (sg_character("name", "enemy"),),
    "sg search": (
        sg_character("name", skills="感知2"),
        sg_character("target", "enemy"),
        "[[/sg hide]] [[name:]]{target} [[dice:]]1 [[base:]]2",
        SG_TURN,
    ),
    "sg damage": (sg_character("name"),),
    # the attacker is the typist's own character (a player's), its target an enemy, in turn 1
    "sg attack": (
        sg_character("reimu", skills="射撃2") + " [[owner:]]@player",
        sg_character("target", "enemy"),
        SG_TURN,
    ),
    # an attack waits for its answer; the target has an evasion check (/sg set)
    "sg answer": (
        sg_character("reimu", skills="回避2"),
        "[[/sg set]] [[name:]]{reimu} [[/sg set evasion:]]身体+回避",
        sg_character("marisa", "enemy"),
        SG_TURN,
        "[[/sg attack]] [[name:]]{marisa} [[target:]]{reimu} [[dice:]]2 [[base:]]5 [[damage:]]2d+2",
    ),
    "sg set": (sg_character("name", skills="回避2"),),
    "sg item": (sg_character("holder"), "[[/sg join]] [[name:]]{name} [[dp_max:]]5 [[recovery:]]1"),
    "sg state": (sg_character("name"),),
    "sg spellcard": (sg_character("name"),),
    # README: ``from:fort`` follows a fort battle that ended with a commander standing (B-VIEW-2)
    "battle start": (FORT, COMMANDER.replace("{name}", "{gard}"), "[[/fort end]]"),
    **{
        f"battle {name}": (GARD, GOBLIN, PROTECTION)
        for name in ("knowledge", "initiative", "damage", "heal", "mp", "clear", "extend", "reveal", "effect")
    },
    "battle act": (GARD, GOBLIN, "[[/battle next]]"),  # in round 1
}
#: examples typed by another than the battle's GM: one with Manage Channels, a player with a character
TYPED_BY = {"gm takeover": "mod", "sg attack": "player"}
#: the console's own user has Manage Channels and Manage Server (it runs the machine), but another member
#: (``@mod``) is a plain player there: ``/gm takeover``, typed by one who is not the battle's GM, is
#: refused in the console (expected to fail, and the test says when it stops failing)
NEEDS_DISCORD_RIGHTS = {"gm takeover"}
#: the files examples read, by name: a chat palette; ゆとシートⅡ sheets (ガルド's, renamed for an English
#: reader, and a monster's); an import's file is an export of its rule set's battle (``run``)
PALETTE_TEXT = "2d+5 命中\n2d+7 命中力\n2d+7 命中力／バスタードソード1H\n2d+7 accuracy\n2d+3 回避\n"


def sheet(lang: str, name: str = "") -> str:
    document = json.loads(fixture_text("fighter"))
    document["characterName"] = name or DEFAULTS[lang]["gard"]
    return json.dumps(document, ensure_ascii=False)


def files(lang: str) -> dict[str, str]:
    return {
        "chat.txt": PALETTE_TEXT,
        "gard.json": sheet(lang),
        "alice.json": sheet(lang),
        "garudo.json": sheet(lang, "ガルド"),
        "griffon.json": fixture_text("monster"),
    }


def ruleset_of(spec: CommandSpec) -> str:
    return spec.ruleset or "fort"


def fields(example: Example) -> dict[str, str]:
    line = parse_line(example.text)
    assert line is not None
    return {**DEFAULTS[example.lang], **line.options}


def setup(example: Example) -> list[str]:
    """The lines that come before ``example``, in its reader's words: its battle (none for a start or an
    import) and what it presupposes."""
    spec = example.spec
    presupposed = PRESUPPOSES.get(spec.path, ())
    lines: tuple[str, ...] = presupposed
    first = parse_line(resolve_marks(presupposed[0], {}, "en")) if presupposed else None
    starts = first is not None and lookup(first.path).kind in (Kind.START, Kind.IMPORT)
    if spec.kind not in (Kind.START, Kind.IMPORT) and not starts:
        lines = (*BATTLES[ruleset_of(spec)], *presupposed)
    given = fields(example)
    return [resolve_marks(line.format_map(given), catalogue(example.lang), example.lang) for line in lines]


# --- running it ------------------------------------------------------------------------------------


@dataclass
class Answer:
    ok: bool
    text: str
    document: dict[str, Any] | None = None


class Console:
    def __init__(self, session: ConsoleSession) -> None:
        self.session = session

    async def type(self, text: str, *, by: str = "gm") -> Answer:
        reply = await self.session.handle(text if by == "gm" else f"@{by} {text}")
        if reply is None:
            return Answer(False, "(no reply)")
        document = reply.view.document if isinstance(reply.view, ExportView) else None
        return Answer(reply.ok, reply.text, document)


def discord_options(spec: CommandSpec, words: list[str], folder: Path, lang: str) -> dict[str, Any]:
    """The options of ``words`` (what follows the command) as Discord's client sends them: a value runs
    to the next option's name (quotes and all); words before the first name fill a first option that
    takes the rest of the line; a choice is sent as its value, a file as an attachment."""
    table = rulesets().table
    raw: dict[str, str] = {}
    last = ""
    for word in words:
        name, sep, value = word.replace("：", ":", 1).partition(":")
        key = table.option_word(spec, norm_word(name)) if sep else ""
        if key and spec.option(key) is not None:
            assert key not in raw, (spec.path, words)
            raw[key], last = value, key
        elif last:
            raw[last] += " " + word
        else:
            assert spec.options and spec.options[0].rest, (spec.path, words)
            last = spec.options[0].name
            raw[last] = word
    sent: dict[str, Any] = {}
    for key, value in raw.items():
        opt = spec.option(key)
        assert opt is not None
        assert not value.startswith('"'), (key, value)  # the client would keep the quotes in the value
        if opt.type is OptType.CHOICE:
            sent[key] = table.choice_word(spec, key, value)
        elif opt.type is OptType.INT:
            sent[key] = int(value)  # the client takes nothing else
        elif opt.type is OptType.BOOL:
            assert value in ("true", "false"), (key, value)  # the client offers these two
            sent[key] = value == "true"
        elif opt.type in (OptType.USER, OptType.ROLE):
            sent[key] = mentioned(lang)[value.removeprefix("@")]
        elif opt.type in (OptType.FILE, OptType.TEXTFILE):
            sent[key] = Attachment(value, (folder / value).read_bytes())
        else:
            sent[key] = value
    return sent


class Discord:
    def __init__(self, harness: Harness, lang: str, folder: Path, channel: int) -> None:
        self.harness, self.lang, self.folder, self.channel = harness, lang, folder, channel

    async def type(self, text: str, *, by: str = "gm") -> Answer:
        line = parse_line(text)  # which words are the command, as the client shows them
        assert line is not None
        spec = lookup(line.path)
        # ``/ダイス 公開 番号:1``, ``/パレット 登録 シート:…``: typed into the options of ``/ダイス``
        # (``/パレット``)
        host = lookup(spec.extra[WITHIN]) if WITHIN in spec.extra else spec
        words = text.removeprefix("/").split()
        options = discord_options(host, words[len(host.path.split()) :], self.folder, self.lang)
        member = TYPISTS[by][self.lang]
        result = await self.harness.run(member, host.path, channel_id=self.channel, **options)
        return self.answer(result)

    @staticmethod
    def answer(result: Result) -> Answer:
        response = result.response
        if response.type == 5:  # deferred (the planner): the answer is the edit
            response = next(r for r in result.requests if r.method == "PATCH")
        text = response.text()
        refused = not response.embeds or (
            response.ephemeral and str(response.embeds[0].get("description") or "").startswith("⚠")
        )
        document = None
        if response.files and response.files[0][0].endswith(".json"):
            document = json.loads(response.files[0][1])
        return Answer(not refused, text, document)


@pytest.fixture
async def typist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Callable[..., Any]]:
    """``typist(lang, form, channel)``: who types lines into a fresh channel, in the console or Discord
    (one bot, a channel of its own each)."""
    storage = await open_storage(str(tmp_path / "examples.db"))
    service = BattleService(storage, SeededDice(38))
    harnesses: list[Harness] = []
    langs: list[str] = []
    made: list[str] = []

    async def fetched(url: str, policy: object) -> SheetSource:  # ゆとシートⅡ, as a stand-in
        return SheetSource(sheet(langs[-1]), url)

    monkeypatch.setattr(bot.sheet_fetch, "fetch_sheet", fetched)

    async def make(lang: str, form: str, channel: str) -> Console | Discord:
        langs.append(lang)
        made.append(channel)
        if form == "console":
            channel += str(len(made))
            return Console(ConsoleSession(service, lang=lang, base_dir=tmp_path, channel=channel, user="gm"))
        if not harnesses:
            harnesses.append(await Harness.create(service, defer_after=None))
        return Discord(harnesses[0], lang, tmp_path, harnesses[0].channel_id + len(made))

    yield make
    for harness in harnesses:
        await harness.bot.coalescer.close()
    await storage.close()


async def exported(example: Example, typist: Callable[..., Any], lines: tuple[str, ...]) -> dict[str, Any]:
    """The export of a battle set up by ``lines`` (in the console), as the file an import reads."""
    other = await typist(example.lang, "console", "source")
    given = fields(example)
    for line in lines:
        done = await other.type(resolve_marks(line.format_map(given), catalogue(example.lang), example.lang))
        assert done.ok, (line, done.text)
    binding = rulesets().get(ruleset_of(lookup(parse_line(resolve_marks(lines[0], {}, "en")).path)))  # type: ignore[union-attr]
    assert binding is not None
    done = await other.type(f"/{binding.group} export")
    assert done.ok and done.document is not None, done.text
    return done.document


async def run(example: Example, typist: Callable[..., Any], folder: Path) -> list[str]:
    """``example`` typed after what it presupposes; the refusals, as the reader reads them."""
    for name, content in files(example.lang).items():
        (folder / name).write_text(content, encoding="utf-8")
    spec = example.spec
    if spec.kind is Kind.IMPORT:  # the file it names: an export of its rule set's battle
        document = await exported(example, typist, BATTLES[ruleset_of(spec)])
        (folder / example.text.rsplit(":", 1)[1]).write_text(json.dumps(document), encoding="utf-8")
    lines = setup(example)
    if any("unowned.json" in line for line in lines):  # a fort whose PC no one owns
        document = await exported(example, typist, (FORT, pc("name")))
        for one in document["pcs"]:
            one.pop("owner", None)
        (folder / "unowned.json").write_text(json.dumps(document), encoding="utf-8")
    channel = await typist(example.lang, example.form, "example")
    refused = []
    for line in lines:
        done = await channel.type(line)
        if not done.ok:
            refused.append(f"(set-up) {line}: {done.text}")
    done = await channel.type(example.text, by=TYPED_BY.get(spec.path, "gm"))
    if not done.ok:
        refused.append(done.text)
    return refused


@contextmanager
def built_in() -> Iterator[None]:
    previous = use(BUILT_IN)
    try:
        yield
    finally:
        use(previous)


with built_in():
    EXAMPLES = every_example()


@pytest.fixture(autouse=True)
def _built_in() -> Iterator[None]:
    with built_in():
        yield


def test_the_examples_are_collected_from_what_the_bot_prints() -> None:
    """Every command's help prints at least one example, in both languages and both forms; the README's
    are there too."""
    for form in FORMS:
        for lang in LANGS:
            shown = help_examples(lang, form)
            assert {e.spec.path for e in shown} == set(rulesets().table.specs), (lang, form)
        assert len(readme_examples(form)) >= 30
    assert len(EXAMPLES) >= 400


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
async def test_the_example_runs_as_printed(
    example: Example, typist: Callable[..., Any], tmp_path: Path
) -> None:
    refused = await run(example, typist, tmp_path)
    if example.form == "console" and example.spec.path in NEEDS_DISCORD_RIGHTS:
        assert len(refused) == 1, refused  # once it runs, it leaves NEEDS_DISCORD_RIGHTS
        pytest.xfail(f"in the console another member has no Manage Channels: {refused[0]}")
    assert refused == [], example.source


@pytest.mark.parametrize("form", FORMS)
async def test_a_broken_example_is_caught(form: str, typist: Callable[..., Any], tmp_path: Path) -> None:
    """The runner is no test that cannot fail: an example that asks what its battle does not allow, and
    one whose presupposition no set-up gives, are caught, with the refusal in the reader's words."""
    declared = Example("/ダイス 公開 番号:9", "ja", form, "a broken catalogue")  # three were rolled
    refused = await run(declared, typist, tmp_path)
    assert refused == [
        "⚠ シークレットダイス#9はありません。公開できるのは #1〜#3のうちあなたに見えるものです"
        "(/ダイス 秘密一覧 で確かめられます)。"
    ], refused
    moved = Example("/pc 移動 名前:アリス エリア:Z9", "ja", form, "a broken catalogue")  # no such area
    refused = await run(moved, typist, tmp_path)
    assert len(refused) == 1 and refused[0].startswith("⚠ ") and "Z9" in refused[0], refused
