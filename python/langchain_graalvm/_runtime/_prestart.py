"""Starting the JVM and building first contexts in the background, as soon as an interpreter or middleware is made.

A fresh process spends seconds starting the JVM and building its first GraalVM context. In an agent, the model's
first call takes seconds too, so an :class:`~langchain_graalvm.Interpreter` or a middleware queues that work here
when it is built, and the first eval usually finds a context ready. The rules that keep it safe:

- nothing runs at import: only building an interpreter or a middleware queues work;
- one daemon thread runs the queue in order, so two cold contexts never compete for the same cores;
- an error (no JDK, a bad runtime folder) is not lost here: the first eval does the same step itself and raises
  it there, where the caller sees it (the JVM's one start attempt remembers its failure for that);
- at exit, work not yet begun is dropped and the running step is waited for, before JPype shuts the JVM down,
  so a process that ends during the warm-up exits cleanly;
- a forked child never waits for the parent's thread, which it does not have: it forgets the queue.

``LANGCHAIN_GRAALVM_BACKGROUND_START=0`` turns it off: everything then starts on the first eval, as before.
"""

from __future__ import annotations

import atexit
import collections
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from .._settings import name_of, settings

logger = logging.getLogger("langchain_graalvm")

ENV = name_of("background_start")


def enabled() -> bool:
    """Whether building an interpreter or middleware starts the JVM in the background (the default)."""
    return settings().background_start


class _Lane:
    """A queue of warm-up steps run in order by one daemon thread, started when the first step is queued."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: collections.deque[tuple[Future[Any], Callable[[], Any]]] = collections.deque()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._hooked = False
        self._after_jpype = False  # the exit hook was registered after JPype's

    def submit(self, fn: Callable[[], Any], *, in_process: bool) -> Future[Any] | None:
        """Queues ``fn``; None when the process is exiting. ``in_process``: ``fn`` may start the in-process JVM."""
        if in_process and not self._after_jpype:
            # JPype shuts the JVM down from its own atexit hook, registered when it is imported; ours, registered
            # after it, runs first (atexit runs hooks last-in first-out), so the warm-up ends before the JVM does.
            # Imported here, on the caller's thread, before the hook is registered: when the warm-up's thread
            # imported it first and moved the hook after JPype's from there, a full test run saw a process that
            # exited during the warm-up abort ("exception not rethrown"). A step that runs in a sandbox worker
            # needs neither: JPype, and NumPy which it imports, would cost its fresh process about 0.1 s.
            import jpype  # noqa: F401

        with self._lock:
            if not self._hooked or (in_process and not self._after_jpype):
                if self._hooked:
                    atexit.unregister(self.close)  # registered before JPype's hook: moved after it
                atexit.register(self.close)
                self._hooked = True
                self._after_jpype = self._after_jpype or in_process
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                return None
            self._queue.append((future, fn))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="langchain-graalvm-prestart", daemon=True)
                self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._queue or self._closed:
                    self._thread = None
                    return
                future, fn = self._queue.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - kept for whoever waits; the first eval raises it again
                logger.debug("A background warm-up step failed", exc_info=True)
                future.set_exception(exc)

    def close(self) -> None:
        """Drops the steps not yet begun and waits for the running one (at exit)."""
        with self._lock:
            self._closed = True
            dropped = list(self._queue)
            self._queue.clear()
            thread = self._thread
        for future, _ in dropped:
            future.cancel()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    @property
    def closed(self) -> bool:
        return self._closed


_lane = _Lane()


def _forget_in_child() -> None:
    global _lane
    _lane = _Lane()


os.register_at_fork(after_in_child=_forget_in_child)


def wanted(choice: bool | None) -> bool:
    """An explicit choice, else the environment's (on unless ``LANGCHAIN_GRAALVM_BACKGROUND_START=0``)."""
    return enabled() if choice is None else choice


def submit(fn: Callable[[], Any], *, in_process: bool) -> Future[Any] | None:
    """Runs ``fn`` on the warm-up thread; None when the process is exiting.

    ``in_process``: ``fn`` may start the in-process JVM (False only for a step whose guest runs in a sandbox
    worker).
    """
    return _lane.submit(fn, in_process=in_process)


def exiting() -> bool:
    """Whether the process is exiting: a warm-up step that has not started the JVM yet should not."""
    return _lane.closed


class Pending:
    """A warm-up step some later call must wait for first; forgotten by a forked child, which never runs it."""

    __slots__ = ("_future", "_pid")

    def __init__(self, future: Future[Any] | None) -> None:
        self._future = future
        self._pid = os.getpid()

    def wait(self) -> bool:
        """Waits for the step unless it has not begun (then it is cancelled); its errors are not raised here.

        Returns whether the step ran (successfully or not).
        """
        future, self._future = self._future, None
        if future is None or self._pid != os.getpid() or future.cancel():
            return False
        try:
            future.result()
        except BaseException:  # noqa: BLE001 - the caller's own call repeats the step and raises its error
            pass
        return True

    def cancel(self) -> None:
        """Drops the step if it has not begun."""
        future = self._future
        if future is not None and self._pid == os.getpid():
            future.cancel()

    @property
    def forked(self) -> bool:
        """Whether this process is a fork of the one that queued the step."""
        return self._pid != os.getpid()
