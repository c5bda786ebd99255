"""The host side of the guest's calls: collects them from Java, runs them on an event loop, settles their Promises.

The guest thread hands each call over without waiting; a pump thread collects them in batches (waiting in Java,
without the GIL) and hands them to an event loop (the caller's, or a private one for synchronous evals), where each
runs as a task; results go back to the guest thread in one batch per loop iteration. Nothing here blocks the event
loop or holds the GIL while the guest waits.

:class:`CallPump` serves what an interpreter has on its own: the agent's files (``fs`` in JavaScript, ``files`` in
Python) and imports from them, and hands what the guest prints to an ``on_output`` callback (:mod:`._output`)
while the cell runs. It is separate from ``agents/_hostcalls.py`` (tools, ``task()``, reviews and replay,
built on it) so that an ``Interpreter(files=...)`` loads no LangChain, LangGraph or pydantic module. How values
cross lives here too: JSON with a few tagged forms both sides agree on (``decode_calls`` in, ``guest_value`` out).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import dataclasses
import json
import logging
import math
import sys
import time
from collections.abc import Mapping
from typing import Any

from ._files import FileCalls
from ._loop import pumps
from ._output import GuestOutput, OutputCallback, OutputRelay
from ._runtime._backend import CallChannel, Guest, HostFunctions
from .errors import FsError, HostCallError

logger = logging.getLogger("langchain_graalvm.ptc")

_POLL_MS = 500
_OUTPUT_GRACE_S = 2.0  # how long the end of an eval waits for its output to reach on_output
_MAX_SAFE_INT = 2**53
TAG_BIGINT = "\u0000bigint"
TAG_BYTES = "\u0000bytes"
TAG_NUMBER = "\u0000number"

__all__ = [
    "CallPump",
    "CannotCross",
    "GuestCall",
    "GuestOutput",
    "cancelled_from_outside",
    "decode_calls",
    "guest_value",
    "label",
]


def label(kind: str, name: str) -> str:
    """How the guest names a call in its errors: ``tools.search``, ``task``, ``fs.readFile``."""
    return {"task": "task", "fs": f"fs.{name}"}.get(kind, f"tools.{name}")


def cancelled_from_outside() -> bool:
    """Whether the running task was asked to stop (the eval ended), not merely handed a ``CancelledError`` that a
    tool raised of its own accord."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


