"""Commands as the bot reads them, split by concern:

- ``model``: what a command is (``CommandSpec``, ``Option``, ``Kind``, ``OptType``, builders, queries);
- ``values``: an option's value checked and typed (``convert``), in the reader's words when refused;
- ``usage``: a command's options as its reader types them (``/fort start rounds:<1-99> ...``);
- ``jsonread``: the hardened JSON reader for what users hand in;
- ``table``: the command table, its names in each language and its ``/help`` groups;
- ``generic``: the commands every battle has (``/roll``, ``/help``, ``/gm ...``), a rule set group's
  lifecycle commands, and ``engine_command`` (a rule set's command made from its engine class).

The one table of a process's commands is the registry's (``bot.registry``). This package re-exports
the names most modules use; its own modules import each other directly.
"""

from bot.commands.generic import (
    GENERIC,
    GENERIC_GROUPS,
    WITHIN,
    engine_command,
    ruleset_lifecycle,
)
from bot.commands.jsonread import JsonRefused, load_json, read_json
from bot.commands.model import (
    BuildContext,
    Builder,
    CommandSpec,
    Kind,
    Option,
    OptType,
    Query,
    QueryContext,
    SheetSource,
    UserError,
    extended,
    groups,
)
from bot.commands.table import CommandTable
from bot.commands.usage import Usage, usage
from bot.commands.values import convert, convert_value, nfkc, norm_word, option_words

__all__ = [
    "GENERIC",
    "GENERIC_GROUPS",
    "WITHIN",
    "BuildContext",
    "Builder",
    "CommandSpec",
    "CommandTable",
    "JsonRefused",
    "Kind",
    "OptType",
    "Option",
    "Query",
    "QueryContext",
    "SheetSource",
    "Usage",
    "UserError",
    "convert",
    "convert_value",
    "engine_command",
    "extended",
    "groups",
    "load_json",
    "nfkc",
    "norm_word",
    "option_words",
    "read_json",
    "ruleset_lifecycle",
    "usage",
]
