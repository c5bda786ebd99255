"""The worker backend (``isolation="process"``): guest code runs in a JVM process of its own.

A worker is a JVM that runs the Java library's ``WorkerServer`` on its standard input and output (MessagePack
frames, see that class for the messages); no Python runs in it. Each interpreter checks out a worker of its own
from this process's pool and gives it back when it closes: the worker's contexts are closed, its JIT warmth kept.
The worker's heap is capped from the interpreter's limits, so an allocation bomb ends in that worker's heap, not
in the agent's. A worker that dies, stops answering, or is left running a guest stuck in a builtin is killed
(SIGKILL) and never reused; the eval it ran returns an ``InternalError`` envelope that says so, and the next eval
starts in another worker.

The tools, the review, the audit and the snapshot keys stay in this process: an eval's host calls come back over
the pipe and are run here, exactly as in-process.

Workers start with an empty environment, no descriptors but the three pipes, in a session of their own, and
end when their input ends (this process closed the pipe or died).
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import itertools
import logging
import math
import os
import queue
import signal
import subprocess
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import msgpack

from .._settings import settings
from ..errors import InterpreterClosedError, JvmError, SnapshotError
from ..options import InterpreterOptions
from . import _launch
from ._jvmfinder import cache_dir, find_jdk

logger = logging.getLogger("langchain_graalvm")

PROTOCOL = 1
"""The worker protocol's version (``WorkerServer.PROTOCOL`` on the Java side)."""
_MAIN_CLASS = "io.github.langchaingraalvm.sandbox.worker.WorkerMain"
_MIB = 1 << 20

START_DEADLINE_S = 180.0
"""How long a new worker may take to answer its first request (a cold JVM on a loaded machine)."""
_STDERR_KEPT = 16 * 1024


# ------------------------------------------------------------------------------------------------ settings


def worker_heap_bytes(options: InterpreterOptions) -> int:
    """The ``-Xmx`` of a worker for ``options``: the engine's own needs, plus room for the guest's allowance.

    ``LANGCHAIN_GRAALVM_WORKER_HEAP`` (``768m``, ``2g``) sets it for every worker; a ``memory_limit`` of 0 gives
    ``LANGCHAIN_GRAALVM_MAX_HEAP``'s heap (2 GiB by default).
    """
    given = settings().worker_heap
    if given is not None:
        return given
    if options.memory_limit == 0:
        return settings().max_heap
    base = 640 * _MIB if options.language == "python" else 384 * _MIB
    allowance = math.ceil(options.memory_limit * options.heap_factor)
    # Twice the allowance: the watchdog stops a guest when it keeps more, and it measures at collections.
    return _round_mib(base + 2 * allowance)


