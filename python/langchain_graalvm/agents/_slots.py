"""Interpreter slots: the live interpreter of one agent run of a thread, parked interpreters, and cleanup.

A slot belongs to one conversation thread (its id lives in graph state) and holds at most one
:class:`~langchain_graalvm.Interpreter` for the length of one agent run. When the thread has a snapshot, restoring
it starts in the background as the run starts (the model is usually thinking meanwhile); otherwise the
interpreter is taken on the first eval, so a turn that never evaluates anything builds nothing.

Interpreters come from, and go back to, the spare pool (:mod:`._spares`). Every registry and the pool are closed
at interpreter exit, and a registry also when its middleware is garbage-collected, so a run that aborted before
``after_agent`` never leaves anything running.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import logging
import sys
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future

from .._runtime import _jvm
from .._runtime._adapter import HostBinding
from ..errors import InterpreterClosedError, SnapshotError
from ..interpreter import Interpreter
from ..options import InterpreterOptions
from ._spares import SparePool, close_shared_pool, shared_pool

logger = logging.getLogger("langchain_graalvm.middleware")

_MAX_PARKED = 16
_PARKED_IDLE_S = 600.0
_WAIT_POLL_S = 0.002


class Slot:
    """The interpreter of one agent run of one thread; evals in it run one at a time."""

    def __init__(self, slot_id: str, spec: InterpreterOptions, pool: SparePool, pending: bytes | None = None) -> None:
        self.slot_id = slot_id
        self.spec = spec
        self.used = False
        self.restore_failed = False
        self._pool = pool
        self._pending = pending
        self._interpreter: Interpreter | None = None
        self._coming: Future[Interpreter] | None = None
        self._setup = threading.Lock()
        self._turn = threading.Lock()
        self._closed = False
        self.digest: bytes | None = None
        """With the slot parked: the digest of the snapshot its interpreter's globals were last saved as."""
        self._unchanged: tuple[Interpreter, bytes] | None = None  # an interpreter and a payload its globals equal
        self.rolled_back: set[str] = set()
        """The tool calls whose cell paused for review and was rolled back to its start in this slot: resumed, it
        goes on from the slot's globals, which hold that start and what other evals did since."""

    def begin_run(self) -> None:
        """Resets the per-run flags of a parked slot that serves the thread's next run."""
        self.used = False
        self.restore_failed = False

    @property
    def warm(self) -> bool:
        """Whether the slot holds a live interpreter (not one still being restored, nor one whose worker died since
        its globals were saved: a slot that is not warm is opened again from the stored snapshot)."""
        return self._interpreter is not None and not self._closed and self._interpreter.alive

    def prefetch(self) -> None:
        """Starts restoring the pending snapshot in the background, so the first eval need not wait for it.

        A thread's first model call usually takes far longer than a restore, which then costs the turn nothing.
        A turn that makes no eval has spent the restore for nothing; it never changes the stored snapshot.
        """
        with self._setup:
            if self._pending and self._coming is None and self._interpreter is None and not self._closed:
                self._coming = self._pool.submit("restore", self._restored)

    def _ready(self) -> Interpreter:
        with self._setup:
            if self._closed:
                raise InterpreterClosedError(f"the interpreter slot {self.slot_id} was already closed")
            if self._interpreter is None:
                coming, self._coming = self._coming, None
                self._interpreter = coming.result() if coming is not None else self._restored()
            self.used = True
            return self._interpreter

    def _restored(self) -> Interpreter:
        interpreter = self._pool.take(self.spec)
        payload, self._pending = self._pending, None
        if payload:
            try:
                interpreter.restore(payload)
                self._unchanged = (interpreter, payload)
            except SnapshotError as exc:
                logger.warning(
                    "Failed to restore GraalVM snapshot for slot_id=%s (%s); starting with empty globals.",
                    self.slot_id,
                    exc,
                )
                self.restore_failed = True
                self._pool.retire(interpreter)  # a restore stopped half-way may leave a partial state
                interpreter = self._pool.take(self.spec)
        return interpreter

    def eval(self, code: str, host: HostBinding | None = None) -> str:
        """Runs ``code`` after any eval already running in this slot; returns the model-facing text."""
        with self.held():
            return self.eval_held(code, host)

    async def aeval(self, code: str, host: HostBinding | None = None) -> str:
        """Async :meth:`eval`: never blocks the event loop, and cancelling it stops the guest."""
        async with self.aheld():
            return await self.aeval_held(code, host)

    def snapshot(self, max_bytes: int | None) -> bytes:
        """The globals of this slot's interpreter (waits for a running eval to finish)."""
        with self.held():
            return self.snapshot_held(max_bytes)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Keeps the slot to the caller: evals and snapshots of others wait until it ends. A cell under review
        holds it from its start snapshot to its roll-back, with the ``*_held`` methods inside."""
        with self._turn:
            yield

    @contextlib.asynccontextmanager
    async def aheld(self) -> AsyncIterator[None]:
        """Async :meth:`held`: waits without blocking the event loop."""
        while not self._turn.acquire(blocking=False):
            await asyncio.sleep(_WAIT_POLL_S)
        try:
            yield
        finally:
            self._turn.release()

    def eval_held(self, code: str, host: HostBinding | None = None) -> str:
        """:meth:`eval` inside :meth:`held`."""
        interpreter = self._ready()
        self._unchanged = None  # after the restore _ready may wait for
        text = interpreter.eval(code, host=host).text
        self._pool.replenish(self.spec)
        return text

    async def aeval_held(self, code: str, host: HostBinding | None = None) -> str:
        """:meth:`aeval` inside :meth:`aheld`."""
        interpreter = self._interpreter
        if interpreter is None:
            interpreter = await asyncio.to_thread(self._ready)
        self._unchanged = None  # after the restore _ready may wait for
        text = (await interpreter.aeval(code, host=host)).text
        self._pool.replenish(self.spec)
        return text

    def snapshot_held(self, max_bytes: int | None) -> bytes:
        """:meth:`snapshot` inside :meth:`held` (from any thread). Globals no eval changed since they were
        restored or saved give that payload again without a new snapshot."""
        interpreter = self._ready()
        unchanged = self._unchanged
        if unchanged is not None and unchanged[0] is interpreter and len(unchanged[1]) <= (max_bytes or sys.maxsize):
            return unchanged[1]
        payload = interpreter.snapshot(max_bytes=max_bytes)
        self._unchanged = (interpreter, payload)
        return payload

    def reset(self, payload: bytes) -> None:
        """Puts the globals back to ``payload``'s: the next eval runs in a new context restored from it. Call it
        between evals."""
        with self._setup:
            interpreter, self._interpreter = self._interpreter, None
            coming, self._coming = self._coming, None
            self._pending = payload
            self._unchanged = None
        if interpreter is not None:
            self._pool.retire(interpreter)
        if coming is not None:
            coming.add_done_callback(self._retire_result)

    def close(self) -> None:
        """Hands the interpreter to the pool to be closed; later evals in this slot fail."""
        with self._setup:
            self._closed = True
            interpreter, self._interpreter = self._interpreter, None
            coming, self._coming = self._coming, None
        if interpreter is not None:
            self._pool.retire(interpreter)
        if coming is not None:
            coming.add_done_callback(self._retire_result)

    def _retire_result(self, coming: Future[Interpreter]) -> None:
        if coming.exception() is None:
            self._pool.retire(coming.result())


class SlotRegistry:
    """The open slots of one middleware, by slot id, and the parked ones (see :meth:`park`)."""

    def __init__(
        self, pool: SparePool, *, max_parked: int = _MAX_PARKED, parked_idle_s: float = _PARKED_IDLE_S
    ) -> None:
        self._pool = pool
        self._lock = threading.Lock()
        self._slots: dict[str, Slot] = {}
        self._parked: collections.OrderedDict[str, tuple[Slot, float]] = collections.OrderedDict()
        self._max_parked = max_parked
        self._parked_idle_s = parked_idle_s

    def open(
        self, slot_id: str, spec: InterpreterOptions, pending: bytes | None = None, *, digest: bytes | None = None
    ) -> Slot:
        """The slot for a new run of ``slot_id``.

        That is the parked slot of the thread when its globals were last saved as the snapshot ``digest`` names
        (the one now stored), else a new slot that restores ``pending``. A slot left open under that id by an
        aborted run, and a parked slot that does not match, are closed.
        """
        with self._lock:
            stale = self._slots.pop(slot_id, None)
            parked = self._parked.pop(slot_id, (None, 0.0))[0]
            if parked is not None and digest is not None and parked.digest == digest and parked.warm:
                slot, parked = parked, None
                slot.begin_run()
            else:
                slot = Slot(slot_id, spec, self._pool, pending)
            self._slots[slot_id] = slot
        for unused in (stale, parked):
            if unused is not None:
                unused.close()
        return slot

    def park(self, slot: Slot, digest: bytes) -> None:
        """Keeps ``slot`` and its interpreter for the thread's next run, whose globals were saved as ``digest``.

        At most ``max_parked`` slots are kept, the most recently parked; one parked longer than
        ``parked_idle_s`` is closed the next time any slot is parked or opened.
        """
        slot.digest = digest
        now = time.monotonic()
        with self._lock:
            self._parked[slot.slot_id] = (slot, now)
            self._parked.move_to_end(slot.slot_id)
            unused = []
            while self._parked and (
                len(self._parked) > self._max_parked or next(iter(self._parked.values()))[1] < now - self._parked_idle_s
            ):
                unused.append(self._parked.popitem(last=False)[1][0])
        for old in unused:
            old.close()

    def get(self, slot_id: str) -> Slot | None:
        """The open slot for ``slot_id``, if any."""
        with self._lock:
            return self._slots.get(slot_id)

    def get_or_open(self, slot_id: str, spec: InterpreterOptions, pending: bytes | None = None) -> Slot:
        """The open slot for ``slot_id``, opened with ``pending`` to restore when there is none."""
        with self._lock:
            slot = self._slots.get(slot_id)
            if slot is None:
                slot = self._slots[slot_id] = Slot(slot_id, spec, self._pool, pending)
            return slot

    def pop(self, slot_id: str) -> Slot | None:
        """Removes and returns the slot for ``slot_id``; the caller closes it."""
        with self._lock:
            return self._slots.pop(slot_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._slots)

    def parked(self) -> int:
        """How many slots are parked."""
        with self._lock:
            return len(self._parked)

    def close(self) -> None:
        """Closes every open and parked slot."""
        with self._lock:
            slots = [*self._slots.values(), *(slot for slot, _ in self._parked.values())]
            self._slots.clear()
            self._parked.clear()
        for slot in slots:
            slot.close()


_registries: weakref.WeakSet[SlotRegistry] = weakref.WeakSet()


def new_registry() -> SlotRegistry:
    """A registry on the shared pool, closed at interpreter exit if it is still alive then."""
    registry = SlotRegistry(shared_pool())
    _registries.add(registry)
    return registry


def _close_all() -> None:
    for registry in list(_registries):
        registry.close()
    close_shared_pool()


def _on_jvm_start() -> None:
    # jpype registers its own exit handler when it is imported, and exit handlers run last-registered first, so
    # registering now closes the slots while the JVM is still up.
    atexit.register(_close_all)


_jvm.on_start(_on_jvm_start)
