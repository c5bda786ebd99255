"""A throw-away PostgreSQL server for tests and benchmarks: a real cluster, never a mock.

:class:`PostgresServer` runs ``initdb`` in a temporary folder, starts ``postgres`` on a free port of 127.0.0.1
with its unix socket in that folder, and removes everything when stopped. The server binaries come from
``LANGCHAIN_GRAALVM_PG_BIN`` or the newest ``/usr/lib/postgresql/*/bin`` (the Debian ``postgresql`` package,
which ``scripts/setup.sh`` installs). PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` system user (which the Debian package creates) and every server command runs through ``runuser``.

Failing to start raises :class:`PostgresUnavailable` with the server's log: the tests that need PostgreSQL fail,
they are never skipped.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

# Settings for a disposable cluster. The server notices a client that died in the middle of a statement within a
# quarter second; the defaults (durable commits, fsync) stay, so measured figures include the real commit cost.
_SERVER_OPTIONS = (
    "-c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=64MB "
    "-c client_connection_check_interval=250ms -c log_min_messages=warning"
)


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server could not be started; the message says why."""


def _bin_dir() -> Path:
    explicit = os.environ.get("LANGCHAIN_GRAALVM_PG_BIN")
    candidates = [explicit] if explicit else sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_major, reverse=True)
    for candidate in candidates:
        if candidate and (Path(candidate) / "initdb").is_file():
            return Path(candidate)
    raise PostgresUnavailable(
        "no PostgreSQL server binaries found (looked at LANGCHAIN_GRAALVM_PG_BIN and /usr/lib/postgresql/*/bin); "
        "install them with `apt-get install -y postgresql` (scripts/setup.sh does this)"
    )


def _major(path: str) -> int:
    name = Path(path).parent.name
    return int(name) if name.isdigit() else 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder; use as a context manager or call start() and stop()."""

    def __init__(self, database: str = "langgraph") -> None:
        self.database = database
        self.bin = _bin_dir()
        self.port = 0
        self.root: Path | None = None
        self._as_user: list[str] = []

    @property
    def dsn(self) -> str:
        """A libpq connection string for the test database, as the superuser ``postgres``."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.database}?sslmode=disable"

    def _run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self._as_user, *argv], capture_output=True, text=True, timeout=timeout, check=False, cwd="/"
        )

    def start(self) -> PostgresServer:
        self.root = Path(tempfile.mkdtemp(prefix="langchain-graalvm-pg-"))
        data = self.root / "data"
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise PostgresUnavailable("as root, the `postgres` system user must exist to own the cluster") from exc
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]
        init = self._run(
            str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"
        )
        if init.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        for _ in range(5):  # another process may take the free port between the probe and the bind
            self.port = _free_port()
            options = f"{_SERVER_OPTIONS} -p {self.port} -k {self.root}"
            log = self.root / "server.log"
            started = self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
            if started.returncode == 0:
                break
        else:
            raise PostgresUnavailable(f"pg_ctl start failed: {started.stderr.strip()}\n{self.log_tail()}")
        created = self._run(
            str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", self.database
        )
        if created.returncode != 0:
            self.stop()
            raise PostgresUnavailable(f"createdb failed: {created.stderr.strip()}")
        return self

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log (empty when there is none)."""
        log = self.root / "server.log" if self.root else None
        return log.read_text(errors="replace")[-chars:] if log and log.exists() else ""

    def stop(self) -> None:
        """Stops the server (fast shutdown: open sessions are ended) and removes the cluster."""
        if self.root is None:
            return
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop", timeout=60)
        deadline = time.monotonic() + 10
        while (data / "postmaster.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        with contextlib.suppress(OSError):
            shutil.rmtree(self.root)
        self.root = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