def _round_mib(size: int) -> int:
    return -(-size // _MIB) * _MIB


def worker_command(heap_bytes: int) -> list[str]:
    """The command line of a worker: the in-process JVM's own options, its heap capped at ``heap_bytes``."""
    jdk = find_jdk()
    runtime = _launch.find_runtime_dir()
    java = jdk.home / "bin" / "java"
    flags, _ = _launch.jvm_flags(jdk, runtime)
    fast = _launch.fast_start(jdk, runtime)
    if fast is not None and any(f.startswith("-XX:AOTCache=") for f in fast[1]) and "-XX:AOTMode=on" not in fast[1]:
        # The in-process tier's fast start (its JDK image and AOT cache) serves a worker too: the same JDK, module
        # path and class path. A training or trial start is the in-process tier's own.
        libjvm, flags = fast
        java = libjvm.parent.parent.parent / "bin" / "java"
    flags = [f for f in flags if not f.startswith("-Xmx")]
    return [
        str(java),
        f"-Xmx{heap_bytes // _MIB}m",
        # A crash report goes to the cache, not to the agent's working directory.
        f"-XX:ErrorFile={cache_dir() / 'worker-crashes' / 'hs_err_pid%p.log'}",
        *flags,
        "-cp",
        os.pathsep.join(_launch.classpath(runtime)),
        _MAIN_CLASS,
    ]


# ------------------------------------------------------------------------------------------------ one worker


class WorkerLost(Exception):
    """The worker died or stopped answering; ``str()`` says how, in a sentence."""


@dataclasses.dataclass
class _Pending:
    future: Future[Any]
    calls: queue.SimpleQueue[str | None] | None = None  # an eval's host-call batches, in order


def wire_text(text: str) -> str | bytes:
    """Text for the worker: a string, or UTF-16LE bytes when it holds lone surrogates (UTF-8 cannot carry them)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass")
    return text


class Connection:
    """A stream to a ``WorkerServer``: numbered requests, their answers, and messages without one. Thread-safe.

    Subclasses give the bytes' way in and out (:meth:`_send_bytes`, :meth:`_recv`), say whether the other end is
    still there, and describe its loss."""

    label = "the sandbox worker"
    pid = 0
    """The process at the other end."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._lost: str | None = None
        self._packer = msgpack.Packer()
        self.evals = 0

    @property
    def alive(self) -> bool:
        return self._lost is None

    def _send_bytes(self, data: bytes) -> None:
        raise NotImplementedError

    def _recv(self) -> bytes:
        raise NotImplementedError

    def _describe_loss(self) -> str:
        raise NotImplementedError

    def _missed_deadline(self, why: str) -> None:
        """A request went unanswered past its deadline: the other end cannot be trusted any more."""
        raise NotImplementedError

    def request(
        self, kind: str, *args: Any, deadline: float, calls: queue.SimpleQueue[str | None] | None = None
    ) -> Any:
        """Sends a request and waits up to ``deadline`` seconds for its answer. Raises :class:`WorkerLost`,
        :class:`SnapshotError`, or :class:`WorkerError`."""
        future: Future[Any] = Future()
        rid = next(self._ids)
        with self._lock:
            if self._lost is not None:
                raise WorkerLost(self._lost)
            self._pending[rid] = _Pending(future, calls)
        try:
            self._write([kind, rid, *args])
            return future.result(timeout=deadline)
        except FutureTimeout:
            self._missed_deadline(f"it did not answer a {kind!r} request within {deadline:.0f} s")
            raise WorkerLost(self._describe_loss()) from None
        finally:
            with self._lock:
                self._pending.pop(rid, None)

    def send(self, kind: str, *args: Any) -> None:
        """Sends a message that has no answer (host-call results, a cancel); a lost connection ignores it."""
        try:
            self._write([kind, *args])
        except WorkerLost:
            pass

    def _write(self, message: list[Any]) -> None:
        data = self._packer.pack(message)
        with self._write_lock:
            if self._lost is not None:
                raise WorkerLost(self._lost)
            try:
                self._send_bytes(data)
            except (OSError, ValueError):
                self._fail_all(self._describe_loss())
                raise WorkerLost(self._lost or f"{self.label} is gone") from None

    def _read(self) -> None:
        """The reader thread: dispatches answers until the stream ends, then fails whatever still waits."""
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=1 << 30)
        try:
            while data := self._recv():
                unpacker.feed(data)
                for message in unpacker:
                    self._dispatch(message)
        except Exception as exc:  # noqa: BLE001 - a garbled stream ends this connection, never this process
            logger.warning("%s sent an unreadable message (%r)", self.label, exc)
            self._missed_deadline("it sent an unreadable message")
        self._ended()
        self._fail_all(self._describe_loss())

    def _ended(self) -> None:
        """The stream ended: waits for the other end, releases what is left."""

    def _dispatch(self, message: list[Any]) -> None:
        kind, rid = message[0], message[1]
        with self._lock:
            pending = self._pending.get(rid)
        if pending is None:
            return  # the request's waiter gave up
        if kind == "calls":
            if pending.calls is not None:
                pending.calls.put(message[2])
            return
        if kind == "ok" or kind == "outcome":
            pending.future.set_result(message[2])
        elif kind == "snapshot-error":
            pending.future.set_exception(SnapshotError(message[2], too_large=bool(message[3])))
        else:
            pending.future.set_exception(WorkerError(message[2], message[3]))

    def _fail_all(self, why: str) -> None:
        with self._lock:
            if self._lost is None:
                self._lost = why
            pending = list(self._pending.values())
        for entry in pending:
            if entry.calls is not None:
                entry.calls.put(None)
            if not entry.future.done():
                try:
                    entry.future.set_exception(WorkerLost(self._lost))
                except Exception:  # noqa: BLE001 - set meanwhile by the reader
                    pass


