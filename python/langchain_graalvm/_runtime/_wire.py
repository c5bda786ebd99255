"""The wire to the Java sandbox: every message and every value that crosses to it, in MessagePack.

This module is the Python side of Java's ``worker.WorkerServer`` (the messages) and ``worker.Wire`` (the values),
and the only module that imports :mod:`msgpack`. Both backends use it:

- the in-process backend sends an interpreter's options (:func:`pack_options`) and an eval's host functions
  (:func:`pack_bridge`) across JPype as one MessagePack map each, and reads an outcome back the same way
  (:func:`unpack_outcome`), one call instead of one per field;
- the worker backend sends the same maps inside the protocol's messages over a :class:`Connection`: a worker's
  pipe (:mod:`._worker`) or the local server's socket (:mod:`._server`).

Messages, client to server (``rid`` is a request's id, ``gid`` an interpreter's)::

    ["hello", rid]                        -> ["ok", rid, {protocol, build, graalvm, python}]
    ["new", rid, options]                 -> ["ok", rid, [gid, importsModules]]
    ["prepare", rid, gid]                 -> ["ok", rid, nil]
    ["eval", rid, gid, code, bridge|nil]  -> ["calls", rid, batch]*, then ["outcome", rid, outcome]
    ["complete", gid, [callId...], batch]    (no answer)
    ["module", gid, callId, ok, text]        (no answer)
    ["cancel", gid]                          (no answer)
    ["snapshot", rid, gid, maxBytes]      -> ["ok", rid, text] or ["snapshot-error", rid, message, tooLarge]
    ["restore", rid, gid, text]           -> ["ok", rid, [name...]] or ["snapshot-error", rid, message, false]
    ["close", rid, gid]                   -> ["ok", rid, nil]
    ["facts", rid]                        -> ["ok", rid, {...}]

Any request may get ``["error", rid, kind, message]`` instead. Text that holds lone surrogates goes out as binary
UTF-16LE (:func:`wire_text`); text that comes back has them escaped.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import queue
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import msgpack

from ..errors import SnapshotError
from ..options import InterpreterOptions
from ._backend import EvalOutcome, HostFunctions

logger = logging.getLogger("langchain_graalvm")

PROTOCOL = 1
"""The protocol's version (``WorkerServer.PROTOCOL`` on the Java side)."""

START_DEADLINE_S = 180.0
"""How long a new worker or server may take to answer its first request (a cold JVM on a loaded machine)."""


# ------------------------------------------------------------------------------------------------ values


def options_fields(o: InterpreterOptions) -> dict[str, Any]:
    """An interpreter's options as the sandbox reads them (``Wire.newGuest`` on the Java side)."""
    return {
        "language": o.language,
        "timeoutNanos": _nanos(o.timeout),
        "interruptGraceNanos": _nanos(o.interrupt_grace),
        "memoryLimitBytes": o.memory_limit,
        "maxResultChars": o.max_result_chars,
        "captureConsole": o.capture_console,
        "clock": "HOST" if o.clock == "host" else "FROZEN",
        "frozenEpochMillis": o.frozen_epoch_ms,
        "snapshots": o.snapshots,
        "heapFactor": float(o.heap_factor),
        "maxWallTimeNanos": _nanos(o.max_wall_time),
        "agentModules": o.agent_modules and o.language == "js",
        "maxCodeBytes": o.max_code_bytes,
        "maxNesting": o.max_nesting,
    }


def pack_options(o: InterpreterOptions) -> bytes:
    """:func:`options_fields` as one MessagePack map."""
    packed: bytes = msgpack.packb(options_fields(o))
    return packed


def _nanos(seconds: float) -> int:
    return max(1, round(seconds * 1e9))


def bridge_spec(f: HostFunctions) -> dict[str, Any]:
    """An eval's host functions as the sandbox reads them (``Wire.bridge`` on the Java side)."""
    return {
        "tools": list(f.tools),
        "exposeTools": f.expose_tools,
        "exposeTask": f.expose_task,
        "maxToolCalls": f.max_tool_calls or 0,
        "exposeFs": f.expose_fs,
        "randomSeed": f.random_seed,
        "reportWaits": f.report_waits,
        "streamOutput": f.stream_output,
    }


