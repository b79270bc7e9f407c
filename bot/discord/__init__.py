"""The Discord front-end: slash commands generated from ``bot.commands``, embeds from views.

Thin by design (ARCHITECTURE.md): an interaction becomes a ``BattleService.execute`` call and the
view it answers becomes embeds. Nothing here knows a rule; what a rule set's battle looks like in
Discord (its status embed, name completion, the status buttons) is registered per rule set in
``bot.discord.presenters``.
"""
