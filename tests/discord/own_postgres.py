"""A PostgreSQL server of the test's own (``initdb``, ``pg_ctl``), to stop and start under a running
bot. The server runs as the ``postgres`` user (PostgreSQL refuses to run as root) from a folder of its
own; every wait is bounded and the server is stopped at the end, on failure too."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bot_process import free_port

#: the user the server runs as when the tests run as root
USER = "postgres"


def available() -> bool:
    return shutil.which("initdb") is not None and shutil.which("pg_ctl") is not None


class OwnPostgres:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self._user = USER if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 120) -> None:
        subprocess.run(
            list(args), user=self._user, check=True, timeout=timeout, capture_output=True, cwd=self.folder
        )

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@contextlib.contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    folder = Path(tempfile.mkdtemp(prefix="toride-pg-"))
    if os.geteuid() == 0:
        entry = pwd.getpwnam(USER)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    server = OwnPostgres(folder)
    try:
        server.init()
        server.start()
        yield server
    finally:
        if server.running():
            with contextlib.suppress(subprocess.SubprocessError):
                server.stop()
        shutil.rmtree(folder, ignore_errors=True)
