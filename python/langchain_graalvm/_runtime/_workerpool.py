"""This process's pool of sandbox workers (:mod:`._worker`): each interpreter of the worker backend checks out a
worker of its own and gives it back when it closes, its contexts closed and its JIT warmth kept. A spare is trained
(:mod:`._training`) before it is handed out, while this process's other workers are not busy.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time

from .._settings import settings
from ..errors import InterpreterClosedError, JvmError
from . import _training, _wire
from ._wire import WorkerLost
from ._worker import WorkerProcess

logger = logging.getLogger("langchain_graalvm")


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
        self._training: dict[WorkerProcess, bool] = {}  # spares in training, and whether a checkout waits for one
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
                "training": len(self._training),
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
                training = [w for w in self._training if w.heap_bytes == heap_bytes]
                if training:
                    for w in training:
                        self._training[w] = True  # stops after its current cell, then goes idle
                    self._cond.wait(1.0)
                    continue
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
            worker: WorkerProcess | None = self._new_worker(heap_bytes)
        except Exception:  # noqa: BLE001 - a spare that fails to start is logged; checkouts start their own
            logger.warning("a spare sandbox worker failed to start", exc_info=True)
            worker = None
        if worker is not None and not self._train(worker):
            worker = None
        with self._cond:
            self._starting -= 1
            if worker is not None:
                self._idle.setdefault(heap_bytes, []).append((time.monotonic(), worker))
            self._cond.notify_all()

    def _train(self, worker: WorkerProcess) -> bool:
        """Trains a spare while no checked-out worker is busy; False (the spare killed) when it died meanwhile."""
        with self._cond:
            self._training[worker] = False
        try:
            _training.train(worker, worker.training, pause=self._workers_busy,
                            stop=lambda: self._training.get(worker, True))
        except (WorkerLost, _wire.WorkerError):
            worker.kill("it failed while it was trained")
            return False
        finally:
            with self._cond:
                self._training.pop(worker, None)
        return True

    def _workers_busy(self) -> bool:
        """Whether a checked-out worker used CPU over the last 100 ms (a spare's training then waits)."""
        with self._cond:
            busy = list(self._busy)
        if not busy:
            return False
        before = sum(_training.cpu_ticks(w.pid) for w in busy)
        time.sleep(0.1)
        return sum(_training.cpu_ticks(w.pid) for w in busy) - before > 1

    def _new_worker(self, heap_bytes: int) -> WorkerProcess:
        worker = WorkerProcess(heap_bytes)
        try:
            hello = worker.hello()
        except WorkerLost as exc:
            worker.kill("it failed to start")
            output = worker.stderr_tail()[-2000:]
            raise JvmError(f"a sandbox worker failed to start: {exc}. Its last output: {output}") from None
        if hello.get("protocol") != _wire.PROTOCOL:
            worker.kill("its protocol differs")
            raise JvmError(
                f"the sandbox worker speaks protocol {hello.get('protocol')!r}, this package {_wire.PROTOCOL}: "
                "its jar and this Python package are from different releases"
            )
        worker.training = _training.Progress(("js", "python") if hello.get("python") else ("js",))
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
