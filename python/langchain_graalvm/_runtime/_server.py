"""The local sandbox server: one JVM per user that outlives its clients and keeps its engine warm.

``langchain-graalvm server start`` (or ``LANGCHAIN_GRAALVM_SERVER=auto`` with ``isolation="process"``) runs the
Java library's ``LocalServer`` in the background. It listens on a Unix-domain socket in a private folder
(``LANGCHAIN_GRAALVM_SERVER_DIR``, else ``server/`` in the package's cache dir; mode 0700, owned by the user) and
serves the worker protocol to each client process that connects, each a session of its own. It ends after
``LANGCHAIN_GRAALVM_SERVER_IDLE`` seconds (default 1800) without a session, or on ``server stop``.

A client uses a server only when: the folder is the user's own and no one else's to enter, the socket's peer runs
as the same user (the kernel's peer credentials), and the server's protocol and jar are this package's own (the
``hello`` handshake). Anything else is refused in one line and, with ``auto``, the interpreter falls back to this
process's private worker pool.

Unlike a private worker, the server is shared: its heap (``LANGCHAIN_GRAALVM_MAX_HEAP``) holds every session's
guests, so the memory limit is as approximate as in-process, and a guest stuck in a builtin keeps its core in the
server rather than being killed with a worker. A server that dies ends its sessions' evals with an error envelope;
the next interpreter starts or finds another.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import socket
import stat
import struct
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._settings import settings
from ..errors import JvmError
from . import _launch
from ._jvmfinder import pid_alive
from ._wire import PROTOCOL, START_DEADLINE_S, Connection, WorkerLost
from ._worker import worker_command

logger = logging.getLogger("langchain_graalvm")

_SOCKET_NAME = f"sandbox-p{PROTOCOL}.sock"


class ServerRefused(JvmError):
    """A server that this client must not use (its folder, its user, or its version); ``str()`` says why."""


def mode() -> str:
    """``LANGCHAIN_GRAALVM_SERVER``: ``"off"`` (default) or ``"auto"``."""
    return settings().server


def server_dir() -> Path:
    return settings().server_folder


def socket_path() -> Path:
    return server_dir() / _SOCKET_NAME


def idle_seconds() -> int:
    return settings().server_idle


def check_private(folder: Path) -> None:
    """Refuses a folder another user owns or may enter: its socket would not be ours alone."""
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise ServerRefused(f"the sandbox server folder {folder} is not a folder")
    if info.st_uid != os.getuid():
        raise ServerRefused(f"the sandbox server folder {folder} belongs to uid {info.st_uid}, not to this user")
    if info.st_mode & 0o077:
        raise ServerRefused(
            f"the sandbox server folder {folder} has mode {stat.S_IMODE(info.st_mode):04o}; it must be 0700"
        )


def _make_private(folder: Path) -> None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    check_private(folder)


def build_id() -> str:
    """The SHA-256 of this package's sandbox jar: what a server it may use must have been started from."""
    runtime = _launch.find_runtime_dir()
    jars = [p for p in _launch.classpath(runtime) if Path(p).name.startswith("langchain-graalvm-sandbox-")]
    if not jars:
        return "unknown"
    return hashlib.sha256(Path(jars[0]).read_bytes()).hexdigest()


# ------------------------------------------------------------------------------------------------ the connection


class ServerConnection(Connection):
    """This process's session with the local server (one socket, shared by this process's guests)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.label = f"the sandbox server at {path}"
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(str(path))
            pid, uid, _ = struct.unpack("3i", self._sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        except OSError:
            self._sock.close()
            raise
        if uid != os.getuid():
            self._sock.close()
            raise ServerRefused(f"the sandbox server at {path} runs as uid {uid}, not as this user")
        self.pid = int(pid)
        self._closed_by_us = False
        self._left_because: str | None = None
        threading.Thread(target=self._read, name=f"graalvm-server-{pid}", daemon=True).start()

    def hello(self) -> dict[str, Any]:
        """The server's handshake; refuses a server of another protocol or build."""
        answer = super().hello()
        mismatch = []
        if answer.get("protocol") != PROTOCOL:
            mismatch.append(f"protocol {answer.get('protocol')!r}, this package {PROTOCOL}")
        if answer.get("build") != build_id():
            mismatch.append("it runs another build of the sandbox jar")
        if mismatch:
            self.close()
            raise ServerRefused(
                f"the sandbox server at {self.path} (pid {self.pid}) is not this package's: {'; '.join(mismatch)}. "
                "Stop it with `langchain-graalvm server stop`"
            )
        return answer

    def close(self) -> None:
        self._closed_by_us = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()

    def _send_bytes(self, data: bytes) -> None:
        self._sock.sendall(data)

    def _ended(self) -> None:
        self._sock.close()

    def _recv(self) -> bytes:
        try:
            return self._sock.recv(1 << 16)
        except OSError:
            return b""

    def _missed_deadline(self, why: str) -> None:
        self._left_because = why
        self.close()  # the server is shared: this session ends, the server is not ours to kill

    def _describe_loss(self) -> str:
        if self._left_because is not None:
            return f"{self.label} (pid {self.pid}) was left because {self._left_because}"
        if self._closed_by_us:
            return f"{self.label} (pid {self.pid}) was disconnected"
        return f"{self.label} (pid {self.pid}) closed the connection (it stopped or crashed)"


