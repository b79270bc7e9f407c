"""Why the database could not be opened, as one line in the reader's language (``toride console``,
``toride db``, ``toride run``): what ``bot.storage.failures.unopened`` says, or the error's first line
without the database's password; never a traceback."""

from __future__ import annotations

from bot.i18n import t
from bot.storage.failures import unopened
from bot.storage.url import without_secrets


def unopened_text(error: BaseException, db: str | None, lang: str) -> str | None:
    """Why the database ``db`` could not be opened, in words; None: not a database's error (a bug,
    shown as one)."""
    from sqlalchemy.exc import SQLAlchemyError

    found = unopened(error, db)
    if found is not None:
        key, values = found
        return without_secrets(t(key, lang, **values), db)
    if isinstance(error, SQLAlchemyError | OSError | ValueError):  # ValueError: a URL that does not parse
        return without_secrets(str(error).splitlines()[0], db)
    return None
