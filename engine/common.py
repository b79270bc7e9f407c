"""Plumbing every rule set shares: names, the command JSON codec, dice-carrying events, replay.

Nothing here knows a rule. A rule set passes in its own prefix (``fort``, ``sg``) so that the
refusals raised here carry its keys (``sg.name_invalid``, ``sg.command_invalid``).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar, Union

from engine.dice.source import DiceSource, ScriptedDice
from engine.limits import visible
from engine.ruleset import Event, Outcome, RuleError

#: refusals raised here, under each rule set's prefix (``fort.name_invalid``, ``sg.command_invalid``)
COMMON_REFUSALS = ("command_invalid", "name_invalid", "replay_dice_left")

# --- names ------------------------------------------------------------------------------------

#: the longest name a battle accepts (in characters, after NFKC)
NAME_MAX = 64


def fold(text: str) -> str:
    """A name or keyword as compared: NFKC (full width to half width), without the characters that show
    nothing (``limits.visible``: zero-width, soft hyphen, fillers), trimmed, case folded."""
    return visible(text).strip().casefold()


#: hiragana to katakana (ごぶりん → ゴブリン), for what is close to a name, never for a name's identity
_KANA = {c: c + 0x60 for c in range(0x3041, 0x3097)}


def kana_fold(text: str) -> str:
    """``fold``, hiragana as katakana: how near a typed word is to a name (``ごぶりん隊`` to ``ゴブリン隊``:
    a suggestion, autocomplete). Names stay compared by ``fold`` alone."""
    return fold(text).translate(_KANA)


class Unfit(ValueError):
    """A value a GM's override cannot take: ``reason`` a code the catalogues word (``out_of_range``,
    ``not_an_integer``), ``detail`` what its sentence names (``min``, ``max``)."""

    def __init__(self, reason: str, **detail: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


#: words read as yes / no in option values and overrides (after ``fold``)
TRUE_WORDS = frozenset({"true", "yes", "on", "1", "はい"})
FALSE_WORDS = frozenset({"false", "no", "off", "0", "いいえ"})


def parse_bool(text: str) -> bool | None:
    """``true``/``yes``/``on``/``1`` → True, their opposites → False, anything else → None."""
    word = fold(text)
    return True if word in TRUE_WORDS else False if word in FALSE_WORDS else None


def clean_name(name: str, prefix: str) -> tuple[str, str]:
    """A new name as stored (NFKC, invisible characters taken out, trimmed) and its key;
    ``<prefix>.name_invalid`` if that is empty or too long."""
    key = fold(name)
    if not key or len(key) > NAME_MAX:
        raise RuleError(f"{prefix}.name_invalid", name=visible(name).strip(), max=NAME_MAX)
    return visible(name).strip(), key


# --- events that carry their dice ------------------------------------------------------------


class EventRecorder:
    """A dice source that records every die rolled through it and hands them to the next event.

    So the events of one command hold all of its dice in the order rolled, and feeding those
    values back as scripted dice reproduces the command exactly. It rolls from ``source``
    itself rather than through a ``RecordingDice``: this sits on the hot path of every command.
    """

    __slots__ = ("_given", "_source", "events", "rolls")

    def __init__(self, source: DiceSource) -> None:
        self._source = source
        self.rolls: list[tuple[int, int]] = []
        self.events: list[Event] = []
        self._given = 0

    def roll(self, sides: int) -> int:
        value = self._source.roll(sides)
        self.rolls.append((sides, value))
        return value

    def emit(self, kind: str, data: Mapping[str, Any], audience: tuple[str, ...] | None = None) -> None:
        """Append an event carrying every die rolled since the previous event (``audience``: a secret's)."""
        rolls = self.rolls
        if len(rolls) > self._given:
            new = tuple(rolls[self._given :])
            self._given = len(rolls)
        else:
            new = ()
        self.events.append(Event(kind, data, new, audience))

    def check_all_dice_emitted(self) -> None:
        """Every die rolled belongs to an event (a rule that rolls after its last event is a bug)."""
        if self._given != len(self.rolls):  # pragma: no cover - a bug, never a rule
            raise AssertionError("dice rolled after the last event")


def dice_values(events: Iterable[Event]) -> list[int]:
    """Every die value the events carry, in order (what a replay feeds back)."""
    return [value for event in events for _, value in event.dice]


S = TypeVar("S")
C = TypeVar("C")


def replay(
    apply: Callable[[S | None, C, DiceSource], Outcome[S]],
    initial: S | None,
    steps: Iterable[tuple[C, Sequence[int]]],
    prefix: str,
) -> S | None:
    """Re-applies commands, each with the dice values its events recorded (``dice_values``).

    ``initial`` is None before a battle's start command. Too few values raise
    ``dice.script_exhausted``, too many ``<prefix>.replay_dice_left``: the log does not fit.
    """
    state = initial
    for step, (command, values) in enumerate(steps, start=1):
        dice = ScriptedDice(values)
        state = apply(state, command, dice).state
        if dice.remaining:
            raise RuleError(f"{prefix}.replay_dice_left", step=step, left=dice.remaining)
    return state


# --- commands -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """Base of every rule set's command classes. ``gm_only`` follows the (GM) marks of the command
    tables; the bot reads it for permissions (``bot.rulesets.engine_command``)."""

    gm_only: ClassVar[bool] = False


def _allowed(hint: Any) -> tuple[Any, ...]:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is Union:
        return typing.get_args(hint)
    return (hint,)


def _fits(value: Any, allowed: tuple[Any, ...]) -> bool:
    for kind in allowed:
        if kind is type(None) and value is None:
            return True
        if kind is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if kind in (bool, str) and isinstance(value, kind):
            return True
    return False


class CommandCodec(Generic[C]):
    """Commands (frozen dataclasses of str / int / bool / None fields) to JSON dicts and back.

    ``{"type": "Roll", "name": "霊夢", "dice": 3, ...}``; a field may be spelt otherwise in JSON
    (``renames``, for Python keywords such as ``from_``). A bad document is refused as
    ``<prefix>.command_invalid`` with a ``reason`` (not_an_object, unknown_type, missing, wrong_type).
    """

    def __init__(
        self, prefix: str, classes: Iterable[type[C]], renames: Mapping[str, str] | None = None
    ) -> None:
        self.prefix = prefix
        self.classes: dict[str, type[C]] = {cls.__name__: cls for cls in classes}
        self._renames = dict(renames or {})
        self._table: dict[str, tuple[tuple[str, str, Any, bool], ...]] | None = None

    @property
    def _fields(self) -> dict[str, tuple[tuple[str, str, Any, bool], ...]]:
        """Each class's (attribute, JSON key, allowed types, required) fields, worked out at first use
        (the annotations are evaluated then, not when a rule set's module is imported)."""
        if self._table is None:
            table = {}
            for name, cls in self.classes.items():
                hints = typing.get_type_hints(cls)
                table[name] = tuple(
                    (
                        f.name,
                        self._renames.get(f.name, f.name),
                        _allowed(hints[f.name]),
                        f.default is MISSING,
                    )
                    for f in fields(typing.cast(Any, cls))
                )
            self._table = table
        return self._table

    def to_json(self, command: C) -> dict[str, Any]:
        name = type(command).__name__
        out: dict[str, Any] = {"type": name}
        for attribute, key, _, _ in self._fields[name]:
            out[key] = getattr(command, attribute)
        return out

    def from_json(self, raw: Any) -> C:
        invalid = f"{self.prefix}.command_invalid"
        if not isinstance(raw, Mapping):
            raise RuleError(invalid, reason="not_an_object")
        name = raw.get("type")
        if not isinstance(name, str) or name not in self._fields:
            raise RuleError(invalid, reason="unknown_type", type=str(name))
        values: dict[str, Any] = {}
        for attribute, key, allowed, required in self._fields[name]:
            if key not in raw:
                if required:
                    raise RuleError(invalid, reason="missing", type=name, field=key)
                continue
            if not _fits(raw[key], allowed):
                raise RuleError(invalid, reason="wrong_type", type=name, field=key)
            values[attribute] = raw[key]
        return self.classes[name](**values)


# --- typed reads from an imported JSON document -------------------------------------------------


class ImportInvalid(Exception):
    """A bad value in an imported document: where it is (``path``) and why (``reason``).

    Each rule set turns it into its own refusal (``fort.import_invalid``, ``sg.import_invalid``).
    """

    def __init__(self, path: str, reason: str, **detail: Any) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        #: what the reason's sentence names: the bounds of ``out_of_range``, the words of ``not_one_of``
        self.detail: dict[str, Any] = detail


@dataclass(frozen=True, slots=True)
class JsonStyle:
    """How a rule set spells paths and reasons, so that its refusals keep their words.

    A key's path is ``<object path><sep><key>``; an object under a key is at ``<key path><end>``,
    the i-th object of a list under a key at ``<key path><item.format(i)><end>``.
    ``wrong_type(kind)`` is the reason for a value that is not a ``kind``. With
    ``null_is_missing`` a required key holding null is ``missing``; without it, a wrong type.
    """

    sep: str
    end: str
    item: str
    wrong_type: Callable[[type[Any]], str]
    null_is_missing: bool


class Required:
    """The default of a key that must be there (``REQUIRED``)."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED = Required()

T = TypeVar("T")


class JsonDoc:
    """Typed reads from one JSON object at ``path``; a bad value raises ``ImportInvalid``.

    A key absent, or null with a default given, reads as its default (``REQUIRED``: ``missing``).
    A default is returned as given, except that ``int_`` checks it against ``lo``/``hi`` too.
    """

    __slots__ = ("_trail", "path", "raw", "style")

    def __init__(self, raw: Any, path: str, style: JsonStyle, trail: list[str] | None = None) -> None:
        if not isinstance(raw, Mapping):
            raise ImportInvalid(path, "not_an_object")
        self.raw: Mapping[str, Any] = raw
        self.path = path
        self.style = style
        #: the path of the last value read from this document or any object in it (shared): where a
        #: rule's own refusal of a value (``fort.area_invalid``) was raised, since each value is read
        #: just before it is parsed
        self._trail = trail if trail is not None else [path]

    def key_path(self, key: str) -> str:
        return f"{self.path}{self.style.sep}{key}"

    def bad(self, key: str, reason: str, **detail: Any) -> ImportInvalid:
        """The refusal of the value under ``key`` (to raise)."""
        return ImportInvalid(self.key_path(key), reason, **detail)

    def _lookup(self, key: str, default: Any) -> tuple[Any, bool]:
        """The value under ``key`` and whether it is the default."""
        self._trail[0] = self.key_path(key)
        value = self.raw.get(key)
        if key not in self.raw or (value is None and (default is not REQUIRED or self.style.null_is_missing)):
            if default is REQUIRED:
                raise self.bad(key, "missing")
            return default, True
        return value, False

    @typing.overload
    def get(self, key: str, kind: type[T], default: None) -> T | None: ...

    @typing.overload
    def get(self, key: str, kind: type[T], default: T | Required = REQUIRED) -> T: ...

    def get(self, key: str, kind: type[T], default: T | Required | None = REQUIRED) -> T | None:
        """The value under ``key``, which must be a ``kind`` (an int is never a bool)."""
        value, defaulted = self._lookup(key, default)
        if defaulted:
            return typing.cast("T | None", value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.bad(key, self.style.wrong_type(kind))
        return value

    @typing.overload
    def int_(
        self, key: str, default: int | Required = REQUIRED, lo: int | None = None, hi: int | None = None
    ) -> int: ...

    @typing.overload
    def int_(self, key: str, default: None, lo: int | None = None, hi: int | None = None) -> int | None: ...

    def int_(
        self,
        key: str,
        default: int | Required | None = REQUIRED,
        lo: int | None = None,
        hi: int | None = None,
    ) -> int | None:
        """An integer within ``lo``..``hi`` (``out_of_range``), its default included."""
        value = self.get(key, int, default)
        if value is not None and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            raise self.bad(key, "out_of_range", min=lo, max=hi)
        return value

    @typing.overload
    def enum(
        self,
        key: str,
        parse: Callable[[str], T],
        default: None,
        reason: str = ...,
        allowed: Sequence[str] = ...,
    ) -> T | None: ...

    @typing.overload
    def enum(
        self,
        key: str,
        parse: Callable[[str], T],
        default: T | Required = REQUIRED,
        reason: str = ...,
        allowed: Sequence[str] = ...,
    ) -> T: ...

    def enum(
        self,
        key: str,
        parse: Callable[[str], T],
        default: T | Required | None = REQUIRED,
        reason: str = "unknown_value",
        allowed: Sequence[str] = (),
    ) -> T | None:
        """A string read by ``parse``; its ``ValueError`` is refused with ``reason`` (and the
        ``allowed`` words, for the refusal to name)."""
        value, defaulted = self._lookup(key, default)
        if defaulted:
            return typing.cast("T | None", value)
        if not isinstance(value, str):
            raise self.bad(key, self.style.wrong_type(str))
        try:
            return parse(value)
        except ValueError:
            detail = {"allowed": list(allowed), "allowed_kind": key} if allowed else {}
            raise self.bad(key, reason, **detail) from None

    def items(self, key: str) -> list[JsonDoc]:
        """The objects of the list under ``key`` (absent or null: none)."""
        value = self.raw.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.bad(key, self.style.wrong_type(list))
        return [self.item(key, i, v) for i, v in enumerate(value)]

    def item(self, key: str, index: int, raw: Any) -> JsonDoc:
        """``raw`` read as the object at ``index`` of the list under ``key``."""
        path = f"{self.key_path(key)}{self.style.item.format(index)}{self.style.end}"
        return JsonDoc(raw, path, self.style, self._trail)

    def obj(self, key: str) -> JsonDoc | None:
        """The object under ``key``, None if absent or null."""
        value = self.raw.get(key)
        if value is None:
            return None
        return JsonDoc(value, self.key_path(key) + self.style.end, self.style, self._trail)

    def obj_or_empty(self, key: str) -> JsonDoc:
        """The object under ``key``; absent, null or any other false value reads as ``{}``."""
        return JsonDoc(self.raw.get(key) or {}, self.key_path(key) + self.style.end, self.style, self._trail)


class DamageKind(StrEnum):
    """Sword World 2.5's kinds of damage (F-UNIT-4, B-DMG-1): 物理 (less 防護点), 魔法 (in full), 確定
    (never reduced), as the ``kind:`` option names them; every rule set's."""

    PHYSICAL = "physical"
    MAGIC = "magic"
    FIXED = "fixed"


class Element(StrEnum):
    """Sword World 2.5's damage elements (属性; F-UNIT-15, B-DMG-1), as the ``element:`` option names
    them; every rule set's."""

    FIRE = "fire"
    WATER = "water"
    WIND = "wind"
    EARTH = "earth"
    LIGHTNING = "lightning"
    ENERGY = "energy"
    CUTTING = "cutting"
    IMPACT = "impact"
    POISON = "poison"
    DISEASE = "disease"
    MIND = "mind"
    CURSE = "curse"
