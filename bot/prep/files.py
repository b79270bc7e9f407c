"""FILE read and written: read only when it is a regular file (a named pipe would wait for a writer
forever, a device would never end), at most the import limit (issue 34, "smaller holes"); written
whole or not at all: a save killed at any moment, or stopped by a full disk, leaves the old file or the
new one, never a fragment (issue 34, item 1)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from bot.render.common import os_error_word
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES

#: what a FILE that is not a regular file is, as the sentence that refuses it (``prep.file.*``)
_NOT_REGULAR = (
    (stat.S_ISDIR, "prep.file.folder"),
    (stat.S_ISFIFO, "prep.file.fifo"),
    (stat.S_ISCHR, "prep.file.device"),
    (stat.S_ISBLK, "prep.file.device"),
    (stat.S_ISSOCK, "prep.file.socket"),
)


def not_regular(path: Path, mode: int) -> EngineError | None:
    """Why a file of ``mode`` (``st_mode``) is not one to open as FILE (None: it is a regular file)."""
    if stat.S_ISREG(mode):
        return None
    key = next((key for test, key in _NOT_REGULAR if test(mode)), "prep.file.special")
    return EngineError(key, path=str(path))


def check_battle_file(path: Path) -> None:
    """``path`` may be given as FILE: it is a regular file (a link to one), or nothing is there yet
    (a save makes it). ``EngineError`` (``prep.file.*``): it is a folder, a named pipe, a device... Other
    reasons it cannot be read (no permission) are the page's to show, as they may change."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    refused = not_regular(path, mode)
    if refused is not None:
        raise refused


def read_battle_file(path: Path) -> bytes:
    """FILE's bytes, at most the import limit, never waiting: a named pipe, a device or a folder is
    refused (``prep.file.*``) before it is read, a file larger than the limit too
    (``command.json_too_large``); ``console.file_unreadable``: why it cannot be read."""
    check_battle_file(path)  # a device is not even opened (opening some does something)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise _unreadable(path, error) from None
    try:
        # what was opened, not what was there a moment before (it may have been replaced since)
        refused = not_regular(path, os.fstat(descriptor).st_mode)
        if refused is not None:
            raise refused
        with os.fdopen(descriptor, "rb") as file:
            descriptor = -1  # the file object closes it
            data = file.read(IMPORT_MAX_BYTES + 1)
    except OSError as error:
        raise _unreadable(path, error) from None
    finally:
        if descriptor >= 0:
            os.close(descriptor)
    if len(data) > IMPORT_MAX_BYTES:
        raise EngineError("command.json_too_large", option=str(path), max=IMPORT_MAX_BYTES // 1000)
    return data


def _unreadable(path: Path, error: OSError) -> EngineError:
    return EngineError("console.file_unreadable", path=str(path), error=os_error_word(error))


def write_atomic(path: Path, text: str) -> None:
    """``text`` (UTF-8) as ``path``'s new content: written beside it, flushed to the disk, then renamed
    over it, and the folder's entry flushed too. The old file's permissions are kept; on any error the
    temporary file is removed and ``path`` is as it was (the error is raised)."""
    data = text.encode("utf-8")
    folder = path.parent
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = None
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".saving", dir=folder)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """The rename made durable (where the system lets a folder be opened and flushed)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
