"""A worker's pipes held by a process that did not start it: the local server's broker (:mod:`._broker`), and a
client the broker lent the worker to (:mod:`._server`).

Both ends hold copies of the same two pipes, and only one of them speaks on them at a time: the broker while it
trains or checks a worker, the client while it holds the lease. :meth:`PipeConnection.detach` stops this end's
reader without touching the worker, so that the other end can read every byte that follows. A worker ends when
every copy of its input is closed (the broker's and the client's), so neither end's death ends the other's eval.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading

from ._wire import Connection


class PipeConnection(Connection):
    """The worker protocol over a worker's input and output pipes (file descriptors this object owns and closes).

    ``pidfd`` (a Linux pidfd of the worker, owned too) lets this process see the worker end and kill it without
    being its parent.
    """

    def __init__(self, pid: int, stdin_fd: int, stdout_fd: int, pidfd: int, label: str | None = None) -> None:
        super().__init__()
        self.pid = pid
        self.label = label or f"the sandbox worker process (pid {pid})"
        self._in = stdin_fd
        self._out = stdout_fd
        self._pidfd = pidfd
        self._stop_r, self._stop_w = os.pipe()
        self._detached = False
        self._killed_why: str | None = None
        self._closed = False
        self._reader = threading.Thread(target=self._read, name=f"graalvm-pipe-{pid}", daemon=True)
        self._reader.start()

    @property
    def alive(self) -> bool:
        return self._lost is None and not self._closed and not process_ended(self._pidfd)

    def kill(self, why: str) -> None:
        """Kills the worker (SIGKILL, through its pidfd) and fails whatever waits on it."""
        if self._killed_why is None:
            self._killed_why = why
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
        self._fail_all(self._describe_loss())

    def detach(self, timeout: float = 10.0) -> bool:
        """Stops this end's reader (no request may be in flight); the worker runs on. False when it did not stop."""
        self._detached = True
        with contextlib.suppress(OSError):
            os.write(self._stop_w, b"x")
        self._reader.join(timeout)
        return not self._reader.is_alive()

    def close_fds(self) -> None:
        """Closes this end's copies of the pipes and the pidfd (after :meth:`detach`, or once the reader ended)."""
        if self._closed:
            return
        self._closed = True
        with self._write_lock:
            for fd in (self._in, self._out, self._pidfd, self._stop_r, self._stop_w):
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _missed_deadline(self, why: str) -> None:
        self.kill(why)

    def _send_bytes(self, data: bytes) -> None:
        if self._closed:
            raise OSError("the pipe is closed")
        view = memoryview(data)
        while view:
            view = view[os.write(self._in, view):]

    def _recv(self) -> bytes:
        poller = select.poll()
        poller.register(self._out, select.POLLIN | select.POLLHUP | select.POLLERR)
        poller.register(self._stop_r, select.POLLIN)
        while True:
            events = dict(poller.poll())
            if self._stop_r in events or self._detached:
                return b""
            if self._out in events:
                try:
                    return os.read(self._out, 1 << 16)
                except OSError:
                    return b""

    def _ended(self) -> None:
        pass

    def _fail_all(self, why: str) -> None:
        if self._detached and self._killed_why is None:
            why = f"{self.label} was handed back"
        super()._fail_all(why)

    def _describe_loss(self) -> str:
        if self._killed_why is not None:
            return f"{self.label} was killed because {self._killed_why}"
        if self._detached:
            return f"{self.label} was handed back"
        return f"{self.label} ended (its pipe closed: it was killed or crashed)"


def process_ended(pidfd: int) -> bool:
    """Whether the process of ``pidfd`` has ended (a pidfd reads as ready once it has)."""
    try:
        ready, _, _ = select.select([pidfd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(ready)
