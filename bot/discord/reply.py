"""What a reply to an interaction sends: messages of embeds, how, and the file they show."""

from __future__ import annotations

from dataclasses import dataclass, field

import discord


@dataclass
class Reply:
    """What to send: messages of embeds (the first is the response), and how."""

    messages: list[list[discord.Embed]]
    ephemeral: bool = False
    file: discord.File | None = None
    #: a public message after an ephemeral reply (the note that a secret roll was made)
    notice: list[discord.Embed] = field(default_factory=list)
    #: did the command change the battle (the live status message is due an edit)?
    changed: bool = False
    #: what only the invoker may read beside it (``View.private``): sent as ephemeral follow-ups
    private: list[list[discord.Embed]] = field(default_factory=list)
    #: buttons under the first message (``View.offers``)
    view: discord.ui.View | None = None

    @property
    def embeds(self) -> list[discord.Embed]:
        return [e for m in self.messages for e in m]
