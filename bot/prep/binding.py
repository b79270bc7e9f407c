"""What the prep page needs of a rule set (``RuleSet.prep``): its page and the page's marks, its drafts
made from documents, checked as the bot checks them, and units of a monster sheet. The page's picture
and its planner are the rule set's own (``RuleSet.pictures``, ``RuleSet.planner``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.commands.model import SheetSource


class Checked(Protocol):
    """A draft checked: its document (None while anything is refused), and the answer the page reads."""

    @property
    def document(self) -> dict[str, Any] | None: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class PrepBinding:
    #: the page's HTML in a language
    html_page: Callable[[str], str]
    #: the picture of one of the map's marks the page's rows show (None: no such mark)
    mark_png: Callable[[str], bytes | None]
    #: a new battle's document
    new_document: Callable[[], dict[str, Any]]
    #: the battle of a document as the rule set's import takes it (refusing it as the import would)
    imported: Callable[[Mapping[str, Any]], Any]
    #: a document's draft: the forms the page shows of it
    forms_of: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: a battle's draft, from its state (as its export writes it)
    draft_of: Callable[[Any], dict[str, Any]]
    #: a draft checked as the bot checks it, in a language
    check: Callable[[Mapping[str, Any], str], Checked]
    #: the answer to a monster sheet (``source``) made units of the form ``form`` in the battle of
    #: ``draft``, in a language: the page's JSON
    sheet: Callable[[SheetSource, Mapping[str, Any], Mapping[str, Any], str], dict[str, Any]]
