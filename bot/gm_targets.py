"""``/gm set target:`` in the reader's words, one mechanism for every rule set: what a typed target
(``砦HP``, ``大砲1.砲弾``, ``ゴブリン隊.HP`` or the English path ``unit.ゴブリン隊.hp``) is as the path
its engine takes, the targets autocomplete offers in the reader's language, and a target nobody has
refused with the targets listed in the reader's words.

A rule set describes its targets (``GMTargets``): those of the battle as a whole, by their English
path (``round``, ``cannon.{cannon}.shells``, a ``{…}`` filled from the battle's document), and those
of its characters (``Owner``): the head of their path (``unit.``, or none), their names in a
document and their attributes. The words are its catalogue's (``gm_targets.toml``), under
``GMTargets.key``: ``<key><path without braces>`` (``fort.gm_target.cannon.cannon.shells`` =
``大砲{cannon}.砲弾``), ``<key>attr.<attribute>`` (``HP``) and ``<key>owned.<kind>``, how a character's
target reads (``{name}.{attr}``; in English the path, ``unit.{name}.{attr}``). Whatever language the
reader's client has, every language's words and the English paths are read: a character's target is
``<name>.<attribute>``, with or without its path's head.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.commands.model import BuildContext, Builder, UserError
from bot.i18n import LANGUAGES, catalogue, fill, t
from bot.i18n.named import Named
from engine.common import fold

#: a document's values of each placeholder of the whole targets (``cannon`` → ``1``, ``2``)
Fills = Mapping[str, Sequence[str]]
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True, slots=True)
class Owner:
    """Targets of the characters of a kind (units, PCs ...): ``<head><name>.<attribute>``."""

    #: the kind, whose words are ``<key>.owner.<kind>`` (``<ユニット名>``, in a refusal's list)
    kind: str
    #: the head of their English paths (``unit.``; empty: the name alone)
    head: str
    #: every attribute the engine takes, in the order a refusal lists them
    attrs: tuple[str, ...]
    #: the characters of this kind in a document (each a mapping with its ``name``)
    elements: Callable[[Mapping[str, Any]], list[Mapping[str, Any]]]
    #: the attributes autocomplete offers for one of them (its document), None: ``attrs``
    offered: Callable[[Mapping[str, Any]], Sequence[str]] | None = None
    #: a word that is none of ``attrs`` is a value of its own (a PC's sheet: ``器用度``), for the engine
    free: bool = False

    def names(self, document: Mapping[str, Any]) -> list[str]:
        return [str(e["name"]) for e in self.elements(document) if e.get("name")]


@dataclass(frozen=True, slots=True)
class GMTargets:
    """A rule set's ``/gm set`` targets (see the module's docstring)."""

    #: its catalogue keys' prefix (``fort.gm_target.``)
    key: str
    #: the targets of the battle as a whole, by English path, in the order they are offered
    whole: tuple[str, ...]
    owners: tuple[Owner, ...] = ()
    #: a document's values of the whole targets' placeholders
    fills: Callable[[Mapping[str, Any]], Fills] = field(default=lambda doc: {})

    def attr_key(self, attr: str) -> str:
        return f"{self.key}attr.{attr}"

    def whole_key(self, path: str) -> str:
        return self.key + path.replace("{", "").replace("}", "")

    def form(self, path: str, lang: str) -> str:
        """The words of the whole target ``path`` in ``lang``, a pattern whose placeholders are kept
        (``大砲{cannon}.砲弾``): its English path where the catalogue has none."""
        return catalogue(lang).get(self.whole_key(path), path)

    def attr_word(self, attr: str, lang: str) -> str:
        return catalogue(lang).get(self.attr_key(attr), attr)


# --- a typed target as its path -------------------------------------------------------------------


def _pattern(form: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(unicodedata.normalize("NFKC", form))
    # split alternates literal text and placeholder names
    regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(regex, re.IGNORECASE)


def _whole(table: GMTargets, typed: str) -> str | None:
    for path in table.whole:
        for form in dict.fromkeys((path, *(table.form(path, lang) for lang in LANGUAGES))):
            found = _pattern(form).fullmatch(typed)
            if found is not None:
                return path.format(**{k: v.strip() for k, v in found.groupdict().items()})
    return None


def _attr(table: GMTargets, word: str) -> str | None:
    """The attribute ``word`` names: its English name or its words in any language."""
    folded = fold(word)
    for owner in table.owners:
        for attr in owner.attrs:
            if folded == attr or any(folded == fold(table.attr_word(attr, lang)) for lang in LANGUAGES):
                return attr
    return None


def path_of(table: GMTargets, typed: str, document: Mapping[str, Any]) -> str:
    """The English path of the target ``typed``; ``gm.target_unknown`` (the targets listed) for one
    that names no target. A name the battle does not have is left for the engine to refuse (with a
    near name suggested)."""
    text = unicodedata.normalize("NFKC", typed).strip()
    whole = _whole(table, text)
    if whole is not None:
        return whole
    name, dot, word = text.rpartition(".")
    if dot and name:
        attr = _attr(table, word)
        explicit = [o for o in table.owners if o.head and fold(name).startswith(fold(o.head))]
        if explicit:
            owner = explicit[0]
            own = name[len(owner.head) :]
            if attr in owner.attrs or owner.free:
                return f"{owner.head}{own}.{attr if attr in owner.attrs else word}"
        else:
            known = [o for o in table.owners if fold(name) in {fold(n) for n in o.names(document)}]
            for owner in known or table.owners:
                if attr in owner.attrs or (owner.free and known):
                    return f"{owner.head}{name}.{attr if attr in owner.attrs else word}"
    raise UserError("gm.target_unknown", target=typed, targets=TargetList(table, _fills(table, document)))


def builder(cls: type[Any], table: GMTargets) -> Builder:
    """The ``/gm set`` builder of a rule set whose engine command ``cls`` takes ``target`` (its English
    path, read from what was typed) and ``value``, and ``typed`` (the target as typed, which a refusal
    echoes)."""

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        typed = str(values["target"])
        document = ctx.document() if ctx.document is not None else {}
        return cls(target=path_of(table, typed, document), value=values["value"], typed=typed)

    return build


# --- the targets in the reader's words --------------------------------------------------------------


def _fills(table: GMTargets, document: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((k, tuple(v)) for k, v in table.fills(document).items())


def _filled(form: str, fills: Mapping[str, Sequence[str]]) -> list[str]:
    """``form`` with each of its placeholders' values (none: it is left out)."""
    names = _PLACEHOLDER.findall(form)
    if not names:
        return [form]
    out: list[str] = []
    for value in fills.get(names[0], ()):
        out += _filled(form.replace("{" + names[0] + "}", str(value)), fills)
    return out


