"""One worker: a JVM process of its own that runs guest code for the worker backend (``isolation="process"``).

A worker runs the Java library's ``WorkerServer`` on its standard input and output (the messages are
:mod:`._wire`'s); no Python runs in it. Its heap is capped from the interpreter's limits, so an allocation bomb
ends in that worker's heap, not in the agent's. A worker that dies, stops answering, or is left running a guest
stuck in a builtin is killed (SIGKILL) and never reused (:mod:`._workerpool` keeps the others warm); the eval it
ran returns an ``InternalError`` envelope that says so, and the next eval starts in another worker.

The tools, the review, the audit and the snapshot keys stay in this process: an eval's host calls come back over
the pipe and are run here, exactly as in-process.

Workers start with an empty environment, no descriptors but the three pipes, in a session of their own, and
end when their input ends (this process closed the pipe or died).
"""

from __future__ import annotations

import collections
import logging
import math
import os
import signal
import subprocess
import threading
import time

from .._settings import settings
from ..options import InterpreterOptions
from . import _launch, _training
from ._jvmfinder import cache_dir, find_jdk
from ._wire import Connection

logger = logging.getLogger("langchain_graalvm")

_MAIN_CLASS = "io.github.langchaingraalvm.sandbox.worker.WorkerMain"
_MIB = 1 << 20
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


def how_it_exited(code: int) -> str:
    """A worker's exit status in words: ``was killed by SIGKILL``, ``exited with status 1``."""
    if code >= 0:
        return f"exited with status {code}"
    try:
        return f"was killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"was killed by signal {-code}"


def why_from_stderr(tail: str) -> str:
    """What the end of a worker's standard error says of its death, as words to append, or nothing."""
    if "OutOfMemoryError" in tail:
        return " after its heap ran out"
    if "A fatal error has been detected" in tail:
        return " after the JVM crashed"
    return ""


# ------------------------------------------------------------------------------------------------ one worker


class WorkerProcess(Connection):
    """One worker JVM of this process's pool and the pipes to it."""

    def __init__(self, heap_bytes: int) -> None:
        super().__init__()
        self.heap_bytes = heap_bytes
        self.training = _training.Progress(("js",))
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
        else:
            how = how_it_exited(code)
        return f"{self.label} {how}{why_from_stderr(self.stderr_tail())}"

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
