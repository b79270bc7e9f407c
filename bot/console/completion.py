"""Tab completion for the console's terminal (prompt_toolkit): imported only when a terminal prompt is
built, so a console on a pipe, and every other tool, never loads prompt_toolkit."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

if TYPE_CHECKING:
    from bot.commands import CommandSpec, Option

# the command table, its names and the battle's names are imported by the first completion, once the
# session has loaded them (``ready``), not with the prompt


class CommandCompleter(Completer):
    """Completes ``/group sub`` from the command table, then its option names and choices, and the values
    the battle has: unit, PC and commander names, areas, edges (its rule set's ``RuleSet.names``).

    ``battle`` gives the channel's battle as its document (None: no battle yet); the session keeps it
    fresh after each line, so completion never waits for the database."""

    def __init__(
        self,
        battle: Callable[[], Mapping[str, Any] | None] = lambda: None,
        ready: Callable[[], bool] = lambda: True,
        lang: str = "ja",
    ) -> None:
        self.battle = battle
        #: the reader's language: ``/gm set``'s targets are offered in its words
        self.lang = lang
        #: False while the session still loads in the background: nothing is completed then, so the
        #: prompt never imports the rule sets beside the loading thread (``bot.console.app``)
        self.ready = ready

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        if not self.ready():
            return
        from bot.commands import norm_word
        from bot.registry import rulesets

        text = document.text_before_cursor
        if text.startswith("@"):
            _, _, text = text.partition(" ")
        table = rulesets().table
        word = document.get_word_before_cursor(WORD=True)
        if not text.startswith("/"):
            return
        head = text[1:]
        spec = None
        for path in sorted(table.specs, key=len, reverse=True):
            if head.startswith(path + " "):
                spec = table[path]
                break
        if spec is None and (head.endswith(" ") or " " in head.strip()):
            # the Japanese names Discord shows (``/部隊 移動 部隊:``)
            words = table.command_words([norm_word(w) for w in head.split() if ":" not in w][:2])
            for size in (2, 1):
                if " ".join(words[:size]) in table:
                    spec = table[" ".join(words[:size])]
                    break
        if spec is None:
            for path in sorted(table.specs):
                if path.startswith(norm_word(head)):
                    yield Completion("/" + path + " ", start_position=-len(text))
            return
        if ":" in word:
            name, _, value = word.partition(":")
            opt = spec.option(table.option_word(spec, norm_word(name)))
            if opt is not None:
                for choice in self._values(spec, opt, text):
                    if norm_word(choice).startswith(norm_word(value.strip('"'))):
                        shown = f'"{choice}"' if any(c.isspace() for c in choice) else choice
                        yield Completion(f"{name}:{shown}", start_position=-len(word))
            return
        used = {part.partition(":")[0] for part in text.split() if ":" in part}
        for opt in spec.options:
            if opt.name not in used and opt.name.startswith(word):
                yield Completion(opt.name + ":", start_position=-len(word))

    def _values(self, spec: CommandSpec, opt: Option, text: str) -> list[str]:
        """What the option takes: its choices, true/false, or the battle's names of its kind."""
        from bot import gm_targets
        from bot.commands import OptType, norm_word
        from bot.registry import rulesets

        if opt.choices:
            return list(opt.choices)
        if opt.type is OptType.BOOL:
            return ["true", "false"]
        doc = self.battle()
        ruleset = None if doc is None else rulesets().by_format(str(doc.get("format", "")))
        if doc is not None and ruleset is not None and gm_targets.completes(spec.path, opt.name):
            targets = ruleset.gm_targets
            return [] if targets is None else gm_targets.offered(targets, doc, self.lang)
        if doc is None or ruleset is None or ruleset.names is None:
            return []
        kind = ruleset.names.completion(spec, opt)
        if kind is None:
            return []
        typed = {}
        table = rulesets().table
        for part in text.split():
            key, sep, value = part.partition(":")
            if sep:
                typed[table.option_word(spec, norm_word(key))] = value
        return list(dict.fromkeys(ruleset.names.candidates(doc, kind, spec, typed)))
