"""FILE written whole or not at all: a save killed at any moment, or stopped by a full disk, leaves the
old file or the new one, never a fragment (issue 34, item 1)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


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
