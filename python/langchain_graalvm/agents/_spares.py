"""Spare interpreters: contexts built ahead of time, so taking one costs nothing, and closed off the caller's thread.

Building a GraalVM context costs tens of milliseconds (the snapshot codec is set up in each one), which would be
most of an agent turn. :class:`SparePool` keeps a warmed context or two per configuration, built on a background
thread; interpreters handed back are closed on that thread too.
"""

from __future__ import annotations

import collections
import concurrent.futures
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Literal, TypeVar

from .._runtime import _prestart
from ..interpreter import Interpreter
from ..options import InterpreterOptions

logger = logging.getLogger("langchain_graalvm.middleware")

_SPARES_PER_SPEC = 2
_SPARE_SPECS = 4  # spares are kept for this many configurations, the most recently used
_RESTORE_THREADS = 4
T = TypeVar("T")


def build(spec: InterpreterOptions) -> Interpreter:
    """A new interpreter of a slot (its context is built on first use)."""
    return Interpreter.from_options(spec, prestart=False)


def warmed(spec: InterpreterOptions) -> Interpreter:
    """A new interpreter whose context is already built, with no model globals in it.

    With snapshots on, an empty snapshot builds the context (a restore may still follow, as no cell ran);
    without, an empty cell does.
    """
    interpreter = build(spec)
    try:
        interpreter.prepare()
    except BaseException:
        interpreter.close()
        raise
    return interpreter


