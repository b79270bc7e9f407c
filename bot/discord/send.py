"""A reply sent through an interaction: the response (or an edit of a deferred one) and the follow-ups,
each file with the message whose embed shows it, what only the invoker may read, and the public notice."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.reply import Reply

NO_MENTIONS = discord.AllowedMentions.none()


async def send(
    interaction: discord.Interaction,
    reply: Reply,
    *,
    deferred: bool,
    deferred_ephemeral: bool = False,
) -> None:
    """Send ``reply`` as the answer to ``interaction``: the first message as the response (an edit of
    it when ``deferred``; ``deferred_ephemeral``: the deferral was for the invoker alone), the rest as
    follow-ups, each file with the message whose embed shows it."""
    first, *rest = reply.messages
    extra: dict[str, Any] = {}
    buttons: dict[str, Any] = {} if reply.view is None else {"view": reply.view}
    shown_in = file_message(reply)
    if reply.file is not None and shown_in == 0:
        extra["file"] = reply.file
    if deferred and deferred_ephemeral:
        # deferred for the invoker alone: the answer is theirs; a public one (the command turned
        # out to reveal what it named) is sent to the channel besides
        files: dict[str, Any] = {"attachments": [reply.file]} if extra else {}
        await interaction.edit_original_response(
            embeds=first, allowed_mentions=NO_MENTIONS, **files, **buttons
        )
        if not reply.ephemeral:
            await interaction.followup.send(embeds=first, allowed_mentions=NO_MENTIONS, **extra, **buttons)
    elif deferred:
        if reply.ephemeral:
            # a deferred public "thinking" message cannot turn ephemeral: replace it
            await interaction.delete_original_response()
            await interaction.followup.send(
                embeds=first, ephemeral=True, allowed_mentions=NO_MENTIONS, **extra, **buttons
            )
        else:
            if extra:
                extra = {"attachments": [reply.file]}
            await interaction.edit_original_response(
                embeds=first, allowed_mentions=NO_MENTIONS, **extra, **buttons
            )
    else:
        await interaction.response.send_message(
            embeds=first, ephemeral=reply.ephemeral, allowed_mentions=NO_MENTIONS, **extra, **buttons
        )
    for n, embeds in enumerate(rest, 1):
        more: dict[str, Any] = {"file": reply.file} if reply.file is not None and n == shown_in else {}
        await interaction.followup.send(
            embeds=embeds, ephemeral=reply.ephemeral, allowed_mentions=NO_MENTIONS, **more
        )
    for embeds in reply.private:
        await interaction.followup.send(embeds=embeds, ephemeral=True, allowed_mentions=NO_MENTIONS)
    if reply.notice:
        await interaction.followup.send(embeds=reply.notice, allowed_mentions=NO_MENTIONS)


def file_message(reply: Reply) -> int:
    """Which of the reply's messages carries its file: the one whose embed shows it, else the first."""
    if reply.file is None:
        return 0
    shown = f"attachment://{reply.file.filename}"
    for n, embeds in enumerate(reply.messages):
        if any(embed.image.url == shown for embed in embeds):
            return n
    return 0
