"""The tables as the statements use them (SQLAlchemy Core, the same on every database), and the JSON
text the document and log columns hold."""

from __future__ import annotations

import json
from typing import Any, cast

from sqlalchemy import Table

from bot.storage.docpatch import Encoded
from bot.storage.models import (
    Battle,
    BattleEvent,
    BattleGM,
    ChannelSettings,
    GuildSettings,
    SecretRoll,
    UserSheet,
)

battles = cast(Table, Battle.__table__)
events = cast(Table, BattleEvent.__table__)
gms = cast(Table, BattleGM.__table__)
settings = cast(Table, GuildSettings.__table__)
channel_settings = cast(Table, ChannelSettings.__table__)
secret_rolls = cast(Table, SecretRoll.__table__)
user_sheets = cast(Table, UserSheet.__table__)


def dumps(value: Any) -> str:
    """JSON text as every column holds it: compact, and not escaping what is not ASCII."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def document_text(state: dict[str, Any] | Encoded) -> str:
    """A battle's document as its column holds it (an encoded one as it was serialised)."""
    return state.text if isinstance(state, Encoded) else dumps(state)
