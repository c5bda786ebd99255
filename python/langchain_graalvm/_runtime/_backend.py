"""What every backend gives the layers above it: one guest interpreter's handle, an eval's host-call channel, and
the plain outcome of an eval. Two backends implement it: in-process (:mod:`._adapter`, the JVM in this process
through JPype) and the worker (:mod:`._remote`, a JVM process of its own or the local server). Both send the same
values across (:mod:`._wire`). Nothing above this seam knows which one runs.
"""

from __future__ import annotations

import dataclasses
from typing import Literal, Protocol

from ..errors import SnapshotError

Status = Literal["ok", "error", "timeout", "limit"]


@dataclasses.dataclass(frozen=True)
class EvalOutcome:
    """What one eval produced.

    Attributes:
        status: ``"ok"``, ``"error"``, ``"timeout"`` or ``"limit"``.
        text: exactly the envelope the model sees (``<stdout>``, then ``<result>`` or ``<error>``).
        value: the rendered value of the last expression, or None when there was an error.
        stdout: console output, in order, as kept (at most ``max_result_chars`` characters).
        stdout_dropped: console characters that were not kept.
        error_type: ``TypeError``, ``SyntaxError``, ``Timeout``, ``OutOfMemory``, ... or None.
        error_message: the error's message, or None.
        error_stack: stack frames in the model's code, one per line, or ``""``.
        state_reset: True when the interpreter was rebuilt and lost its globals.
        duration_s: wall time of the eval in seconds.
    """

    status: Status
    text: str
    value: str | None
    stdout: str
    stdout_dropped: int
    error_type: str | None
    error_message: str | None
    error_stack: str
    state_reset: bool
    duration_s: float

    @property
    def ok(self) -> bool:
        """Whether the eval completed without an error."""
        return self.status == "ok"


def error_envelope(type_name: str, message: str) -> str:
    """An eval's ``<error>`` envelope for an error raised on the host side."""
    escaped = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<error type="{type_name}">{escaped}</error>'


def host_error_outcome(
    type_name: str, message: str, *, state_reset: bool, duration_s: float, status: Status = "error"
) -> EvalOutcome:
    """The outcome of an eval that the host ended (its worker was lost, say)."""
    return EvalOutcome(
        status=status,
        text=error_envelope(type_name, message),
        value=None,
        stdout="",
        stdout_dropped=0,
        error_type=type_name,
        error_message=message,
        error_stack="",
        state_reset=state_reset,
        duration_s=duration_s,
    )


PYTHON_MISSING = (
    "language='python' needs GraalPy, whose jars are not installed. In a development checkout run "
    "`bash scripts/setup.sh` (it builds them with `mvn -Ppython package` into "
    "java/target/runtime/python); elsewhere put them in <runtime>/python."
)


def decode_snapshot(payload: bytes) -> str:
    """A snapshot payload as text; SnapshotError when it is not UTF-8."""
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SnapshotError(f"invalid snapshot: not UTF-8 ({exc})") from None


@dataclasses.dataclass(frozen=True)
class HostFunctions:
    """The host functions one eval's guest gets (Java's ``Wire.bridge`` builds them from these fields).

    Attributes:
        tools: the names ``tools.*`` offers.
        expose_tools: whether the guest gets ``tools`` at all.
        expose_task: whether it gets ``task()``.
        max_tool_calls: the eval's budget of tool calls; None for no limit.
        expose_fs: whether it gets ``fs`` (JavaScript) or ``files`` (Python).
        random_seed: seeds the eval's random numbers (in [0, 2**53)); None leaves them unseeded.
        report_waits: adds a ``wait`` entry each time the guest waits on its calls alone.
        stream_output: adds an ``output`` entry (``[0, "output", stream, text]``) for what the guest prints, in
            order with its calls, up to the sandbox's per-eval cap.
    """

    tools: tuple[str, ...] = ()
    expose_tools: bool = False
    expose_task: bool = False
    max_tool_calls: int | None = None
    expose_fs: bool = False
    random_seed: int | None = None
    report_waits: bool = False
    stream_output: bool = False


class CallChannel(Protocol):
    """One eval's host calls, as the guest makes them."""

    def poll(self, timeout_ms: int) -> str | None:
        """Waits up to ``timeout_ms`` for calls: a JSON array of ``[callId, kind, name, input]`` entries (``"[]"``
        when none came; output entries among them when the eval streams it), or None once the eval ended and every
        call was collected."""
        ...

    def close(self) -> None:
        """Stops collecting: :meth:`poll` returns what is left, then None."""
        ...


class HostBinding(Protocol):
    """Host functions for one eval: opens the eval's channel on the guest it runs in."""

    def bind(self, guest: Guest) -> CallChannel:
        """Opens the channel (:meth:`Guest.open_calls`) and starts collecting its calls."""
        ...


class Guest(Protocol):
    """One guest interpreter of a backend: a context with its globals, and the eval thread that runs it."""

    def is_closed(self) -> bool:
        """Closed by :meth:`close`, or by the backend once an eval's outcome said the globals are gone (a guest
        stuck in a builtin, a worker lost during an eval or reported lost by the eval after it): a new one is
        needed. A worker that died between evals is not closed yet: see :meth:`lost_unreported`."""
        ...

    def lost_unreported(self) -> bool:
        """Whether the globals were lost without an eval saying so (a worker that died between evals): the next
        eval returns an ``InternalError`` outcome that says so, and only then is the guest closed."""
        ...

    def prepare(self) -> None: ...

    def eval(self, code: str, host: HostBinding | None) -> EvalOutcome:
        """Runs one cell (blocking); with ``host``, the cell gets the host functions it describes."""
        ...

    def cancel(self) -> None: ...

    def snapshot(self, max_bytes: int | None) -> bytes: ...

    def restore(self, payload: bytes) -> list[str]: ...

    def close(self) -> None: ...

    def open_calls(self, functions: HostFunctions) -> CallChannel:
        """The channel of the next eval's host calls, which gets ``functions``."""
        ...

    def complete_host_calls(self, call_ids: list[int], batch_json: str) -> None:
        """Settles a batch of host calls (``batch_json``: ``[[id, ok, value], ...]``)."""
        ...

    def imports_modules(self) -> bool: ...

    def complete_module_read(self, call_id: int, ok: bool, text: str) -> None: ...