class WorkerProcess(Connection):
    """One worker JVM of this process's pool and the pipes to it."""

    def __init__(self, heap_bytes: int) -> None:
        super().__init__()
        self.heap_bytes = heap_bytes
        self._killed_why: str | None = None
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self.started = time.monotonic()
        self._proc = subprocess.Popen(
            worker_command(heap_bytes),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={},
            close_fds=True,
            start_new_session=True,  # a Ctrl-C at the terminal is the agent's to handle, not the worker's
        )
        self.pid = self._proc.pid
        self.label = f"the sandbox worker process (pid {self.pid})"
        self._fd = self._proc.stdout.fileno()  # type: ignore[union-attr]
        threading.Thread(target=self._read, name=f"graalvm-worker-{self.pid}", daemon=True).start()
        threading.Thread(target=self._read_stderr, name=f"graalvm-worker-err-{self.pid}", daemon=True).start()

    @property
    def alive(self) -> bool:
        if self._lost is not None or self._proc.returncode is not None:
            return False
        # Not Popen.poll(): it answers None while another thread is in Popen.wait() (the reader thread waits as the
        # stream ends), so a worker killed between evals could look alive. This asks the kernel and reaps nothing.
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False  # already reaped: it has ended

    def stderr_tail(self) -> str:
        with self._lock:
            return b"".join(self._stderr).decode("utf-8", "replace")

    def kill(self, why: str) -> None:
        """Kills the worker (SIGKILL) and fails whatever waits on it."""
        if self._killed_why is None:
            self._killed_why = why
        try:
            self._proc.kill()
        except OSError:
            pass
        self._fail_all(self._describe_loss())

    def _missed_deadline(self, why: str) -> None:
        self.kill(why)

    def close(self) -> None:
        """Ends the worker: closes its input (it exits on its own), then kills it if it has not within 5 s."""
        with self._write_lock:
            try:
                self._proc.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
        try:
            self._proc.wait(5)
        except subprocess.TimeoutExpired:
            self.kill("it did not exit when its input closed")
            self._proc.wait()

    def _send_bytes(self, data: bytes) -> None:
        self._proc.stdin.write(data)  # type: ignore[union-attr]
        self._proc.stdin.flush()  # type: ignore[union-attr]

    def _recv(self) -> bytes:
        # os.read returns what has arrived; a file object's read would wait for its whole buffer.
        return os.read(self._fd, 1 << 16)

    def _ended(self) -> None:
        self._proc.wait()
        with self._write_lock:
            for stream in (self._proc.stdin, self._proc.stdout):
                try:
                    stream.close()  # type: ignore[union-attr]
                except OSError:
                    pass

    def _describe_loss(self) -> str:
        code = self._proc.poll()
        if self._killed_why is not None:
            how = f"was killed because {self._killed_why}"
        elif code is None:
            how = "closed its pipe"
        elif code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        tail = self.stderr_tail()
        if "OutOfMemoryError" in tail:
            how += " after its heap ran out"
        elif "A fatal error has been detected" in tail:
            how += " after the JVM crashed"
        return f"{self.label} {how}"

    def _read_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        with stream:
            for line in iter(stream.readline, b""):
                logger.debug("sandbox worker %s: %s", self.pid, line.decode("utf-8", "replace").rstrip())
                with self._lock:
                    self._stderr.append(line)
                    self._stderr_size += len(line)
                    while self._stderr_size > _STDERR_KEPT and len(self._stderr) > 1:
                        self._stderr_size -= len(self._stderr.popleft())


