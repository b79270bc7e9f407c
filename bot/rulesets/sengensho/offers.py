"""What a ``/sg attack`` reply offers (``TextBinding.offers``): the defender's answers as buttons (回避
0–3D, ガード, 受ける, each with what it costs, within what a surprise allows), and once the target
would fall to 0 HP the attacker's mercy (S-MERCY-1). Each runs ``/sg answer`` as its presser: the
command's own rights decide (the defender's owner, the attacker's for mercy, or a GM)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.views import Awaited, Offer
from engine.ruleset import Event
from engine.sengensho.items import MERCY_CHOICES

PATH = "sg answer"
#: the console's line for an offer
CONSOLE = "sg.offer.console"


def _defence(number: int, defence: str, dice: int, auto: bool) -> Offer:
    options: dict[str, Any] = {"exchange": number, "defence": defence}
    if defence != "take":
        options["dice"] = dice
    if defence == "take":
        key = "sg.offer.take"
    elif auto:
        key = "sg.offer.auto"
    else:
        key = "sg.offer.defence" if dice else "sg.offer.defence_free"
    return Offer(PATH, options, key, {"defence": defence, "dice": dice}, console=CONSOLE)


def _mercy(number: int) -> tuple[Offer, ...]:
    """S-MERCY-1: unconscious, HP 1 and incapacitated, or neither (last)."""
    return tuple(
        Offer(PATH, {"exchange": number, "mercy": m}, "sg.offer.mercy", {"mercy": m}, console=CONSOLE)
        for m in (*MERCY_CHOICES[1:], MERCY_CHOICES[0])
    )


def offers(events: Sequence[Event]) -> tuple[Offer, ...]:
    """The answers the events of one reply wait for (the last exchange asked, or its mercy)."""
    found: list[Offer] = []
    for event in events:
        d = event.data
        if event.kind == "sg.answer_awaited":
            choices = [(str(c[0]), int(c[1])) for c in d["choices"]]
            auto = d.get("surprise") == "S-SUR-2" and choices == [("evasion", 0), ("take", 0)]
            found = [_defence(int(d["number"]), defence, dice, auto) for defence, dice in choices]
        elif event.kind == "sg.mercy_awaited":
            found = list(_mercy(int(d["number"])))
        elif event.kind in ("sg.exchange_missed", "sg.damaged") and found:
            found = []  # answered within the same reply (the GM side by itself)
    return tuple(found)


def _exchange_offers(x: Mapping[str, Any]) -> tuple[Offer, ...]:
    number = int(x["number"])
    if x.get("mercy") is not None:
        return _mercy(number)
    choices = [(str(c[0]), int(c[1])) for c in x.get("choices") or []]
    return tuple(_defence(number, defence, dice, False) for defence, dice in choices)


def awaiting(document: Mapping[str, Any]) -> tuple[Awaited, ...]:
    """``/sg attack``: each answer (or, at 0 HP, the attacker's mercy) the battle waits for, from whom."""
    owners = {c.get("name"): c.get("owner") for c in document.get("characters") or []}
    found = []
    for x in document.get("exchanges") or []:
        mercy = x.get("mercy") is not None
        waits = x["attacker"] if mercy else x["defender"]
        found.append(
            Awaited(
                key=f"{x['number']}:{'mercy' if mercy else 'answer'}",
                owner=owners.get(waits),
                text="sg.remind_mercy" if mercy else "sg.remind",
                values={
                    "number": x["number"],
                    "attacker": x["attacker"],
                    "name": x["aim"] if mercy else x["defender"],
                    "total": x["total"],
                },
                offers=_exchange_offers(x),
            )
        )
    return tuple(found)