def words(table: GMTargets, path: str, lang: str) -> str:
    """The path ``path`` in the words the reader types (``unit.ゴブリン隊.hp`` → ``ゴブリン隊.HP``);
    one this table does not know, as it is."""
    for whole in table.whole:
        found = _pattern(whole).fullmatch(path)
        if found is not None:
            return table.form(whole, lang).format(**found.groupdict())
    name, _, attr = path.rpartition(".")
    for owner in table.owners:
        if name and name.startswith(owner.head) and attr in owner.attrs:
            return _owned(table, owner, name[len(owner.head) :], attr, lang)
    return path


def _owned(table: GMTargets, owner: Owner, name: str, attr: str, lang: str | None) -> str:
    """A character's target in the words of ``lang`` (None: its English path): ``ゴブリン隊.HP``,
    ``unit.ゴブリン隊.hp``; ``attr`` is an attribute's English name."""
    return _owned_text(table, owner, name, attr if lang is None else table.attr_word(attr, lang), lang)


def _owned_text(table: GMTargets, owner: Owner, name: str, attr: str, lang: str | None) -> str:
    """``<key>owned.<kind>`` of ``lang`` (``{name}.{attr}``) filled in; the English path's shape when
    ``lang`` is None or has none."""
    path = owner.head + "{name}.{attr}"
    pattern = path if lang is None else catalogue(lang).get(f"{table.key}owned.{owner.kind}", path)
    return fill(pattern, {"name": name, "attr": attr})


def offered(table: GMTargets, document: Mapping[str, Any], lang: str) -> list[str]:
    """The targets of the battle ``document`` autocomplete offers, in the words of ``lang``, then by
    their English paths (which anyone may type: ``unit.ゴブ`` finds ``unit.ゴブリン隊.hp``)."""
    return list(dict.fromkeys(_offered(table, document, lang) + _offered(table, document, None)))


def _offered(table: GMTargets, document: Mapping[str, Any], lang: str | None) -> list[str]:
    """``offered`` in the words of ``lang`` (None: the English paths)."""
    fills = table.fills(document)
    forms = table.whole if lang is None else tuple(table.form(path, lang) for path in table.whole)
    out = [w for form in forms for w in _filled(form, fills)]
    for owner in table.owners:
        for element in owner.elements(document):
            attrs = owner.attrs if owner.offered is None else owner.offered(element)
            out += [_owned(table, owner, str(element["name"]), attr, lang) for attr in attrs]
    return out


@dataclass(frozen=True, slots=True, eq=False)
class TargetList(Named):
    """A refusal's list of targets in the reader's words: the battle's own (``砦HP、大砲1.砲弾``), then
    each kind's (``<ユニット名>.HP・最大HP・エリア…``)."""

    table: GMTargets
    fills: tuple[tuple[str, tuple[str, ...]], ...]

    def text(self, lang: str) -> str:
        table, fills = self.table, dict(self.fills)
        shown = [w for path in table.whole for w in _filled(table.form(path, lang), fills)]
        for owner in table.owners:
            who = t(f"{table.key}owner.{owner.kind}", lang)
            attrs = t("gm.target_attrs_sep", lang).join(table.attr_word(a, lang) for a in owner.attrs)
            shown.append(_owned_text(table, owner, who, attrs, lang))
        return t("render.list_sep", lang).join(dict.fromkeys(shown))


def completes(path: str, option: str) -> bool:
    """Is ``option`` of the command ``path`` a ``/gm set`` target (completed from ``offered``)?"""
    return path == "gm set" and option == "target"
