"""Which database: the URL from the command line, the environment or the default file (no SQLAlchemy
here, so the console can name its database before the database library has loaded); and the URL as it
may be shown (``shown_url``, ``without_secrets``): never with its password, in an error, a log line,
the health endpoint or the console."""

from __future__ import annotations

import logging
import os
from urllib.parse import unquote

ENV_URL = "TORIDE_DATABASE_URL"
DEFAULT_FILE = "toride.db"
#: what a password is shown as
HIDDEN = "***"


def database_url(explicit: str | None = None) -> str:
    """``explicit``, else ``TORIDE_DATABASE_URL``, else a SQLite file in the working directory.

    A bare path (``battles.db``) is taken as a SQLite file.
    """
    url = explicit or os.environ.get(ENV_URL) or DEFAULT_FILE
    if "://" not in url:
        url = f"sqlite+aiosqlite:///{url}"
    return url


def _split(url: str) -> tuple[str, str, str] | None:
    """``scheme://user``, the password and ``@host...`` of ``url``; None: it has no password. Read by
    hand (not ``urllib``), so a URL that does not parse still has its password found."""
    scheme, sep, rest = url.partition("://")
    at = rest.rfind("@")
    if not sep or at < 0 or ":" not in rest[:at]:
        return None
    user, _, password = rest[:at].partition(":")
    if not password:
        return None
    return f"{scheme}://{user}", password, rest[at:]


def shown_url(explicit: str | None = None) -> str:
    """The database URL (as ``database_url`` finds it) with its password replaced by ``***``."""
    url = database_url(explicit)
    parts = _split(url)
    return url if parts is None else f"{parts[0]}:{HIDDEN}{parts[2]}"


def without_secrets(text: str, explicit: str | None = None) -> str:
    """``text`` (an error's message, a log line) with the database URL's password taken out, written
    as in the URL or decoded, and the whole URL shown as ``shown_url``."""
    url = database_url(explicit)
    parts = _split(url)
    if parts is None:
        return text
    text = text.replace(url, shown_url(explicit))
    for secret in {parts[1], unquote(parts[1])}:
        text = text.replace(secret, HIDDEN)
    return text


class SecretFilter(logging.Filter):
    """A log handler's filter: every record's message and traceback without the database's password."""

    def __init__(self, explicit: str | None = None) -> None:
        super().__init__()
        self.explicit = explicit

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info:
            message += "\n" + logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
            record.exc_text = None
        if record.stack_info:
            message += "\n" + record.stack_info
            record.stack_info = None
        record.msg, record.args = without_secrets(message, self.explicit), ()
        return True
