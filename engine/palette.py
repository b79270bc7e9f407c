"""Chat palettes as ゆとシートⅡ and ココフォリア write them, and the expansion of one line.

A palette is lines of text. ``//変数=式`` defines a variable; ``### ■見出し`` is a heading; a blank line
separates; every other line is a command line: a BCDice command, then after the first space its
comment (``2d+{命中1}+{命中修正} 命中力／ロングソード``), the comment being the line's label.

Expanding a line does what ココフォリア does before it hands the line to BCDice: every ``{変数}`` is
replaced by its text, the texts of nested variables in turn, until none is left. The arithmetic is
then BCDice's, done by the dice engine (engine/dice) when the expanded command is rolled: in a sum
``/`` rounds down, ``/U`` up and ``/R`` to the nearest; in a rating roll (``K20+(13/2)``) BCDice's
rating parser rounds up. There is no second evaluator here, so an expanded line rolls as BCDice
would roll it. Names are compared after NFKC and case folding (``{命中１}`` is ``{命中1}``); full-width
braces and ``／／``, ``＝`` are read as their ASCII forms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.common import fold
from engine.dice import DiceError, DiceSource, RollResult, parse_command
from engine.dice.command import split_comment
from engine.ruleset import RuleError

#: the most a palette may hold (ゆとシート's generated palettes are a few hundred lines at most)
MAX_LINES = 400
MAX_CHARS = 30_000
#: how deep variables may nest, and how long an expanded line may grow
MAX_DEPTH = 20
MAX_EXPANDED = 2_000

_DEFINITION = re.compile(r"^//([^=]+)=(.*)$")
_REFERENCE = re.compile(r"[{｛]([^{}｛｝]+)[}｝]")


@dataclass(frozen=True, slots=True)
class PaletteLine:
    """A command line: its number among the command lines (from 1), its text, and its label."""

    number: int
    text: str
    label: str


@dataclass(frozen=True, slots=True)
class Palette:
    lines: tuple[PaletteLine, ...] = ()
    #: ``//変数=式`` definitions as written (name, expression), in order
    variables: tuple[tuple[str, str], ...] = ()

    def definitions(self) -> dict[str, str]:
        """Folded name → expression; of a name defined twice the later definition counts."""
        return {fold(name): value for name, value in self.variables}


def parse_palette(text: str) -> Palette:
    """The lines and variables of a palette (``palette.too_long`` past ``MAX_LINES``/``MAX_CHARS``)."""
    if len(text) > MAX_CHARS:
        raise RuleError("palette.too_long", chars=len(text), max_chars=MAX_CHARS, max_lines=MAX_LINES)
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(raw_lines) > MAX_LINES:
        raise RuleError("palette.too_long", chars=len(text), max_chars=MAX_CHARS, max_lines=MAX_LINES)
    lines: list[PaletteLine] = []
    variables: list[tuple[str, str]] = []
    for raw in raw_lines:
        line = raw.strip(" \t\u3000")
        if not line:
            continue
        head = unicodedata.normalize("NFKC", line)
        if head.startswith("//"):
            found = _DEFINITION.match(head)
            if found and found.group(1).strip():
                variables.append((found.group(1).strip(), found.group(2).strip()))
            continue  # a ``//`` line without ``=`` is a note
        if head.startswith("###"):
            continue
        _, comment = split_comment(line)
        lines.append(PaletteLine(len(lines) + 1, line, comment or line))
    return Palette(tuple(lines), tuple(variables))


Lookup = Callable[[str], "str | None"]


def expand(text: str, lookup: Lookup, *, strict: bool = True) -> str:
    """``text`` with every ``{変数}`` replaced by the expansion of its value (``lookup(folded name)``).

    ``strict``: an unknown variable is refused (``palette.variable_missing``); otherwise it stays as
    written. A variable that refers to itself, directly or not, is ``palette.variable_cycle``.
    """
    return _expand(text, lookup, strict, ())


def _expand(text: str, lookup: Lookup, strict: bool, stack: tuple[str, ...]) -> str:
    if len(stack) > MAX_DEPTH:
        raise RuleError("palette.variable_cycle", names=" → ".join(stack))

    def replace(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        key = fold(name)
        if key in (fold(s) for s in stack):
            raise RuleError("palette.variable_cycle", names=" → ".join((*stack, name)))
        value = lookup(key)
        if value is None:
            if strict:
                raise RuleError("palette.variable_missing", name=name)
            return match.group(0)
        return _expand(value, lookup, strict, (*stack, name))

    out = _REFERENCE.sub(replace, text)
    if len(out) > MAX_EXPANDED:
        raise RuleError("palette.expanded_too_long", max=MAX_EXPANDED)
    return out


@dataclass(frozen=True, slots=True)
class Expanded:
    """A line with its variables filled in: the command for BCDice and the comment."""

    line: PaletteLine
    command: str
    comment: str

    @property
    def text(self) -> str:
        return f"{self.command} {self.comment}" if self.comment else self.command


def expand_line(palette: Palette, line: PaletteLine, values: Mapping[str, str]) -> Expanded:
    """``line`` expanded with the palette's own definitions first, then ``values`` (folded names:
    the sheet's numbers, the PC's HP ...); an empty definition (ゆとシート's ``//命中1=`` for a weapon
    without a class) gives way to a value. The command must expand fully; the comment is text, and an
    unknown ``{...}`` in it stays as written."""
    own = palette.definitions()

    def lookup(key: str) -> str | None:
        value = own.get(key)
        return value if value else values.get(key, value)

    command, comment = split_comment(line.text)
    try:
        expanded = expand(command, lookup)
    except RuleError as error:
        raise RuleError(error.key, **error.values, line=line.label) from None
    return Expanded(line, unicodedata.normalize("NFKC", expanded), expand(comment, lookup, strict=False))


def find_line(palette: Palette, selector: str) -> PaletteLine:
    """The line ``selector`` names: its number, its label (as autocomplete offers it: ``label`` or, for
    a label used twice, ``number label``), its whole text, or a part of one label only."""
    if not palette.lines:
        raise RuleError("palette.empty")
    wanted = fold(selector)
    number, _, rest = wanted.partition(" ")
    if number.isdigit() and 1 <= int(number) <= len(palette.lines):
        line = palette.lines[int(number) - 1]
        if not rest or fold(line.label) == rest.strip():
            return line
    for attribute in ("label", "text"):
        same = [line for line in palette.lines if fold(getattr(line, attribute)) == wanted]
        if len(same) == 1:
            return same[0]
        if same:
            raise RuleError(
                "palette.line_ambiguous", line=selector, numbers=", ".join(str(s.number) for s in same)
            )
    partial = [line for line in palette.lines if wanted and wanted in fold(line.label)]
    if len(partial) == 1:
        return partial[0]
    if partial:
        raise RuleError(
            "palette.line_ambiguous", line=selector, numbers=", ".join(str(s.number) for s in partial[:10])
        )
    raise RuleError("palette.line_unknown", line=selector, count=len(palette.lines))


def choices(palette: Palette) -> list[str]:
    """What ``/pc roll line:`` offers: each label, or ``number label`` for a label used twice."""
    seen: dict[str, int] = {}
    for line in palette.lines:
        seen[fold(line.label)] = seen.get(fold(line.label), 0) + 1
    return [
        line.label if seen[fold(line.label)] == 1 else f"{line.number} {line.label}" for line in palette.lines
    ]


@dataclass(frozen=True, slots=True)
class OwnPalette:
    """A character's palette a user may roll from anywhere (``/palette``): the character's name, its
    palette, and the values its lines may name (folded names: the sheet's numbers, HP ...)."""

    name: str
    palette: Palette
    values: Mapping[str, str]


def roll_line(
    palette: Palette, selector: str, values: Mapping[str, str], dice: DiceSource
) -> tuple[Expanded, RollResult]:
    """The line ``selector`` names, expanded with ``values`` (``expand_line``) and rolled as BCDice
    rolls it; ``palette.not_a_command`` if it expands to no dice command (other ``dice.*`` as they are)."""
    expanded = expand_line(palette, find_line(palette, selector), values)
    try:
        return expanded, parse_command(expanded.text).roll(dice)
    except DiceError as error:
        if error.key != "dice.unknown_command":
            raise
        command = error.values.get("command", "")
        raise RuleError("palette.not_a_command", line=selector, command=command) from None
