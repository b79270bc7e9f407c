"""Secret rolls in words (``/roll secrets``, ``/roll reveal``, the roller's note of a kept roll), for the
console and, with its own ``time`` and escaping, Discord."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.i18n import t
from bot.views import PaletteRollView, RevealView, RollView, SecretRoll, SecretsView

#: how many kept rolls a list shows (the newest; a GM's list of 1,000 would not fit a message)
LIST_SHOWN = 25

Time = Callable[[datetime], str]
Escape = Callable[[str], str]


def local_time(at: datetime) -> str:
    """The console's: the machine's own time zone."""
    return at.astimezone().strftime("%Y-%m-%d %H:%M")


def _same(text: str) -> str:
    return text


def kept_lines(view: RollView | PaletteRollView, lang: str) -> list[str]:
    """The roller's lines under a kept secret roll: its number, how to reveal it, what was dropped."""
    if not view.secret or view.number is None:
        return []
    lines = [t("roll.secret_kept", lang, number=view.number)]
    if view.dropped:
        numbers = t("render.list_sep", lang).join(f"#{n}" for n in view.dropped)
        lines.append(t("roll.secret_dropped", lang, numbers=numbers))
    return lines


def roll_line(secret: SecretRoll, lang: str, time: Time, escape: Escape = _same, who: Escape = _same) -> str:
    """``#3 2026-12-03 08:55 はなこ: (2D6+5) ＞ 11[6,5]+5 ＞ 16  命中``."""
    roll = secret.roll
    values = {"number": secret.number, "time": time(secret.at), "actor": who(secret.roller)}
    if isinstance(roll, PaletteRollView):
        return t(
            "secrets.entry_palette", lang, **values, pc=escape(roll.pc), label=escape(roll.label),
            expanded=escape(roll.expanded), text=escape(roll.text),
        )  # fmt: skip
    text = f"{roll.text}  {roll.comment}" if roll.comment else roll.text
    return t("secrets.entry", lang, **values, text=escape(text))


def list_lines(
    view: SecretsView, lang: str, time: Time, escape: Escape = _same, who: Escape = _same
) -> list[str]:
    if not view.secrets:
        return [t("secrets.empty_all" if view.everyone else "secrets.empty_own", lang)]
    head = "secrets.header_all" if view.everyone else "secrets.header_own"
    shown = view.secrets[-LIST_SHOWN:]
    lines = [t(head, lang, count=len(view.secrets))]
    lines.extend(roll_line(s, lang, time, escape, who) for s in shown)
    if len(view.secrets) > len(shown):
        lines.append(t("secrets.more", lang, count=len(view.secrets) - len(shown)))
    return lines


def reveal_lines(
    view: RevealView, lang: str, time: Time, escape: Escape = _same, who: Escape = _same
) -> list[str]:
    secret = view.secret
    assert secret is not None
    values = {"number": secret.number, "time": time(secret.at), "actor": who(secret.roller)}
    if view.by == secret.roller:
        head = t("secrets.revealed_own", lang, **values)
    else:
        head = t("secrets.revealed", lang, **values, by=who(view.by))
    roll = secret.roll
    if isinstance(roll, PaletteRollView):
        body = t(
            "secrets.palette_body", lang, pc=escape(roll.pc), label=escape(roll.label),
            expanded=escape(roll.expanded), text=escape(roll.text),
        )  # fmt: skip
    else:
        body = escape(f"{roll.text}  {roll.comment}" if roll.comment else roll.text)
    return [head, body]
