"""Live output: what an eval's guest prints, handed to the caller's ``on_output`` callback while the cell runs.

The pump (:mod:`._hostcalls`) takes the guest's output from Java along with its calls and puts it here. Each eval
has one :class:`OutputRelay`, drained by one thread at a time from a shared pool, so the callback sees the output
in order, and a slow or raising callback stalls neither the guest (which never waits for it) nor the eval's host
calls (the pump never runs it). It is a module of its own because nothing in it is about calls: it only keeps
order, merges what piled up and contains the callback.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextvars
import dataclasses
import logging
import threading
from collections.abc import Callable

from ._runtime._pools import shared_pool
from .errors import OptionsError

logger = logging.getLogger("langchain_graalvm")

OutputCallback = Callable[[str, str], None]
"""``on_output(stream, text)``: ``stream`` is ``"stdout"`` or ``"stderr"``."""

_DELIVERY_WORKERS = 32

__all__ = ["GuestOutput", "OutputCallback", "OutputRelay", "check_callback"]


@dataclasses.dataclass(frozen=True)
class GuestOutput:
    """What the guest wrote to ``stream`` (``"stdout"`` or ``"stderr"``), as written."""

    stream: str
    text: str


def check_callback(on_output: object) -> OutputCallback | None:
    """``on_output`` as given, when it is None or callable; OptionsError otherwise."""
    if on_output is not None and not callable(on_output):
        raise OptionsError(
            f"on_output must be a callable taking (stream, text), or None; got {type(on_output).__name__}"
        )
    return on_output


def _delivery_pool() -> concurrent.futures.ThreadPoolExecutor:
    """Threads that run ``on_output`` callbacks: one at a time per eval."""
    return shared_pool("output", _DELIVERY_WORKERS)


class OutputRelay:
    """One eval's live output on its way to ``callback``.

    :meth:`put` never blocks and never runs the callback. A delivery takes everything put so far, joins the
    consecutive pieces of one stream into one call, and runs the callback in ``context`` (the eval's context
    variables, so that a LangGraph stream writer finds its run), then looks again. A callback that raises is logged
    once (logger ``langchain_graalvm``, WARNING) and keeps getting the output that follows.
    """

    def __init__(self, callback: OutputCallback, context: contextvars.Context) -> None:
        self._callback = callback
        self._context = context
        self._idle = threading.Condition()
        self._pending: collections.deque[tuple[str, str]] = collections.deque()
        self._busy = False  # a delivery is scheduled or running
        self.failures = 0
        """How many calls of the callback raised."""

    def put(self, stream: str, text: str) -> None:
        """Queues ``text`` written to ``stream``; called by the pump thread."""
        if not text:
            return
        with self._idle:
            self._pending.append((stream, text))
            if self._busy:
                return
            self._busy = True
        try:
            _delivery_pool().submit(self._deliver)
        except RuntimeError:  # the interpreter is shutting down: nobody is left to read it
            with self._idle:
                self._pending.clear()
                self._busy = False
                self._idle.notify_all()

    def wait(self, timeout: float) -> bool:
        """Waits up to ``timeout`` seconds until everything put so far was delivered; whether it was."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._busy, timeout)

    @property
    def idle(self) -> bool:
        """Whether everything put so far was delivered."""
        with self._idle:
            return not self._busy

    def _deliver(self) -> None:
        while True:
            with self._idle:
                if not self._pending:
                    self._busy = False
                    self._idle.notify_all()
                    return
                taken = list(self._pending)
                self._pending.clear()
            for stream, text in _joined(taken):
                try:
                    self._context.run(self._callback, stream, text)
                except BaseException:  # noqa: BLE001 - the callback is the caller's: its failure is not the eval's
                    self.failures += 1
                    if self.failures == 1:
                        logger.warning(
                            "the on_output callback raised; the eval goes on (reported once per eval)", exc_info=True
                        )


def _joined(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``pieces`` with the consecutive ones of one stream joined: fewer calls, the same order."""
    runs: list[tuple[str, list[str]]] = []
    for stream, text in pieces:
        if runs and runs[-1][0] == stream:
            runs[-1][1].append(text)
        else:
            runs.append((stream, [text]))
    return [(stream, "".join(texts)) for stream, texts in runs]