class SparePool:
    """Warmed interpreters per spec, made ahead of time; also closes used interpreters off the caller's thread.

    Spares are made and interpreters closed on one background thread, in order. Restores started ahead of the
    first eval (:meth:`Slot.prefetch`) run on a few threads of their own, so they never queue behind that work.
    """

    def __init__(self, spares_per_spec: int = _SPARES_PER_SPEC) -> None:
        self._per_spec = spares_per_spec
        self._lock = threading.Lock()
        self._spares: dict[InterpreterOptions, collections.deque[Interpreter]] = {}
        self._coming: dict[InterpreterOptions, int] = {}
        self._executors: dict[str, concurrent.futures.ThreadPoolExecutor] = {}
        self._prewarming: dict[InterpreterOptions, _prestart.Pending] = {}
        self._closed = False

    def prewarm(self, spec: InterpreterOptions) -> None:
        """Builds one spare for ``spec`` on the background start thread, which starts the JVM first if needed.

        A middleware asks for it when it is built, so the first eval of its first run (usually seconds later, after
        the model's first answer) takes a ready context; an eval that comes sooner waits for it instead of building
        a second one beside it.
        """
        with self._lock:
            if self._closed or self._spares.get(spec) or self._coming.get(spec) or spec in self._prewarming:
                return
            self._spares.setdefault(spec, collections.deque())
            self._coming[spec] = self._coming.get(spec, 0) + 1
        future = _prestart.submit(
            lambda: self._make_spare(spec, prestart=True), in_process=spec.isolation != "process"
        )
        if future is None:
            self._add_spare(spec, None)
            return
        with self._lock:
            self._prewarming[spec] = _prestart.Pending(future)

    def submit(self, lane: Literal["upkeep", "restore"], fn: Callable[..., T], *args: Any) -> Future[T] | None:
        """Runs ``fn(*args)`` on the ``lane``'s threads; None once the pool is closed."""
        with self._lock:
            if self._closed:
                return None
            executor = self._executors.get(lane)
            if executor is None:
                executor = self._executors[lane] = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1 if lane == "upkeep" else _RESTORE_THREADS,
                    thread_name_prefix=f"langchain-graalvm-{lane}",
                )
            try:
                return executor.submit(fn, *args)
            except RuntimeError:  # the executor is shutting down with the process
                return None

    def take(self, spec: InterpreterOptions) -> Interpreter:
        """A fresh interpreter for ``spec``: a warmed spare when one is ready, else a new one.

        Taking a spare tops the pool up in the background. Without one, nothing is built in the background yet:
        on two cores, spares built while the caller's own context is built would only slow its first eval (and,
        in a new process, the JVM's start); the caller asks for them with :meth:`replenish` once it has evaluated.
        """
        with self._lock:
            spares = self._spares.setdefault(spec, collections.deque())
            self._spares[spec] = self._spares.pop(spec)  # most recently used last
            spare = spares.popleft() if spares else None
            prewarm = self._prewarming.pop(spec, None)
            unused = self._forget_old_specs()
        for interpreter in unused:
            self.retire(interpreter)
        if spare is None and prewarm is not None:
            if prewarm.wait():
                with self._lock:
                    spare = spares.popleft() if spares else None
            else:  # not begun, so never will: this caller builds its own
                self._add_spare(spec, None)
        if spare is not None and not spare.alive:  # its worker died while it waited: it would say globals were lost
            self.retire(spare)
            spare = None
        if spare is not None:
            self.replenish(spec)
            return spare
        return build(spec)

    def replenish(self, spec: InterpreterOptions) -> None:
        """Starts building spares for ``spec`` in the background, up to the pool's size.

        Not for the worker tier: there a spare holds a worker process of its own, so a thread's turns would go
        round the active interpreter's worker and the spares', each warming its own JIT (three times the compile
        work and the memory for one conversation). A new interpreter checks out the worker the last one gave back,
        and the worker keeps its own context built ahead (``WorkerServer``'s spares); only the first, prewarmed
        spare is made, to start a worker while the model thinks.
        """
        if spec.isolation == "process":
            return
        with self._lock:
            if self._closed or spec not in self._spares:
                return
            wanted = self._per_spec - len(self._spares[spec]) - self._coming.get(spec, 0)
            if wanted <= 0:
                return
            self._coming[spec] = self._coming.get(spec, 0) + wanted
        for _ in range(wanted):
            if self.submit("upkeep", self._make_spare, spec) is None:
                self._add_spare(spec, None)

    def _forget_old_specs(self) -> list[Interpreter]:
        """Drops the spares of the least recently used specs beyond the last few (caller holds the lock)."""
        unused: list[Interpreter] = []
        while len(self._spares) > _SPARE_SPECS:
            unused.extend(self._spares.pop(next(iter(self._spares))))
        return unused

    def _make_spare(self, spec: InterpreterOptions, *, prestart: bool = False) -> None:
        interpreter: Interpreter | None = None
        if prestart and _prestart.exiting():
            self._add_spare(spec, None)
            return
        try:
            interpreter = warmed(spec)
        except Exception:  # noqa: BLE001 - a spare is an optimisation; the next take builds its own
            logger.debug("Could not warm a spare GraalVM interpreter", exc_info=True)
        self._add_spare(spec, interpreter)

    def _add_spare(self, spec: InterpreterOptions, interpreter: Interpreter | None) -> None:
        with self._lock:
            self._coming[spec] = max(0, self._coming.get(spec, 0) - 1)
            if interpreter is not None and not self._closed and spec in self._spares:
                self._spares[spec].append(interpreter)
                return
        if interpreter is not None:
            _close_quietly(interpreter)

    def retire(self, interpreter: Interpreter) -> None:
        """Closes ``interpreter`` in the background (at once when the pool is closed)."""
        if self.submit("upkeep", _close_quietly, interpreter) is None:
            _close_quietly(interpreter)

    def close(self) -> None:
        """Closes every spare and stops the background threads, after the work already queued."""
        with self._lock:
            self._closed = True
            spares = [i for queue in self._spares.values() for i in queue]
            self._spares.clear()
            executors = list(self._executors.values())
            self._executors.clear()
        for executor in executors:
            executor.shutdown(wait=True)
        for interpreter in spares:
            _close_quietly(interpreter)


def _close_quietly(interpreter: Interpreter) -> None:
    try:
        interpreter.close()
    except Exception:  # noqa: BLE001 - the JVM may already be going down at exit
        logger.debug("Closing a GraalVM interpreter failed", exc_info=True)



_pool: SparePool | None = None
_pool_lock = threading.Lock()


def shared_pool() -> SparePool:
    """The process's pool of spare interpreters."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = SparePool()
        return _pool


def close_shared_pool() -> None:
    """Closes the process's pool, if it was made."""
    with _pool_lock:
        pool = _pool
    if pool is not None:
        pool.close()
