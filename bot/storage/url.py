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


def _userinfo(url: str) -> tuple[str, str, str] | None:
    """``scheme://user``, the password and ``@host...`` of ``url``; None: it has no password there.
    Read by hand (not ``urllib``), so a URL that does not parse still has its password found."""
    scheme, sep, rest = url.partition("://")
    at = rest.rfind("@")
    if not sep or at < 0 or ":" not in rest[:at]:
        return None
    user, _, password = rest[:at].partition(":")
    if not password:
        return None
    return f"{scheme}://{user}", password, rest[at:]


def _is_secret(name: str) -> bool:
    """A query parameter that holds a password (``password``, ``sslpassword``, ...)."""
    return "password" in unquote(name).casefold()


def _secrets(url: str) -> list[str]:
    """The passwords written in ``url``: in its userinfo and in its query (``?password=...``)."""
    found = []
    parts = _userinfo(url)
    if parts is not None:
        found.append(parts[1])
    _, _, query = url.partition("?")
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        if equals and value and _is_secret(name):
            found.append(value)
    return found


def _shown(url: str) -> str:
    parts = _userinfo(url)
    if parts is not None:
        url = f"{parts[0]}:{HIDDEN}{parts[2]}"
    base, question, query = url.partition("?")
    if not question:
        return url
    pairs = []
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        pairs.append(f"{name}={HIDDEN}" if equals and value and _is_secret(name) else pair)
    return f"{base}?{'&'.join(pairs)}"


def shown_url(explicit: str | None = None) -> str:
    """The database URL (as ``database_url`` finds it) with each password replaced by ``***``: the
    userinfo's and any in its query (``?password=...``)."""
    return _shown(database_url(explicit))


def without_secrets(text: str, explicit: str | None = None) -> str:
    """``text`` (an error's message, a log line) with the database URL's passwords taken out, written
    as in the URL or decoded, and the whole URL shown as ``shown_url``."""
    url = database_url(explicit)
    secrets = _secrets(url)
    if not secrets:
        return text
    text = text.replace(url, _shown(url))
    for secret in sorted({s for found in secrets for s in (found, unquote(found))}, key=len, reverse=True):
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
