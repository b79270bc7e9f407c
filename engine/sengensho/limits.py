"""The limits of COMMANDS.md (``engine.limits``) over a whole 千幻抄 battle: what an import must keep.

``/sg join`` meets the same limits one character at a time (``core.join``).
"""

from __future__ import annotations

from engine import limits
from engine.sengensho.export import export_state
from engine.sengensho.state import SengenshoState


def check_state(state: SengenshoState) -> None:
    """Title, number of characters, names and numbers within the limits; ``LimitError`` if not."""
    limits.check_text("title", state.title)
    # S-HIDE-1: as /sg join counts them, the visible and the hidden apart (core.seen_count)
    limits.check_count("characters", sum(1 for c in state.characters if not c.hidden), limits.MAX_CHARACTERS)
    limits.check_count("characters", sum(1 for c in state.characters if c.hidden), 2 * limits.MAX_CHARACTERS)
    for character in state.characters:
        limits.check_name(character.name)
    limits.check_numbers(export_state(state))
