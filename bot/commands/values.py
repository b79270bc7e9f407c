"""Option values checked against a command's spec and given their types (``convert``): strings from the
console and tests are converted, values of the right type (Discord's) pass through. Every refusal is a
``UserError`` naming the option and what it accepts, in the reader's words."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from bot.commands.jsonread import read_json
from bot.commands.model import CommandSpec, Option, OptType, SheetSource, UserError
from bot.commands.usage import usage
from bot.i18n import LANGUAGES, catalogue
from bot.i18n.names import (
    ChoiceList,
    ChoiceName,
    CommandName,
    OptionList,
    OptionName,
    choice_words,
    close_word,
    option_text,
)
from engine import limits


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def norm_word(text: str) -> str:
    """A command or option word as the table spells it (full-width and case folded)."""
    return " ".join(nfkc(text).casefold().split())


_TRUE = {"true", "yes", "on", "1", "はい"}
_FALSE = {"false", "no", "off", "0", "いいえ"}
_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def option_words(spec: CommandSpec) -> dict[str, str]:
    """A command's options by each of their names (``rounds``, ``ラウンド数``)."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        names = catalogue(lang)
        for opt in spec.options:
            out.setdefault(norm_word(option_text(opt.name, names, spec.path)), opt.name)
    return out


def convert(spec: CommandSpec, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check option values against the spec and give them their types; fill in defaults.

    Strings (console, tests) are converted; values of the right type (Discord) pass through.
    Raises ``UserError`` naming the option and what it accepts.
    """
    values: dict[str, Any] = {}
    for given_name, given in raw.items():
        name = norm_word(given_name)
        opt = spec.option(name)
        if opt is None:
            shown = {
                "command": CommandName(spec.path),
                "option": given_name,
                "allowed": OptionList(spec.path, tuple(o.name for o in spec.options)) or None,
            }
            near = close_word(name, option_words(spec))
            if near is not None:
                hint = OptionName(str(near), spec.path)
                raise UserError("command.unknown_option_close", hint=hint, **shown)
            raise UserError("command.unknown_option", **shown)
        if name in values:
            raise UserError("command.duplicate_option", option=OptionName(name, spec.path))
        values[name] = convert_value(spec, opt, given)
    for opt in spec.options:
        if opt.name not in values:
            if opt.required:
                raise UserError(
                    "command.missing_option",
                    command=CommandName(spec.path),
                    option=OptionName(opt.name, spec.path),
                    usage=usage(spec),
                )
            values[opt.name] = opt.default
    return values


def convert_value(spec: CommandSpec, opt: Option, given: Any) -> Any:
    """One option's value, checked and typed (``convert``)."""

    def bad(key: str = "command.bad_value", **more: Any) -> UserError:
        return UserError(key, option=OptionName(opt.name, spec.path), value=str(given), **more)

    if opt.type is OptType.FILE:
        return read_json(opt.name, given)
    if isinstance(given, str) and not limits.is_unicode(given):
        raise bad("command.text_not_unicode")
    convert_type: Converter = _CONVERTERS.get(opt.type, _plain_text)
    return convert_type(opt, given, bad)


Bad = Callable[..., UserError]
#: reads a value of one type: the option, the value given, and how to refuse it
Converter = Callable[[Option, Any, Bad], Any]


def _bool(opt: Option, given: Any, bad: Bad) -> bool:
    if isinstance(given, bool):
        return given
    word = nfkc(str(given)).strip().casefold()
    for alias, value in opt.aliases:  # an option's own words (``抵抗:半減`` for ``resisted:true``)
        if nfkc(alias).casefold() == word:
            return value == "true"
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise bad("command.not_bool")


def _choice(opt: Option, given: Any, bad: Bad) -> str:
    word = norm_word(str(given))
    for alias, choice in opt.aliases:
        if alias.casefold() == word:
            return choice
    words = choice_words(opt.name, opt.choices)
    if word in words:
        return words[word]
    choices = ChoiceList(opt.name, opt.choices)
    near = close_word(word, words)
    if near is not None:
        raise bad("command.not_choice_close", choices=choices, hint=ChoiceName(opt.name, str(near)))
    raise bad("command.not_choice", choices=choices)


def _damage(opt: Option, given: Any, bad: Bad) -> int | str:
    if isinstance(given, int) and not isinstance(given, bool):
        return _int(opt, given, bad, 0, limits.MAX_HP)
    text = nfkc(str(given)).strip()
    if not text:
        raise bad()
    if limits.parse_int(text.replace("−", "-")) is not None:
        return _int(opt, text, bad, 0, limits.MAX_HP)
    return _text(opt, text, bad)


def _mention(opt: Option, given: Any, bad: Bad) -> str:
    text = nfkc(str(given)).strip()
    mention = (_MENTION if opt.type is OptType.USER else _ROLE_MENTION).fullmatch(text)
    if mention:
        return mention.group(1)
    text = text.removeprefix("@")
    if not text:
        raise bad()
    return _text(opt, text, bad, limits.NAME_MAX)


def _sheet(opt: Option, given: Any, bad: Bad) -> SheetSource:
    if isinstance(given, SheetSource):
        return given
    text = str(given).strip()
    if text.startswith(("http://", "https://")):  # a front-end fetches URLs before the service runs
        raise bad("sheet.url_not_fetched")
    return SheetSource(text)


def _text_file(opt: Option, given: Any, bad: Bad) -> str:
    text = given.decode("utf-8-sig") if isinstance(given, bytes) else str(given)
    if not text.strip():
        raise bad("command.empty")
    return text


def _plain_text(opt: Option, given: Any, bad: Bad) -> str:
    text = str(given)
    if not text.strip():
        raise bad("command.empty")
    return _text(opt, text, bad)


def _int(
    opt: Option,
    given: Any,
    bad: Bad,
    lo: int = -limits.MAX_NUMBER,
    hi: int = limits.MAX_NUMBER,
) -> int:
    """An integer option within its bounds (``lo``..``hi`` where the spec gives none: any number
    within ±``limits.MAX_NUMBER``, damage from 0 to ``limits.MAX_HP``)."""
    if isinstance(given, bool):
        raise bad("command.not_int")
    number = given if isinstance(given, int) else limits.parse_int(nfkc(str(given)).replace("−", "-"))
    if number is None:
        raise bad("command.not_int")
    lo = opt.min if opt.min is not None else lo
    hi = opt.max if opt.max is not None else hi
    if not lo <= number <= hi:
        raise bad("command.out_of_range", min=lo, max=hi)
    return number


def _text(opt: Option, text: str, bad: Bad, max_len: int | None = None) -> str:
    """A text option: valid Unicode, no control characters (line breaks and tabs where the option
    is ``multiline``), at most its ``max_len`` characters."""
    longest = max_len or opt.max_len or limits.TEXT_MAX
    checked = text.replace("\n", "").replace("\t", "").replace("\r", "") if opt.multiline else text
    problem = limits.text_problem(checked, longest)
    if problem is None and len(text) > longest:
        problem = "too_long"
    if problem is not None:
        raise bad(f"command.text_{problem}", max=longest, length=len(text))
    return text


#: how a value of each type is read (STR and the rest: ``_plain_text``)
_CONVERTERS: dict[OptType, Converter] = {
    OptType.INT: _int,
    OptType.BOOL: _bool,
    OptType.CHOICE: _choice,
    OptType.DAMAGE: _damage,
    OptType.USER: _mention,
    OptType.ROLE: _mention,
    OptType.SHEET: _sheet,
    OptType.TEXTFILE: _text_file,
}
