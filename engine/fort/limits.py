"""The limits of COMMANDS.md (``engine.limits``) over a whole fort battle: what an import must keep.

Commands meet the same limits one at a time (``rules_roster``, ``rules_equipment``); an imported
document is read first (``export.import_state``, which also reads battles stored before these
limits existed) and then held to them here.
"""

from __future__ import annotations

from engine import limits
from engine.fort.export import export_state
from engine.fort.state import FortState


def check_state(state: FortState) -> None:
    """Counts, names, title and numbers of ``state`` within the limits; ``LimitError`` if not."""
    limits.check_text("title", state.title)
    limits.check_count("pcs", len(state.pcs), limits.MAX_PCS)
    limits.check_count("units", len(state.units), limits.MAX_UNITS)
    limits.check_count("commanders", len(state.commanders), limits.MAX_COMMANDERS)
    limits.check_count("traps", len(state.traps), limits.MAX_TRAPS)
    limits.check_count("cannons", len(state.cannons), limits.MAX_CANNONS)
    names = [p.name for p in state.pcs] + [u.name for u in state.units] + [c.name for c in state.commanders]
    for name in names:
        limits.check_name(name)
    texts = [("bolt", state.ballista.bolt)]
    texts += [("weakness", u.weakness) for u in state.units] + [("horn", c.horn) for c in state.commanders]
    for what, text in texts:
        if text is not None:
            limits.check_text(what, text)
    limits.check_numbers(export_state(state))
