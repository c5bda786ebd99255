"""The local sandbox server: worker JVMs that outlive their clients, trained while idle, lent one per interpreter.

``LANGCHAIN_GRAALVM_SERVER=auto`` (or ``langchain-graalvm server start``) runs :mod:`._broker` in the background,
a Python process that starts, trains and lends worker JVMs and runs no guest code itself. It listens on a
Unix-domain socket in a private folder (``LANGCHAIN_GRAALVM_SERVER_DIR``, else ``server/`` in the package's cache
dir; mode 0700, owned by the user), and ends after ``LANGCHAIN_GRAALVM_SERVER_IDLE`` seconds (default 1800) without
a client, or on ``server stop``.

A client uses a server only when: the folder is the user's own and no one else's to enter, the socket's peer runs
as the same user (the kernel's peer credentials), and the server's protocol and jar are this package's own (the
``hello`` handshake). Anything else is refused in one line (a warning, once per process), and the process's
interpreters run in private workers instead.

Each interpreter leases a worker of its own (:class:`LeasedWorker`): the server hands over the worker's pipes and a
pidfd, so the interpreter speaks to the worker directly, as to a private worker, and kills it itself when it is
stuck or lost. The lease's connection stays open: closing the interpreter releases the worker (back to the server,
warm); a client that dies without a release has its worker killed and replaced by the server.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import hashlib
import json
import logging
import os
import socket
import stat
import struct
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._settings import settings
from ..errors import JvmError
from . import _launch
from ._jvmfinder import pid_alive
from ._pipes import PipeConnection
from ._wire import PROTOCOL, START_DEADLINE_S
from ._worker import how_it_exited, why_from_stderr

logger = logging.getLogger("langchain_graalvm")

BROKER_PROTOCOL = 2
"""The control protocol's version (1 was the sessions of a server that ran guests in its own JVM)."""
_SOCKET_NAME = f"sandbox-s{BROKER_PROTOCOL}.sock"
_LOG_TAIL = 16 * 1024


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
    info = Path(jars[0]).stat()
    return _hash(str(jars[0]), info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _hash(path: str, size: int, mtime_ns: int) -> str:  # noqa: ARG001 - the cache's key
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ------------------------------------------------------------------------------------------------ the control line


class Control:
    """A connection to the server: JSON lines, the lease's descriptors alongside its answer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(str(path))
            pid, uid, _ = struct.unpack("3i", self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        except OSError:
            self.sock.close()
            raise
        if uid != os.getuid():
            self.sock.close()
            raise ServerRefused(f"the sandbox server at {path} runs as uid {uid}, not as this user")
        self.pid = int(pid)
        self._buffer = b""
        self._lock = threading.Lock()

    def ask(self, message: dict[str, Any], *, timeout: float = 60.0) -> tuple[dict[str, Any], list[int]]:
        """Sends one request; its answer and the descriptors that came with it. Raises OSError when the server is
        gone or does not answer within ``timeout``, :class:`JvmError` when it answers with an error."""
        with self._lock:
            return self._ask(message, timeout)

    def _ask(self, message: dict[str, Any], timeout: float) -> tuple[dict[str, Any], list[int]]:
        self.sock.settimeout(timeout)
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        fds: list[int] = []
        while b"\n" not in self._buffer:
            data, more, _, _ = socket.recv_fds(self.sock, 1 << 16, 8)
            fds += more
            if not data:
                for fd in fds:
                    os.close(fd)
                raise ConnectionResetError(f"the sandbox server at {self.path} closed the connection")
            self._buffer += data
        line, self._buffer = self._buffer.split(b"\n", 1)
        answer = json.loads(line)
        if "error" in answer:
            for fd in fds:
                os.close(fd)
            raise JvmError(f"the sandbox server at {self.path} (pid {self.pid}): {answer['error']}")
        return answer, fds

    def hello(self) -> dict[str, Any]:
        """The server's handshake; refuses a server of another protocol or build."""
        answer, _ = self.ask({"op": "hello"}, timeout=START_DEADLINE_S)
        mismatch = []
        if answer.get("protocol") != BROKER_PROTOCOL or answer.get("wire") != PROTOCOL:
            mismatch.append(f"protocol {answer.get('protocol')!r}/{answer.get('wire')!r}, this package "
                            f"{BROKER_PROTOCOL}/{PROTOCOL}")
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
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class LeasedWorker(PipeConnection):
    """A worker the server lent this process: its pipes and pidfd, and the lease's connection."""

    def __init__(self, control: Control, answer: dict[str, Any], fds: list[int]) -> None:
        for fd in fds:
            os.set_inheritable(fd, False)
        self.server_pid = control.pid
        self.training = dict(answer.get("training") or {})
        self._control: Control | None = control
        self._log = Path(answer.get("log") or "/nonexistent")
        self._ended_how: str | None = None
        self.gids: set[int] = set()  # the interpreters open in it
        self._owner = os.getpid()
        _leases.add(self)
        super().__init__(int(answer["pid"]), fds[0], fds[1], fds[2],
                         label=f"the sandbox worker process (pid {answer['pid']}) of the local server")

    def release(self, *, reusable: bool) -> None:
        """Ends the lease: the worker goes back to the server (checked there), or, when not ``reusable``, is
        killed and replaced. A server that is gone meanwhile changes nothing: the worker ends with its input."""
        _leases.discard(self)
        if not reusable:
            self.kill("it must not be reused")
        self.detach()
        self.close_fds()
        control, self._control = self._control, None
        if control is None:
            return
        try:
            if reusable:
                control.ask({"op": "release"}, timeout=30.0)
        except (OSError, ValueError, JvmError):
            pass
        finally:
            control.close()

    def _describe_loss(self) -> str:
        text = super()._describe_loss()
        if self._killed_why is None and not self._detached and self._control is not None:
            text = f"{self.label} {self._how_it_ended()}"
        try:
            with open(self._log, "rb") as log:
                log.seek(max(0, log.seek(0, os.SEEK_END) - _LOG_TAIL))
                tail = log.read().decode("utf-8", "replace")
        except OSError:
            return text
        return text + why_from_stderr(tail)


    def _how_it_ended(self) -> str:
        """How the worker ended, as the server (its parent) saw it (asked once)."""
        if self._ended_how is None:
            self._ended_how = self._ask_how_it_ended()
        return self._ended_how

    def _ask_how_it_ended(self) -> str:
        try:
            code = self._control.ask({"op": "exit"}, timeout=10.0)[0].get("code")  # type: ignore[union-attr]
        except (OSError, ValueError, JvmError):
            code = None
        if code is None:
            return "closed its pipe (it was killed or crashed)"
        return how_it_exited(int(code))


_leases: weakref.WeakSet[LeasedWorker] = weakref.WeakSet()


def _release_at_exit() -> None:
    """Closes the interpreters left open at this process's exit and gives their workers back, warm: a lease that
    just ends (the process died) costs the server a worker."""
    for lease in list(_leases):
        if lease._owner != os.getpid() or not lease.alive:
            continue
        try:
            for gid in list(lease.gids):
                lease.request("close", gid, deadline=5.0)
            lease.release(reusable=True)
        except Exception:  # noqa: BLE001 - the server kills and replaces what is not given back
            logger.debug("a lent worker was not given back at exit", exc_info=True)


atexit.register(_release_at_exit)


# ------------------------------------------------------------------------------------------------ leasing

_refused: str | None = None
_refused_pid = 0
_lock = threading.Lock()


def lease(heap_bytes: int) -> LeasedWorker | None:
    """A worker of ``heap_bytes`` from the local server (started when none runs), or None when the server is off
    or cannot be used: then this process's interpreters use private workers, said once in a warning."""
    global _refused, _refused_pid
    if mode() == "off":
        return None
    with _lock:
        if _refused is not None and _refused_pid == os.getpid():
            return None
    try:
        control = attach(start=True)
        try:
            answer, fds = control.ask({"op": "lease", "heap": heap_bytes}, timeout=START_DEADLINE_S)
            if len(fds) != 3:
                raise JvmError(f"the sandbox server at {control.path} sent {len(fds)} descriptors, not 3")
            return LeasedWorker(control, answer, fds)
        except BaseException:
            control.close()
            raise
    except (JvmError, OSError, ValueError) as exc:
        with _lock:
            first = _refused is None or _refused_pid != os.getpid()
            _refused, _refused_pid = str(exc), os.getpid()
        if first:
            logger.warning("langchain-graalvm: not using the sandbox server, using private workers: %s", exc)
        return None


def attach(*, start: bool) -> Control:
    """A greeted connection to the running server; with ``start``, a server is started first when none answers."""
    folder = server_dir()
    _make_private(folder)
    path = folder / _SOCKET_NAME
    try:
        return _greeted(Control(path))
    except (FileNotFoundError, ConnectionRefusedError, ConnectionResetError):
        if not start:
            raise
    with _start_lock(folder):
        try:
            return _greeted(Control(path))  # another process started one meanwhile
        except (FileNotFoundError, ConnectionRefusedError, ConnectionResetError):
            _spawn(path, idle_seconds())
            return _greeted(_wait_for(path))


def _greeted(conn: Control) -> Control:
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
    package_root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k.startswith("LANGCHAIN_GRAALVM_")}
    for name in ("HOME", "XDG_CACHE_HOME", "JAVA_HOME", "PATH"):
        if name in os.environ:
            env[name] = os.environ[name]
    env["PYTHONPATH"] = str(package_root)
    env["LANGCHAIN_GRAALVM_SERVER_DIR"] = str(path.parent)
    command = [sys.executable, "-m", "langchain_graalvm._runtime._broker", "--listen", str(path),
               "--idle-exit", str(idle_s)]
    with open(path.parent / "server.log", "ab") as log:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                                close_fds=True, start_new_session=True, cwd=str(path.parent))
    (path.parent / "server.pid").write_text(str(proc.pid))
    threading.Thread(target=proc.wait, daemon=True).start()  # reaps it, should it end while this process runs
    return proc.pid