class CallPump:
    """The host calls of one eval: its files, when it has them, and its live output, when ``on_output`` is given.
    Create one per eval, pass it as ``host=``, :meth:`close` it afterwards, then :meth:`flush_output`.

    Subclasses add calls (:meth:`_call`), give the guest more host functions (:meth:`_functions`), and decide which
    failures end the whole eval instead of the one call (:meth:`_ends_eval`).
    """

    # Exceptions a call may raise that are not the guest's to see: they leave :meth:`_outcome` as they are.
    _passes_through: tuple[type[BaseException], ...] = ()

    def __init__(
        self, loop: asyncio.AbstractEventLoop, files: FileCalls | None, on_output: OutputCallback | None = None
    ) -> None:
        self._loop = loop
        self._files = files
        # The context the eval was made in (an agent's run config, its tracing): every call runs in a copy of it,
        # so calls see the eval as their parent even on another thread's loop. So does on_output.
        self._context = contextvars.copy_context()
        self._output = OutputRelay(on_output, self._context.copy()) if on_output is not None else None
        self._pumping: concurrent.futures.Future[None] | None = None
        self._guest: Guest | None = None
        self._channel: CallChannel | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._done: list[tuple[int, bool, str]] = []  # (call id, ok, value as JSON)
        self._flush_scheduled = False
        self._open_calls = 0  # calls handed to the loop whose result the guest has not been sent yet
        self._completed = 0  # results sent to the guest (module reads aside), as Java counts them
        self.interrupt: BaseException | None = None
        """What a call raised that stops the eval and is raised for it instead of its outcome; None otherwise."""
        self.failure: str | None = None
        """Why the eval was ended from the host (its calls could not be collected or answered); None otherwise."""

    @property
    def files_touched(self) -> list[tuple[str, str]] | None:
        """The ``(operation, path)`` pairs of this eval's ``fs`` calls so far; None without ``fs``."""
        return self._files.touched if self._files is not None else None

    # -------------------------------------------------------------------------------- wiring to the guest

    def bind(self, guest: Guest) -> CallChannel:
        """Opens the eval's channel on ``guest`` and starts collecting its calls."""
        self._guest = guest
        self._channel = guest.open_calls(self._functions())
        self._pumping = pumps().submit(self._pump, self._channel)
        return self._channel

    def _functions(self) -> HostFunctions:
        """The host functions this eval gives the guest."""
        return HostFunctions(expose_fs=self._files is not None, stream_output=self.streams_output)

    @property
    def streams_output(self) -> bool:
        """Whether the guest's output is streamed to an ``on_output`` callback while the cell runs."""
        return self._output is not None

    def _pump(self, channel: CallChannel) -> None:
        """Collects the guest's calls in batches and hands them to the loop.

        Nothing the guest sends can end it: each call's input is decoded on its own, and one that cannot be read
        fails that call alone. Should the pump itself fail, the eval is stopped with the reason, never left to
        wait on calls nobody collects."""
        try:
            while True:
                batch = channel.poll(_POLL_MS)
                if batch is None:
                    return
                calls = self._calls_of(decode_calls(batch))
                if calls:
                    self._loop.call_soon_threadsafe(self._spawn, calls)
        except RuntimeError:  # the loop is closed: nobody is left to run the calls
            logger.debug("host calls dropped: the event loop is closed")
        except BaseException as exc:  # noqa: BLE001 - never let a pump thread die silently
            logger.exception("host-call pump failed")
            self._stop(failure=f"the host stopped collecting the eval's tool calls ({exc!r})")

    def _calls_of(self, items: list[GuestCall | GuestOutput]) -> list[GuestCall]:
        """The calls of a batch; its output goes to the relay, never run on this thread."""
        calls = []
        for item in items:
            if isinstance(item, GuestCall):
                calls.append(item)
            elif self._output is not None:
                self._output.put(item.stream, item.text)
        return calls

    def _spawn(self, calls: list[GuestCall]) -> None:
        if self._closed:
            return
        for call in calls:
            if call.kind == "wait":
                # After the first steps of the tasks just created (the loop runs callbacks in order): the calls
                # the guest started before it waited are all registered by then.
                self._loop.call_soon(self._guest_waiting, call.call_id)
                continue
            if call.refused is not None:
                message = f"{label(call.kind, call.name)}: {call.refused}"
                self._complete(call.call_id, False, {"type": "TypeError", "message": message})
                continue
            self._open_calls += 1
            run = self._run(call.call_id, call.kind, call.name, call.args)
            task = self._loop.create_task(run, context=self._context.copy())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _guest_waiting(self, settled: int) -> None:
        """The guest waits on its calls with nothing else to run, having been sent ``settled`` results (only
        reported when :meth:`_functions` asks for it with ``report_waits``)."""

    def _complete(self, call_id: int, ok: bool, value: Any) -> None:
        """Queues a result; the results of one loop iteration go to Java in one batch. A value with no JSON form
        fails its own call, never the batch."""
        self._completed += 1
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (ValueError, TypeError, RecursionError) as exc:
            ok, text = False, json.dumps({"type": "TypeError", "message": f"the result cannot be sent back: {exc}"})
        self._done.append((call_id, ok, text))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        batch, self._done = self._done, []
        if not batch or self._guest is None:
            return
        text = "[" + ",".join(f"[{call_id},{'true' if ok else 'false'},{value}]" for call_id, ok, value in batch) + "]"
        try:
            self._guest.complete_host_calls([entry[0] for entry in batch], text)
        except Exception as exc:  # noqa: BLE001 - the guest waits on these results: stop it rather than hang
            logger.exception("host-call results could not be handed to the guest")
            self._stop(failure=f"the host could not hand the eval its tool results ({exc!r})")

    def _stop(self, *, interrupt: BaseException | None = None, failure: str | None = None) -> None:
        """Ends the eval from the host; the first reason given is the one kept."""
        if self.interrupt is None and self.failure is None:
            self.interrupt, self.failure = interrupt, failure
        if self._guest is not None:
            self._guest.cancel()

    def close(self) -> None:
        """Ends the eval's calls: stops collecting new ones and cancels those still running."""
        self._closed = True
        if self._channel is not None:
            self._channel.close()
        if not self._tasks:
            return

        def cancel_all() -> None:
            for task in list(self._tasks):
                task.cancel()

        try:
            self._loop.call_soon_threadsafe(cancel_all)
        except RuntimeError:
            pass

    def flush_output(self, timeout: float = _OUTPUT_GRACE_S) -> bool:
        """After :meth:`close`: waits up to ``timeout`` seconds until the output the guest printed has reached
        ``on_output``; whether it did. A slower callback goes on in the background, in order."""
        if self._output is None:
            return True
        deadline = time.monotonic() + timeout
        if self._pumping is not None:
            try:
                self._pumping.result(timeout)  # the pump ends once it collected what the closed channel held
            except concurrent.futures.TimeoutError:
                return False
        return self._output.wait(max(0.0, deadline - time.monotonic()))

    async def aflush_output(self, timeout: float = _OUTPUT_GRACE_S) -> bool:
        """:meth:`flush_output` without blocking the event loop."""
        if self._output is None or (self._output.idle and (self._pumping is None or self._pumping.done())):
            return True
        return await asyncio.to_thread(self.flush_output, timeout)

    # -------------------------------------------------------------------------------- running one call

    async def _run(self, call_id: int, kind: str, name: str, args: dict[str, Any]) -> None:
        try:
            if kind == "fs" and name == "module":
                await self._read_module(call_id, args)
                return
            try:
                payload, ok = await self._result(kind, name, args)
            except BaseException as exc:  # noqa: BLE001 - the guest's promise must settle whatever failed on the host
                if isinstance(exc, asyncio.CancelledError) and cancelled_from_outside():
                    raise
                if self._ends_eval(exc):
                    return
                payload, ok = {"type": "HostError", "message": f"{label(kind, name)} failed: {exc or repr(exc)}"}, False
            self._complete(call_id, ok, payload)
        finally:
            self._open_calls -= 1

    async def _result(self, kind: str, name: str, args: dict[str, Any]) -> tuple[Any, bool]:
        """The call's :meth:`_outcome`; a subclass may record it, or replay a recorded one."""
        return await self._outcome(kind, name, args)

    def _ends_eval(self, exc: BaseException) -> bool:  # noqa: ARG002 - files alone never end an eval
        """Whether ``exc``, raised past :meth:`_outcome`, stops the whole eval (the subclass stops it) rather than
        failing its call."""
        return False

    async def _outcome(self, kind: str, name: str, args: dict[str, Any]) -> tuple[Any, bool]:
        """What the guest gets for one call: ``(value, True)``, or ``(error, False)`` for any failure."""
        try:
            return self._to_guest(await self._call(kind, name, args)), True
        except self._passes_through:
            raise
        except asyncio.CancelledError as exc:
            if cancelled_from_outside():
                raise
            return self._rejection(kind, name, exc), False
        except HostCallError as exc:
            return {"type": exc.type_name, "message": str(exc)}, False
        except FsError as exc:
            return exc.payload(), False
        except CannotCross as exc:
            return {"type": "TypeError", "message": f"{label(kind, name)}: {exc}"}, False
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a rejection the guest can read
            # SystemExit, KeyboardInterrupt, GeneratorExit and the like included: raised by a call, they would end
            # the event loop's thread, or leave the eval.
            return self._rejection(kind, name, exc), False

    async def _call(self, kind: str, name: str, args: dict[str, Any]) -> Any:
        """Runs one call; what it returns goes to the guest through :meth:`_to_guest`."""
        if kind == "fs":
            return await self._run_fs(name, args)
        raise HostCallError("HostError", f"{label(kind, name)} is not available in this eval")

    def _to_guest(self, value: Any) -> Any:
        return guest_value(value)

    def _rejection(self, kind: str, name: str, exc: BaseException) -> dict[str, str]:
        """The error the guest reads for a call that raised ``exc``."""
        return {"type": type(exc).__name__, "message": f"{label(kind, name)} failed: {exc or repr(exc)}"}

    async def _run_fs(self, op: str, args: dict[str, Any]) -> Any:
        """One ``fs`` call (``files`` in Python)."""
        if self._files is None:
            raise HostCallError("HostError", f"fs.{op} is not available in this eval")
        return await self._files.run(op, args)

    async def _read_module(self, call_id: int, args: dict[str, Any]) -> None:
        """Serves an import: the guest thread waits in Java for the module's source, delivered outside the batch."""
        if self._guest is None or not self._guest.imports_modules():
            self._complete(call_id, False, {"type": "Error", "message": "fs.module is not available in this eval"})
            return
        try:
            text, ok = await self._run_fs("module", args), True
        except FsError as exc:
            text, ok = str(exc), False
        except BaseException as exc:  # noqa: BLE001 - the import fails with the reason, the eval goes on
            if isinstance(exc, asyncio.CancelledError) and cancelled_from_outside():
                raise
            text, ok = f"EIO: the module could not be read: {exc}", False
        if self._guest is not None and not self._closed:
            self._guest.complete_module_read(call_id, ok, text)


