"""What changed between two versions of a fort battle's file, as short phrases in a language: the page
names the other tab's change when it refuses a stale save (``PrepBinding.changes``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t

#: the settings compared, each with the words of its change (``prep.change.<key>``)
_SETTINGS = ("title", "rounds", "round", "first")
_LISTS = ("pcs", "units", "commanders", "traps")
#: at most this many names of one kind of change (then "and N more")
NAMES = 5


def _fort(doc: Mapping[str, Any], key: str) -> Any:
    fort = doc.get("fort")
    return fort.get(key) if isinstance(fort, Mapping) else None


def _label(kind: str, element: Mapping[str, Any], lang: str) -> str:
    if kind == "traps":
        return t("prep.change.trap", lang, kind=t(f"value.kind.{element.get('kind')}", lang),
                 edge=str(element.get("edge", "")))  # fmt: skip
    return str(element.get("name", ""))


def _elements(doc: Mapping[str, Any], kind: str, lang: str) -> dict[str, Mapping[str, Any]]:
    items = doc.get(kind)
    out: dict[str, Mapping[str, Any]] = {}
    for element in items if isinstance(items, list) else []:
        if isinstance(element, Mapping):
            label = _label(kind, element, lang)
            n, unique = 2, label
            while unique in out:
                unique, n = f"{label}#{n}", n + 1
            out[unique] = element
    return out


def _names(names: list[str], lang: str) -> str:
    shown = t("prep.stale.join", lang).join(names[:NAMES])
    if len(names) > NAMES:
        shown += t("prep.change.and_more", lang, n=len(names) - NAMES)
    return shown


def _normal(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """A document as ``/fort import`` reads it and ``/fort export`` writes it (what it leaves out is
    its default), so a prepared file and its save compare alike; one the import refuses, as it is."""
    from engine.errors import EngineError
    from engine.fort.export import export_state, import_state

    try:
        return export_state(import_state(doc))
    except EngineError:
        return doc


def changes(before: Mapping[str, Any], after: Mapping[str, Any], lang: str) -> list[str]:
    """``ラウンド数 3→5``, ``ゴブリン2を加えた`` ...: each setting changed, then what was added, removed or
    changed of each list, in that order; empty when the two battles are the same."""
    before, after = _normal(before), _normal(after)
    out: list[str] = []
    for key in _SETTINGS:
        old, new = before.get(key), after.get(key)
        if old != new:
            out.append(t(f"prep.change.{key}", lang, old=_shown(old), new=_shown(new)))
    for key in ("max_hp", "hp"):
        old, new = _fort(before, key), _fort(after, key)
        if old != new:
            out.append(t(f"prep.change.fort_{key}", lang, old=_shown(old), new=_shown(new)))
    old_cannons, new_cannons = before.get("cannons"), after.get("cannons")
    if old_cannons != new_cannons:
        out.append(t("prep.change.cannons", lang))
    if before.get("ballista") != after.get("ballista"):
        out.append(t("prep.change.ballista", lang))
    for kind in _LISTS:
        old, new = _elements(before, kind, lang), _elements(after, kind, lang)
        added = [name for name in new if name not in old]
        removed = [name for name in old if name not in new]
        edited = [name for name in new if name in old and new[name] != old[name]]
        for what, names in (("added", added), ("removed", removed), ("edited", edited)):
            if names:
                out.append(t(f"prep.change.{what}", lang, names=_names(names, lang)))
    return out


def _shown(value: Any) -> str:
    return "" if value is None else str(value)