def _wait_for(path: Path) -> Control:
    deadline = time.monotonic() + START_DEADLINE_S
    while True:
        try:
            return Control(path)
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise JvmError(
                    f"the sandbox server did not listen on {path} within {START_DEADLINE_S:.0f} s; "
                    f"see {path.parent / 'server.log'}"
                ) from None
            time.sleep(0.02)


# ------------------------------------------------------------------------------------------------ the CLI's verbs


def start() -> dict[str, Any]:
    """Starts a server unless one of this package runs; its status."""
    conn = attach(start=True)
    try:
        return conn.ask({"op": "status"})[0]
    finally:
        conn.close()


def status() -> dict[str, Any] | None:
    """The running server's status (its workers and their training), or None when none runs."""
    try:
        conn = attach(start=False)
    except (FileNotFoundError, ConnectionRefusedError, ConnectionResetError):
        return None
    try:
        return conn.ask({"op": "status"})[0]
    finally:
        conn.close()


def stop() -> int | None:
    """Stops the running server; its pid, or None when none ran. A server of another build is stopped too."""
    folder = server_dir()
    _make_private(folder)
    try:
        conn = Control(folder / _SOCKET_NAME)
    except (FileNotFoundError, ConnectionRefusedError):
        return None
    pid = conn.pid
    try:
        conn.ask({"op": "shutdown"}, timeout=30.0)
    except (OSError, ValueError, JvmError):
        pass
    finally:
        conn.close()
    deadline = time.monotonic() + 30
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pid