# ------------------------------------------------------------------------------------------------ values


def guest_value(value: Any) -> Any:
    """A host value as JSON-ready data the guest receives natively.

    Strings, numbers, booleans and None stay as they are (integers past 2**53 and non-finite floats tagged); lists,
    tuples and mappings are converted recursively; pydantic models become their ``model_dump()``; bytes become a
    ``Uint8Array``; other values become ``str(value)``.
    """
    return _plain(value, 0)


def _tag_number(value: float) -> Any:
    return value if math.isfinite(value) else {TAG_NUMBER: repr(value).replace("inf", "Infinity").replace("nan", "NaN")}


def _plain(value: Any, depth: int) -> Any:
    if depth > 200:
        raise ValueError("the tool's result is nested more than 200 levels deep")
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return value if -_MAX_SAFE_INT < value < _MAX_SAFE_INT else {TAG_BIGINT: _digits(value)}
    if isinstance(value, float):
        return _tag_number(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {TAG_BYTES: list(bytes(value))}
    # A pydantic model exists only once pydantic is loaded: looked up, not imported, so that files alone load none.
    pydantic_main = sys.modules.get("pydantic.main")
    if pydantic_main is not None and isinstance(value, pydantic_main.BaseModel):
        return _plain(value.model_dump(), depth + 1)
    if isinstance(value, Mapping):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return str(value)


class CannotCross(ValueError):
    """A guest value the host cannot take as it is: the guest gets this message as a ``TypeError``."""


def _bounded_int(text: str) -> int:
    limit = sys.get_int_max_str_digits()
    if limit and len(text.lstrip("-")) > limit:
        raise CannotCross(
            f"an integer of {len(text.lstrip('-'))} digits cannot be sent to the host (at most {limit} digits); "
            "send it as a string"
        )
    return int(text)


def _digits(value: int) -> str:
    try:
        return str(value)
    except ValueError:  # over the interpreter's limit for int-to-str conversion
        raise CannotCross(
            f"an integer of more than {sys.get_int_max_str_digits()} digits cannot be sent to the guest; "
            "return it as a string"
        ) from None


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        ((key, value),) = obj.items()
        if key == TAG_BIGINT and isinstance(value, str):
            return _bounded_int(value)
        if key == TAG_NUMBER and value in ("NaN", "Infinity", "-Infinity"):
            return float(value.replace("Infinity", "inf"))
        if key == TAG_BYTES and isinstance(value, list):
            try:
                return bytes(value)
            except (ValueError, TypeError):
                raise CannotCross("bytes sent to the host must be whole numbers from 0 to 255") from None
    return obj


@dataclasses.dataclass(frozen=True)
class GuestCall:
    """One call from the guest: its arguments, or why they cannot be read (``refused``) and so the call fails."""

    call_id: int
    kind: str
    name: str
    args: dict[str, Any]
    refused: str | None = None


def decode_calls(text: str) -> list[GuestCall | GuestOutput]:
    """A batch of guest calls: ``[callId, kind, name, inputText]`` entries written by the host (Java).

    Each input is the guest's own JSON text, which guest code can shape at will, so it is decoded on its own: one
    that is not a JSON object, or holds a value the host cannot take (an integer too long to read, a malformed
    tag), refuses that call alone. An ``[0, "output", stream, text]`` entry (id 0 is never a call's) is what the
    guest printed, in order with its calls: ``text`` is the text itself, not JSON.
    """
    calls: list[GuestCall | GuestOutput] = []
    for call_id, kind, name, raw in json.loads(text):
        if kind == "output" and call_id == 0:
            calls.append(GuestOutput("stderr" if name == "stderr" else "stdout", str(raw)))
            continue
        try:
            args = json.loads(raw, object_hook=_untag, parse_int=_bounded_int)
        except CannotCross as exc:
            calls.append(GuestCall(int(call_id), str(kind), str(name), {}, str(exc)))
            continue
        except (ValueError, TypeError, RecursionError) as exc:
            why = f"the arguments are not valid JSON ({exc})"
            calls.append(GuestCall(int(call_id), str(kind), str(name), {}, why))
            continue
        calls.append(GuestCall(int(call_id), str(kind), str(name), args if isinstance(args, dict) else {}))
    return calls