class WorkerError(Exception):
    """A request the worker answered with an error: ``kind`` is its Java exception's name, or ``"broken"``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# ------------------------------------------------------------------------------------------------ the pool


class WorkerPool:
    """Workers kept for the interpreters of this process: idle ones kept warm for the next one, spares started ahead.

    Args:
        max_workers: the most workers alive at once; a checkout past it waits for one to come back.
        spares: workers started ahead of need.
        idle_s: seconds after which an idle worker stops.
        wait_s: seconds a checkout waits for a worker when ``max_workers`` are in use, before a clear error.
        guests_per_worker: interpreters that may share one worker, trading isolation for memory: a worker killed
            for one of them (a crash, a stuck builtin) takes the others' globals with it.

    :func:`pool` makes this process's pool from the settings (``LANGCHAIN_GRAALVM_MAX_WORKERS`` and the others).
    """

    def __init__(
        self, *, max_workers: int = 16, spares: int = 1, idle_s: int = 300, wait_s: int = 60, guests_per_worker: int = 1
    ) -> None:
        self.max_workers = max_workers
        self.spares = spares
        self.idle_s = idle_s
        self.wait_s = wait_s
        self.guests_per_worker = guests_per_worker
        self._idle: dict[int, list[tuple[float, WorkerProcess]]] = {}
        self._busy: dict[WorkerProcess, int] = {}  # checked-out workers and how many guests each holds
        self._starting = 0
        self._cond = threading.Condition()
        self._pid = os.getpid()
        self.started = 0
        self.replaced = 0

    def stats(self) -> dict[str, int]:
        with self._cond:
            return {
                "busy": len(self._busy),
                "idle": sum(len(v) for v in self._idle.values()),
                "starting": self._starting,
                "started": self.started,
                "killed": self.replaced,
                "max": self.max_workers,
            }

    def checkout(self, heap_bytes: int) -> WorkerProcess:
        """A worker of this heap size: an idle one (the warmest), else a new one. Waits while the pool is full."""
        give_up = time.monotonic() + self.wait_s
        with self._cond:
            while True:
                self._stop_stale_locked()
                shared = next(
                    (w for w, n in self._busy.items()
                     if n < self.guests_per_worker and w.heap_bytes == heap_bytes and w.alive),
                    None,
                )
                if shared is not None:
                    self._busy[shared] += 1
                    return shared
                idle = self._idle.get(heap_bytes, [])
                while idle:
                    # The warmest first: the one that has run the most evals has compiled the most.
                    entry = max(idle, key=lambda e: e[1].evals)
                    idle.remove(entry)
                    worker = entry[1]
                    if worker.alive:
                        self._busy[worker] = 1
                        return worker
                if self._count_locked() < self.max_workers:
                    self._starting += 1
                    break
                if not self._evict_idle_locked():
                    left = give_up - time.monotonic()
                    if left <= 0:
                        raise InterpreterClosedError(
                            f"all {self.max_workers} sandbox workers are in use (LANGCHAIN_GRAALVM_MAX_WORKERS); "
                            f"none came back within {self.wait_s} s"
                        )
                    self._cond.wait(left)
        try:
            worker = self._new_worker(heap_bytes)
        finally:
            with self._cond:
                self._starting -= 1
                self._cond.notify_all()
        with self._cond:
            self._busy[worker] = 1
        return worker

    def ensure_spares(self, heap_bytes: int) -> None:
        """Starts spare workers of this heap size in the background, up to ``spares`` idle or starting ones.
        Called once a checked-out worker has run its first eval, so a spare never slows that first result."""
        with self._cond:
            self._start_spares_locked(heap_bytes)

    def checkin(self, worker: WorkerProcess, *, reusable: bool) -> None:
        """Takes a worker back: kept idle when it is healthy and ``reusable``, else ended."""
        with self._cond:
            left = self._busy.get(worker, 1) - 1
            if left > 0:
                self._busy[worker] = left  # other interpreters still run in it
                return
            self._busy.pop(worker, None)
            keep = reusable and worker.alive and os.getpid() == self._pid
            if keep:
                self._idle.setdefault(worker.heap_bytes, []).append((time.monotonic(), worker))
            self._cond.notify_all()
        if not keep:
            self._end(worker)

    def discard(self, worker: WorkerProcess, why: str) -> None:
        """Kills a worker that must not be reused (``why`` finishes "killed because ...")."""
        with self._cond:
            if self._busy.pop(worker, None) is not None:
                self.replaced += 1
            self._cond.notify_all()
        worker.kill(why)

    def close(self) -> None:
        """Ends every idle worker; busy ones end when their interpreters close (or with this process)."""
        with self._cond:
            idle = [w for entries in self._idle.values() for _, w in entries]
            self._idle.clear()
        for worker in idle:
            self._end(worker)

    def _count_locked(self) -> int:
        return len(self._busy) + sum(len(v) for v in self._idle.values()) + self._starting

    def _evict_idle_locked(self) -> bool:
        """Ends the longest-idle worker (of any heap size) to make room; False when none is idle."""
        oldest = min(
            ((since, size, worker) for size, entries in self._idle.items() for since, worker in entries),
            default=None,
            key=lambda entry: entry[0],
        )
        if oldest is None:
            return False
        since, size, worker = oldest
        self._idle[size].remove((since, worker))
        threading.Thread(target=self._end, args=(worker,), daemon=True).start()
        return True

    def _stop_stale_locked(self) -> None:
        now = time.monotonic()
        for entries in self._idle.values():
            stale = [(since, w) for since, w in entries if now - since > self.idle_s or not w.alive]
            for entry in stale:
                entries.remove(entry)
                threading.Thread(target=self._end, args=(entry[1],), daemon=True).start()

    def _start_spares_locked(self, heap_bytes: int) -> None:
        missing = self.spares - len(self._idle.get(heap_bytes, ())) - self._starting
        for _ in range(max(0, min(missing, self.max_workers - self._count_locked()))):
            self._starting += 1
            threading.Thread(target=self._start_spare, args=(heap_bytes,), daemon=True).start()

    def _start_spare(self, heap_bytes: int) -> None:
        try:
            worker = self._new_worker(heap_bytes)
        except Exception:  # noqa: BLE001 - a spare that fails to start is logged; checkouts start their own
            logger.warning("a spare sandbox worker failed to start", exc_info=True)
            worker = None
        with self._cond:
            self._starting -= 1
            if worker is not None:
                self._idle.setdefault(heap_bytes, []).append((time.monotonic(), worker))
            self._cond.notify_all()

    def _new_worker(self, heap_bytes: int) -> WorkerProcess:
        worker = WorkerProcess(heap_bytes)
        try:
            hello = worker.request("hello", deadline=START_DEADLINE_S)
        except WorkerLost as exc:
            worker.kill("it failed to start")
            output = worker.stderr_tail()[-2000:]
            raise JvmError(f"a sandbox worker failed to start: {exc}. Its last output: {output}") from None
        if hello.get("protocol") != PROTOCOL:
            worker.kill("its protocol differs")
            raise JvmError(
                f"the sandbox worker speaks protocol {hello.get('protocol')!r}, this package {PROTOCOL}: "
                "its jar and this Python package are from different releases"
            )
        with self._cond:
            self.started += 1
        return worker

    @staticmethod
    def _end(worker: WorkerProcess) -> None:
        try:
            worker.close()
        except Exception:  # noqa: BLE001 - ending a worker must never fail its caller
            logger.debug("a sandbox worker did not end cleanly", exc_info=True)


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def pool() -> WorkerPool:
    """This process's worker pool (a fork gets a new one: the parent's workers are not its own)."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool._pid != os.getpid():
            current = settings()
            _pool = WorkerPool(
                max_workers=current.max_workers,
                spares=current.worker_spares,
                idle_s=current.worker_idle,
                wait_s=current.worker_wait,
                guests_per_worker=current.guests_per_worker,
            )
        return _pool


def _close_pool() -> None:
    if _pool is not None and _pool._pid == os.getpid():
        _pool.close()


atexit.register(_close_pool)