_connection: ServerConnection | None = None
_connection_pid = 0
_lock = threading.Lock()


def connection() -> ServerConnection | None:
    """This process's session with the server when ``LANGCHAIN_GRAALVM_SERVER=auto``: a running server of this
    package, else one started now. None when the server is off, or refused (said once in a warning)."""
    global _connection, _connection_pid
    if mode() == "off":
        return None
    with _lock:
        if _connection is not None and _connection_pid == os.getpid() and _connection.alive:
            return _connection
        try:
            _connection = attach(start=True)
        except (ServerRefused, JvmError, OSError) as exc:
            logger.warning("langchain-graalvm: not using the sandbox server, using private workers: %s", exc)
            _connection = None
        _connection_pid = os.getpid()
        return _connection


def attach(*, start: bool) -> ServerConnection:
    """A session with the running server; with ``start``, a server is started first when none answers."""
    folder = server_dir()
    _make_private(folder)
    path = folder / _SOCKET_NAME
    try:
        return _greeted(ServerConnection(path))
    except (FileNotFoundError, ConnectionRefusedError, WorkerLost):
        if not start:
            raise
    with _start_lock(folder):
        try:
            return _greeted(ServerConnection(path))  # another process started one meanwhile
        except (FileNotFoundError, ConnectionRefusedError, WorkerLost):
            _spawn(path, idle_seconds())
            return _greeted(_wait_for(path))


def _greeted(conn: ServerConnection) -> ServerConnection:
    try:
        conn.hello()
    except BaseException:
        conn.close()
        raise
    return conn


@contextlib.contextmanager
def _start_lock(folder: Path) -> Iterator[None]:
    with open(folder / "start.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _spawn(path: Path, idle_s: int) -> int:
    """Starts a server in the background, detached from this process; returns its pid."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # a dead server's socket: nothing accepts on it (the start lock is held)
    command = worker_command(settings().max_heap)
    command += ["--listen", str(path), "--idle-exit", str(idle_s)]
    log = open(path.parent / "server.log", "ab")  # noqa: SIM115 - handed to the child, closed here after
    try:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env={},
            close_fds=True,
            start_new_session=True,
        )
    finally:
        log.close()
    (path.parent / "server.pid").write_text(str(proc.pid))
    threading.Thread(target=proc.wait, daemon=True).start()  # reaps it, should it end while this process runs
    return proc.pid


def _wait_for(path: Path) -> ServerConnection:
    deadline = time.monotonic() + START_DEADLINE_S
    while True:
        try:
            return ServerConnection(path)
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise JvmError(
                    f"the sandbox server did not listen on {path} within {START_DEADLINE_S:.0f} s; "
                    f"see {path.parent / 'server.log'}"
                ) from None
            time.sleep(0.05)


# ------------------------------------------------------------------------------------------------ the CLI's verbs


def start() -> dict[str, Any]:
    """Starts a server unless one of this package runs; its facts."""
    conn = attach(start=True)
    try:
        return conn.facts()
    finally:
        conn.close()


def status() -> dict[str, Any] | None:
    """The running server's facts, or None when none runs."""
    try:
        conn = attach(start=False)
    except (FileNotFoundError, ConnectionRefusedError, WorkerLost):
        return None
    try:
        return conn.facts()
    finally:
        conn.close()


def stop() -> int | None:
    """Stops the running server; its pid, or None when none ran. A server of another build is stopped too."""
    folder = server_dir()
    _make_private(folder)
    try:
        conn = ServerConnection(folder / _SOCKET_NAME)
    except (FileNotFoundError, ConnectionRefusedError):
        return None
    pid = conn.pid
    try:
        conn.shutdown()
    except WorkerLost:
        pass
    finally:
        conn.close()
    deadline = time.monotonic() + 30
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pid