def pack_bridge(spec: dict[str, Any]) -> bytes:
    """A :func:`bridge_spec` as one MessagePack map."""
    packed: bytes = msgpack.packb(spec)
    return packed


def outcome_from_fields(fields: dict[str, Any]) -> EvalOutcome:
    """An outcome from its fields (Java's ``Wire.fields``): a worker's ``outcome`` message carries them."""
    return EvalOutcome(
        status=fields["status"],
        text=fields["text"],
        value=fields["value"],
        stdout=fields["stdout"],
        stdout_dropped=int(fields["stdoutDropped"]),
        error_type=fields["errorType"],
        error_message=fields["errorMessage"],
        error_stack=fields["errorStack"],
        state_reset=bool(fields["stateReset"]),
        duration_s=int(fields["durationNanos"]) / 1e9,
    )


def unpack_outcome(packed: bytes) -> EvalOutcome:
    """An outcome from the one MessagePack map Java's ``Wire.outcome`` made of it."""
    return outcome_from_fields(msgpack.unpackb(packed))


def wire_text(text: str) -> str | bytes:
    """Text to send: a string, or UTF-16LE bytes when it holds lone surrogates (UTF-8 cannot carry them)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass")
    return text


# ------------------------------------------------------------------------------------------------ the connection


class WorkerLost(Exception):
    """The other end died or stopped answering; ``str()`` says how, in a sentence."""


class WorkerError(Exception):
    """A request answered with an error: ``kind`` is its Java exception's name, or ``"broken"``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclasses.dataclass
class _Pending:
    future: Future[Any]
    calls: queue.SimpleQueue[str | None] | None = None  # an eval's host-call batches, in order


class Connection:
    """A stream to a ``WorkerServer``: numbered requests, their answers, and messages without one. Thread-safe.

    Subclasses give the bytes' way in and out (:meth:`_send_bytes`, :meth:`_recv`), start :meth:`_read` on a
    thread of their own, and say what a missed deadline does and how the other end was lost."""

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

    # ---------------------------------------------------------------------------------------------- the messages

    def hello(self) -> dict[str, Any]:
        """The other end's protocol, build and languages."""
        return dict(self.request("hello", deadline=START_DEADLINE_S))

    def new_guest(self, options: InterpreterOptions) -> tuple[int, bool]:
        """A new interpreter there: its id, and whether it imports modules."""
        gid, imports = self.request("new", options_fields(options), deadline=START_DEADLINE_S)
        return int(gid), bool(imports)

    def prepare(self, gid: int, *, deadline: float) -> None:
        self.request("prepare", gid, deadline=deadline)

    def eval(
        self,
        gid: int,
        code: str,
        spec: dict[str, Any] | None,
        *,
        deadline: float,
        calls: queue.SimpleQueue[str | None] | None,
    ) -> dict[str, Any]:
        """Runs a cell; its host-call batches go to ``calls`` as they come. The outcome's fields, with ``closed``
        when the interpreter was given up (stuck in a builtin)."""
        return dict(self.request("eval", gid, wire_text(code), spec, deadline=deadline, calls=calls))

    def complete(self, gid: int, call_ids: list[int], batch_json: str) -> None:
        self.send("complete", gid, list(call_ids), wire_text(batch_json))

    def module(self, gid: int, call_id: int, ok: bool, text: str) -> None:
        self.send("module", gid, call_id, ok, wire_text(text))

    def cancel(self, gid: int) -> None:
        self.send("cancel", gid)

    def snapshot(self, gid: int, max_bytes: int, *, deadline: float) -> str:
        return str(self.request("snapshot", gid, max_bytes, deadline=deadline))

    def restore(self, gid: int, text: str, *, deadline: float) -> list[str]:
        return list(self.request("restore", gid, wire_text(text), deadline=deadline))

    def close_guest(self, gid: int) -> None:
        self.request("close", gid, deadline=30.0)

    def facts(self) -> dict[str, Any]:
        return dict(self.request("facts", deadline=60.0))

    # ---------------------------------------------------------------------------------------------- the framing

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
