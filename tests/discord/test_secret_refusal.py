"""A secret roll's refusal stays with the roller: ``/roll expr:SK19r8@3sf4`` is refused in an
ephemeral message, and the channel sees nothing (not even the note that a secret roll was made)."""

from __future__ import annotations

import pytest
from discord_harness import ALICE, Dice, Harness

from bot.i18n import t


@pytest.mark.parametrize(
    ("expr", "key", "values"),
    [
        ("SK19r8@3sf4", "dice.infinite_critical", {"min_critical": 6}),
        ("SK101", "dice.keynumber_exceeds", {"key_max": 100}),
        ("S2D6@2", "dice.transcendent_critical_too_small", {"expression": "2D6@2", "minimum": 3}),
    ],
)
@pytest.mark.parametrize("secret", [False, True])
async def test_a_secret_commands_refusal_is_the_rollers_alone(
    harness: Harness, dice: Dice, expr: str, key: str, values: dict[str, object], secret: bool
) -> None:
    result = await harness.run(ALICE, "roll", expr=expr, secret=secret)
    assert result.response.type == 4 and result.ephemeral
    (embed,) = result.embeds
    assert embed["description"] == "⚠ " + t(key, "en", **values)
    assert result.followups == [] and result.channel == []
