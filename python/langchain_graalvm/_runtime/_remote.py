"""The guest of the worker backend (``isolation="process"``, or ``LANGCHAIN_GRAALVM_SERVER=auto``): an interpreter
in a worker process of this process's pool, or in a worker the local server lent this process. Both speak the same
protocol (:class:`._wire.Connection`) over the worker's pipes, and both are killed when lost or stuck; a private
worker goes back to this process's pool, a lent one to the server.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from typing import Any

from ..errors import GuestUnavailableError, JvmError, SnapshotError
from ..options import InterpreterOptions
from . import _server
from ._backend import (
    PYTHON_MISSING,
    CallChannel,
    EvalOutcome,
    HostBinding,
    HostFunctions,
    decode_snapshot,
    host_error_outcome,
)
from ._wire import Connection, WorkerError, WorkerLost, bridge_spec, outcome_from_fields
from ._worker import WorkerProcess, worker_heap_bytes
from ._workerpool import pool

_REQUEST_SLACK_S = 60.0
"""Added to every request's own bound (an eval's ``max_wall_time``, a snapshot's ``timeout``) as its deadline."""


# ------------------------------------------------------------------------------------------------ one guest


class WorkerGuest:
    """A guest interpreter in a worker of its own (the :class:`~._backend.Guest` of the worker backend).

    The worker is checked out when the guest is made and goes back to the pool when it closes. A lost worker
    closes the guest: the eval it ran returns an ``InternalError`` outcome, and the interpreter makes a new guest,
    in another worker, for its next call.
    """

    def __init__(self, options: InterpreterOptions) -> None:
        self._options = options
        self._pid = os.getpid()
        self._closed = False
        self._lock = threading.Lock()
        heap = worker_heap_bytes(options)
        lent = _server.lease(heap)
        self._worker: Connection = lent if lent is not None else pool().checkout(heap)
        try:
            gid, imports = self._worker.new_guest(options)
        except WorkerError as exc:
            self._drop("it could not build an interpreter")
            if options.language == "python" and "GraalPy" in str(exc):
                raise GuestUnavailableError(PYTHON_MISSING) from None
            raise JvmError(f"{self._worker.label} could not build an interpreter: {exc}") from None
        except WorkerLost as exc:
            self._drop("it was lost")
            raise JvmError(f"{self._worker.label} could not build an interpreter: {exc}") from None
        self._gid = gid
        if isinstance(self._worker, _server.LeasedWorker):
            self._worker.gids.add(gid)  # closed at this process's exit, if not before, so the worker goes back warm
        self._imports = imports
        self._channel: _WorkerChannel | None = None

    @property
    def worker_pid(self) -> int:
        """The pid of the worker process this guest runs in."""
        return self._worker.pid

    @property
    def in_server(self) -> bool:
        """Whether this guest runs in a worker the local server lent, rather than in a private worker."""
        return isinstance(self._worker, _server.LeasedWorker)

    def _drop(self, why: str) -> None:
        """Kills the worker, which must not be reused: the pool or the server starts another."""
        if isinstance(self._worker, WorkerProcess):
            pool().discard(self._worker, why)
        elif isinstance(self._worker, _server.LeasedWorker):
            self._worker.kill(why)
            self._worker.release(reusable=False)

    def _check(self) -> None:
        if os.getpid() != self._pid:
            raise JvmError(
                "this interpreter's sandbox worker belongs to the parent process, and this process is a fork of "
                "it; create interpreters after forking"
            )

    def is_closed(self) -> bool:
        self._check()
        return self._closed

    def lost_unreported(self) -> bool:
        self._check()
        return not self._closed and not self._worker.alive

    def prepare(self) -> None:
        self._check()
        try:
            self._worker.prepare(self._gid, deadline=self._bound(self._options.timeout))
        except (WorkerLost, WorkerError):
            self._lose("it failed while preparing a context")

    def eval(self, code: str, host: HostBinding | None) -> EvalOutcome:
        self._check()
        start = time.monotonic()
        if self._closed or not self._worker.alive:
            # A worker that died between evals (killed, crashed, a server stopped): this eval says so, once.
            self._lose(None)
            return self._lost_outcome(start, f"{self._worker.label} died after the last eval")
        channel: _WorkerChannel | None = None
        spec = None
        if host is not None:
            bound = host.bind(self)
            assert isinstance(bound, _WorkerChannel)
            channel, spec = bound, bound.spec
        self._worker.evals += 1
        if self._worker.evals == 1 and isinstance(self._worker, WorkerProcess):
            pool().ensure_spares(self._worker.heap_bytes)
        try:
            fields = self._worker.eval(
                self._gid,
                code,
                spec,
                deadline=self._bound(self._options.max_wall_time),
                calls=channel.batches if channel is not None else None,
            )
        except WorkerLost as exc:
            self._lose(None)
            return self._lost_outcome(start, str(exc))
        except WorkerError as exc:
            self._lose(f"it could not run an eval ({exc.kind})")
            return self._lost_outcome(start, f"the sandbox worker failed: {exc}")
        finally:
            if channel is not None:
                channel.batches.put(None)
        if fields.get("closed"):
            # The guest was stuck in a builtin that ignores interrupts and was given up: its thread still runs
            # in the worker, holding a core. Killing the worker frees it.
            self._lose("its guest was stuck in a builtin past the grace")
        return outcome_from_fields(fields)

    def cancel(self) -> None:
        if os.getpid() == self._pid and not self._closed:
            self._worker.cancel(self._gid)

    def snapshot(self, max_bytes: int | None) -> bytes:
        self._check()
        try:
            text = self._worker.snapshot(self._gid, max_bytes or 0, deadline=self._bound(self._options.timeout))
        except (WorkerLost, WorkerError) as exc:
            self._lose(None)
            raise SnapshotError(f"the snapshot failed: {exc}") from None
        return text.encode("utf-8")

    def restore(self, payload: bytes) -> list[str]:
        self._check()
        text = decode_snapshot(payload)
        try:
            names = self._worker.restore(self._gid, text, deadline=self._bound(self._options.timeout))
        except (WorkerLost, WorkerError) as exc:
            self._lose(None)
            raise SnapshotError(f"the restore failed: {exc}") from None
        return names

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if os.getpid() != self._pid:
            return  # the parent's worker: neither closed nor given back from a fork
        worker = self._worker
        try:
            worker.close_guest(self._gid)
            if isinstance(worker, _server.LeasedWorker):
                worker.gids.discard(self._gid)
        except (WorkerLost, WorkerError):
            self._drop("it failed to close an interpreter")
            return
        if isinstance(worker, WorkerProcess):
            pool().checkin(worker, reusable=True)
        elif isinstance(worker, _server.LeasedWorker):
            worker.release(reusable=True)

    def _lose(self, why: str | None) -> None:
        """Closes this guest for good and kills its worker (``why`` finishes "killed because ...")."""
        with self._lock:
            already = self._closed
            self._closed = True
        if not already:
            self._drop(why or "it was lost")

    def _lost_outcome(self, start: float, why: str) -> EvalOutcome:
        return host_error_outcome(
            "InternalError",
            f"{why}. The interpreter was restarted: all globals from earlier calls are gone.",
            state_reset=True,
            duration_s=time.monotonic() - start,
        )

    def _bound(self, seconds: float) -> float:
        return seconds + self._options.interrupt_grace + _REQUEST_SLACK_S

    # ---------------------------------------------------------------------------------------------- host calls

    def open_calls(self, functions: HostFunctions) -> CallChannel:
        return _WorkerChannel(bridge_spec(functions))

    def complete_host_calls(self, call_ids: list[int], batch_json: str) -> None:
        self._worker.complete(self._gid, call_ids, batch_json)

    def imports_modules(self) -> bool:
        return self._imports

    def complete_module_read(self, call_id: int, ok: bool, text: str) -> None:
        self._worker.module(self._gid, call_id, ok, text)


class _WorkerChannel:
    """An eval's host-call batches as the worker sends them; None ends them."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.batches: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._ended = False

    def poll(self, timeout_ms: int) -> str | None:
        if self._ended:
            return None
        try:
            batch = self.batches.get(timeout=timeout_ms / 1000)
        except queue.Empty:
            return "[]"
        if batch is None:
            self._ended = True
        return batch

    def close(self) -> None:
        self.batches.put(None)
