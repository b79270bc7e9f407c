"""What the prep page needs of a rule set (``RuleSet.prep``): the data its page is built from (fields,
kinds of element, words), its map picture with the regions one clicks and drags to, its drafts made
from documents and checked as the bot checks them, units of a monster sheet, and the words for a
change between two versions. The page and the server hold no rule: a 千幻抄 or ``/battle`` prep page
costs a binding like this one, not server code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.commands.model import SheetSource


class Checked(Protocol):
    """A draft checked: its document (None while anything is refused), and the answer the page reads
    (``document``, ``refusals`` and ``notes`` by place, and ``drawable``: the valid part's document)."""

    @property
    def document(self) -> dict[str, Any] | None: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class PrepBinding:
    #: what the page is built from, in a language: ``fields`` (each form's fields), ``kinds`` (each
    #: list of elements: its title, its add button's words, its mark), ``words`` (the script's own)
    page_data: Callable[[str], dict[str, Any]]
    #: the picture of one of the map's marks the page's list shows (None: no such mark)
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
    #: the battlefield of a document as a PNG and its regions (``things``, ``more``, ``drops`` in the
    #: picture's pixels), in a language; None: the rule set draws none
    picture: Callable[[Mapping[str, Any], str], tuple[bytes, dict[str, Any]] | None]
    #: what changed from one document to another, in a language: short phrases (``ラウンド数 3→5``)
    changes: Callable[[Mapping[str, Any], Mapping[str, Any], str], list[str]]
    #: the command that takes the saved file into a battle (``fort import``): the page's next step
    import_command: str
    #: a saved file's name when the battle has no title
    file_stem: str
