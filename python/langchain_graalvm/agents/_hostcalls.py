"""The host side of ``tools.*`` and ``task()``: runs the guest's calls on an event loop and settles their Promises.

The guest thread hands each call over without waiting (``call_soon_threadsafe``); async tools and subagents run as
tasks on the agent's event loop (or on a private loop for synchronous agents), synchronous tools in a bounded
thread pool, and each result goes back through ``Interpreter.completeHostCall``, which queues it for the guest
thread. Nothing here blocks the event loop or holds the GIL while the guest waits.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import functools
import hashlib
import json
import logging
import secrets
import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.errors import GraphBubbleUp, is_invalid_resume
from pydantic import ValidationError

from .. import _files
from .._runtime._backend import CallChannel, Guest
from ..errors import FsError, HostCallError, SnapshotError
from . import _ptc
from ._context import EvalContext
from ._events import SubagentCompleteEvent, SubagentErrorEvent, SubagentStartEvent, SubagentStreamEvent
from ._injection import inject, runs_natively_async, tool_facts, validation_message
from ._loop import private_loop, pumps, sync_tool_pool
from ._replay import DurableCalls, ReplayError
from ._subagents import SubagentDispatch

logger = logging.getLogger("langchain_graalvm.ptc")

_POLL_MS = 500
_FS_WRITES = frozenset({"writeFile", "rm"})

__all__ = [
    "EvalContext",
    "HostCalls",
    "SubagentCompleteEvent",
    "SubagentErrorEvent",
    "SubagentStartEvent",
    "SubagentStreamEvent",
    "private_loop",
]


def _label(kind: str, name: str) -> str:
    return {"task": "task", "fs": f"fs.{name}"}.get(kind, f"tools.{name}")


class _ToolRaised(Exception):  # noqa: N818 - it carries what the tool raised
    """A ``BaseException`` that is not an ``Exception`` (``SystemExit``, ``GeneratorExit``...) raised by a synchronous
    tool, carried back from its thread as an ordinary exception: awaited from the executor, ``GeneratorExit`` would
    close the coroutines that wait for it instead of reaching their handlers."""

    def __init__(self, raised: BaseException) -> None:
        super().__init__(str(raised))
        self.raised = raised


def _contained(run: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Runs a synchronous tool in its thread; what it raises comes back as an ``Exception``."""
    try:
        return run(*args, **kwargs)
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit from argparse, KeyboardInterrupt, GeneratorExit...
        raise _ToolRaised(exc) from None


def _contained_async(tool: BaseTool) -> BaseTool:
    """The tool, its coroutine wrapped so that a ``SystemExit`` or ``KeyboardInterrupt`` it raises comes back as an
    ordinary exception: ``arun`` runs it in a task of its own, and asyncio lets those two leave the event loop from a
    task's step, whoever awaits the task. Only a ``StructuredTool``'s coroutine can be wrapped; another tool class
    with async code of its own is called as it is."""
    coroutine = getattr(tool, "coroutine", None)
    if not isinstance(tool, StructuredTool) or coroutine is None:
        return tool

    @functools.wraps(coroutine)
    async def contained(*args: Any, **kwargs: Any) -> Any:
        try:
            return await coroutine(*args, **kwargs)
        except (Exception, asyncio.CancelledError):
            raise
        except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt, GeneratorExit
            raise _ToolRaised(exc) from None

    return tool.model_copy(update={"coroutine": contained})


def _raised(kind: str, name: str, exc: BaseException) -> dict[str, str]:
    """The error the guest reads for a call that raised ``exc``."""
    if isinstance(exc, _ToolRaised):
        exc = exc.raised
    return {"type": type(exc).__name__, "message": f"{_label(kind, name)} failed: {exc or repr(exc)}"}


def _cancelled_from_outside() -> bool:
    """Whether the running task was asked to stop (the eval ended), not merely handed a ``CancelledError`` that a
    tool raised of its own accord."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


def _unsaved_why(exc: Exception) -> str:
    """Why the globals a cell under review starts from could not be saved, and what to do about it."""
    if isinstance(exc, SnapshotError) and exc.too_large:
        return (
            "the globals this cell started from could not be saved: they exceed max_snapshot_bytes (delete large "
            "globals that are no longer needed, or raise max_snapshot_bytes)"
        )
    return f"the globals this cell started from could not be saved ({exc or type(exc).__name__})"


class HostCalls:
    """The host calls of one eval. Create one per eval, pass it as ``host=``, and :meth:`close` it afterwards."""

    def __init__(
        self, ctx: EvalContext, loop: asyncio.AbstractEventLoop, durable: DurableCalls | None = None
    ) -> None:
        self._ctx = ctx
        self._loop = loop
        # The eval tool's context (its run config, tracing): every call runs in a copy of it, so tools, subagents
        # and stream events see the eval as their parent even on another thread's loop.
        self._context = contextvars.copy_context()
        self._guest: Guest | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        # Tool-call ids are unique per eval from one random base: a urandom call per tool call costs more than the
        # call itself when threads contend for the GIL.
        self._id_base = uuid.uuid4().int & 0xFFFFFFFF
        self._calls = 0
        self._dispatch = SubagentDispatch(ctx, self._child_config)
        self._channel: CallChannel | None = None
        self._done: list[tuple[int, bool, str]] = []  # (call id, ok, value as JSON)
        self._flush_scheduled = False
        self.interrupt: BaseException | None = None
        self.failure: str | None = None
        """Why the eval was ended from the host (a cell under review that cannot be resumed); None otherwise."""
        self._durable = durable
        self._random_seed: int | None = None  # the recorded seed of a cell under review
        self._stop_eval: Callable[[], None] | None = None
        self._open = 0  # calls handed to the loop whose result the guest has not been sent yet
        self._completed = 0  # results sent to the guest (module reads aside), as Java counts them

    @property
    def files_touched(self) -> list[tuple[str, str]] | None:
        """The ``(operation, path)`` pairs of this eval's ``fs`` calls so far; None without ``fs``."""
        return self._ctx.files.touched if self._ctx.files is not None else None

    # -------------------------------------------------------------------------------- wiring to the interpreter

    def bind(self, guest: Guest) -> CallChannel:
        self._guest = guest
        self._stop_eval = guest.cancel
        tools = self._ctx.tools
        self._channel = guest.open_calls(
            list(tools or ()),
            expose_tools=tools is not None,
            expose_task=self._ctx.task_tool is not None,
            max_tool_calls=self._ctx.max_tool_calls,
            expose_fs=self._ctx.files is not None,
            random_seed=self._random_seed,
            # The moments the guest waits on its calls alone close a review's batch.
            report_waits=self._durable is not None,
        )
        pumps().submit(self._pump, self._channel)
        return self._channel

    def _pump(self, channel: CallChannel) -> None:
        """Collects the guest's calls in batches (waiting in Java, without the GIL) and hands them to the loop.

        Nothing the guest sends can end it: each call's input is decoded on its own, and one that cannot be read
        fails that call alone. Should the pump itself fail, the eval is stopped with the reason, never left to
        wait on calls nobody collects."""
        try:
            while True:
                batch = channel.poll(_POLL_MS)
                if batch is None:
                    return
                calls = _ptc.decode_calls(batch)
                if calls:
                    self._loop.call_soon_threadsafe(self._spawn, calls)
        except RuntimeError:  # the loop is closed: nobody is left to run the calls
            logger.debug("host calls dropped: the event loop is closed")
        except BaseException as exc:  # noqa: BLE001 - never let a pump thread die silently
            logger.exception("host-call pump failed")
            self._stop(failure=f"the host stopped collecting the eval's tool calls ({exc!r})")

    def _spawn(self, calls: list[_ptc.GuestCall]) -> None:
        if self._closed:
            return
        for call in calls:
            if call.kind == "wait":
                # After the first steps of the tasks just created (the loop runs callbacks in order): the calls
                # the guest started before it waited are all registered by then.
                self._loop.call_soon(self._guest_waiting, call.call_id)
                continue
            if call.refused is not None:
                message = f"{_label(call.kind, call.name)}: {call.refused}"
                self._complete(call.call_id, False, {"type": "TypeError", "message": message})
                continue
            self._open += 1
            run = self._run(call.call_id, call.kind, call.name, call.args)
            task = self._loop.create_task(run, context=self._context.copy())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _guest_waiting(self, settled: int) -> None:
        """The guest waits on its calls with nothing else to run, having been sent ``settled`` results."""
        if self._durable is not None and settled == self._completed:
            self._durable.guest_waiting(self._open)

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

    async def _run(self, call_id: int, kind: str, name: str, args: dict[str, Any]) -> None:
        try:
            await self._run_call(call_id, kind, name, args)
        finally:
            self._open -= 1

    async def _run_call(self, call_id: int, kind: str, name: str, args: dict[str, Any]) -> None:
        if kind == "fs" and name == "module":
            await self._read_module(call_id, args)
            return
        try:
            if self._durable is not None:
                payload, ok = await self._run_durable(kind, name, args)
            else:
                payload, ok = await self._outcome(kind, name, args)
        except GraphBubbleUp as exc:
            # A review or a subagent asks for human input: the whole eval stops and the interrupt reaches the graph.
            self._stop(interrupt=exc)
            return
        except ReplayError as exc:
            self._stop(failure=str(exc))
            return
        except BaseException as exc:  # noqa: BLE001 - the guest's promise must settle whatever failed on the host
            if isinstance(exc, asyncio.CancelledError) and _cancelled_from_outside():
                raise
            if isinstance(exc, Exception) and is_invalid_resume(exc):
                # A per-call answer that does not match its schema: the run fails and the question stays open.
                self._stop(interrupt=exc)
                return
            payload, ok = {"type": "HostError", "message": f"{_label(kind, name)} failed: {exc or repr(exc)}"}, False
        self._complete(call_id, ok, payload)

    async def _outcome(self, kind: str, name: str, args: dict[str, Any]) -> tuple[Any, bool]:
        """What the guest gets for one call: ``(value, True)``, or ``(error, False)`` for any failure."""
        try:
            self._refuse_reviewed_builtin(kind, name)
            if kind == "task":
                result = await self._dispatch.run(args)
            elif kind == "fs":
                result = await self._run_fs(name, args)
            else:
                result = await self._run_tool(name, args)
            return _ptc.to_guest_value(result), True
        except GraphBubbleUp:
            raise
        except asyncio.CancelledError as exc:
            if _cancelled_from_outside():
                raise
            return _raised(kind, name, exc), False
        except HostCallError as exc:
            return {"type": exc.type_name, "message": str(exc)}, False
        except FsError as exc:
            return exc.payload(), False
        except _ptc.CannotCross as exc:
            return {"type": "TypeError", "message": f"{_label(kind, name)}: {exc}"}, False
        except ValidationError as exc:
            label = "task" if kind == "task" else f"tools.{name}"
            message = f"{label}: invalid arguments: {validation_message(exc)}"
            return {"type": "ValidationError", "message": message}, False
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a rejection the guest can read
            # SystemExit (argparse on bad arguments), KeyboardInterrupt, GeneratorExit and the like included: raised
            # by a tool, they would end the event loop's thread, or leave the eval tool.
            return _raised(kind, name, exc), False

    def _refuse_reviewed_builtin(self, kind: str, name: str) -> None:
        """Refuses file writes and subagents from code when the agent reviews the tools that do them."""
        gated = self._ctx.reviewed_builtins
        if kind == "task" and "task" in gated:
            label, tools = "task()", "the `task` tool"
        elif kind == "fs" and name in _FS_WRITES and gated & {"write_file", "edit_file"}:
            label, tools = f"fs.{name}", "the `write_file` or `edit_file` tool"
        else:
            return
        raise HostCallError(
            "ApprovalRequired",
            f"{label} needs human approval: the agent reviews {tools}. Call that tool directly (as its own tool "
            "call) so it can be reviewed.",
        )

    async def _run_durable(self, kind: str, name: str, args: dict[str, Any]) -> tuple[Any, bool]:
        durable = self._durable
        assert durable is not None
        if kind == "fs" and self._files_in_state:
            # Writes to the graph state commit with the tool node only (a paused run's are dropped): done again.
            return await self._outcome(kind, name, args)
        tool = (self._ctx.tools or {}).get(name) if kind == "tool" else None
        started = durable.start(kind, tool, args)  # before any await: in the guest's call order
        return await durable.run(started, kind, name, tool, args, self._outcome)

    def _stop(self, *, interrupt: BaseException | None = None, failure: str | None = None) -> None:
        if self.interrupt is None and self.failure is None:
            self.interrupt, self.failure = interrupt, failure
        if self._stop_eval is not None:
            self._stop_eval()

    # -------------------------------------------------------------------------------- cells under review

    @functools.cached_property
    def _files_in_state(self) -> bool:
        """Whether ``fs`` calls read and write the graph state (``StateBackend``) rather than a store or a disk."""
        from deepagents.backends.state import StateBackend

        files = self._ctx.files
        return files is not None and isinstance(files.backend, StateBackend)

    @property
    def durable(self) -> bool:
        """Whether this eval's calls are recorded, and reviewed calls pause the run."""
        return self._durable is not None

    async def begin_cell(self, code: str, take_snapshot: Callable[[], bytes]) -> tuple[bytes | None, bool]:
        """The first durable step of a cell under review: the globals it starts from, and whether they are the
        recorded ones of an earlier run of this cell (a resume), which the cell must start from again. The step
        also records the seed of the cell's random numbers, fresh on the first run and the same on every re-run.
        When the globals could not be saved the cell cannot be rolled back: its reviewed calls are refused."""
        durable = self._durable
        assert durable is not None
        taken: list[bool] = []

        async def snapshot(kind: str, name: str, args: dict[str, Any]) -> tuple[Any, bool]:  # noqa: ARG001
            taken.append(True)
            seed = secrets.randbits(53)
            try:
                return {"globals": await asyncio.to_thread(take_snapshot), "seed": seed}, True
            except Exception as exc:  # noqa: BLE001 - the cell runs, but cannot pause
                logger.warning("the globals a cell under review starts from could not be saved", exc_info=True)
                return {"globals": None, "seed": seed, "unsaved": _unsaved_why(exc)}, True

        args = {"code": hashlib.sha256(code.encode()).hexdigest()}
        started = durable.start("cell", None, args)
        record, _ = await durable.run(started, "cell", "start", None, args, snapshot)
        start = record.get("globals") if isinstance(record, dict) else None
        seed = record.get("seed") if isinstance(record, dict) else None
        self._random_seed = seed if isinstance(seed, int) and 0 <= seed < 1 << 53 else None
        if not isinstance(start, bytes):
            why = record.get("unsaved") if isinstance(record, dict) else None
            self._cannot_pause(why if isinstance(why, str) else "the globals this cell started from were not saved")
            return None, not taken
        return start, not taken

    def _cannot_pause(self, why: str) -> None:
        """Refuses this eval's reviewed calls (``ApprovalRequired``, saying ``why``); its other calls run as in a
        cell that cannot pause."""
        self._durable = None
        self._ctx = dataclasses.replace(
            self._ctx,
            approval_required=self._ctx.approval_required | self._ctx.reviewed,
            approval_why=f"{why}, so the run cannot pause for the review",
        )

    @property
    def cell_id(self) -> str | None:
        """The eval's tool call id: the same when the cell runs again on resume."""
        tool_call_id = getattr(self._ctx.runtime, "tool_call_id", None)
        return tool_call_id if isinstance(tool_call_id, str) else None

    def begin_cell_blocking(self, code: str, take_snapshot: Callable[[], bytes]) -> tuple[bytes | None, bool]:
        """:meth:`begin_cell` for an eval made from synchronous code (the calls run on the private loop)."""
        return asyncio.run_coroutine_threadsafe(self.begin_cell(code, take_snapshot), self._loop).result()

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

    # -------------------------------------------------------------------------------- tools

    def _child_config(self) -> RunnableConfig:
        return dict(self._ctx.config or {})  # type: ignore[return-value]

    async def _run_tool(self, js_name: str, args: dict[str, Any]) -> Any:
        tool = (self._ctx.tools or {}).get(js_name)
        if tool is None:
            raise HostCallError("HostError", f"tools.{js_name} is not available in this eval")
        if tool.name in self._ctx.approval_required:
            why = self._ctx.approval_why or "calls from code cannot get it here"
            raise HostCallError(
                "ApprovalRequired",
                f"tools.{js_name} needs human approval, and {why}. Call the `{tool.name}` tool directly (as its "
                "own tool call) so it can be reviewed.",
            )
        self._calls += 1
        call_id = f"ptc_{tool.name}_{(self._id_base + self._calls) & 0xFFFFFFFF:08x}"
        injector, needs_id = tool_facts(tool)
        args = inject(self._ctx.runtime, injector, tool, args, call_id)
        config = self._child_config()
        tool_call_id = call_id if needs_id else None
        run_args: dict[str, Any] = {
            "callbacks": config.get("callbacks"),
            "tags": config.get("tags"),
            "metadata": config.get("metadata"),
            "config": config,
            "tool_call_id": tool_call_id,
        }
        if runs_natively_async(tool):
            return await _contained_async(tool).arun(args, **run_args)
        context = contextvars.copy_context()
        return await self._loop.run_in_executor(
            sync_tool_pool(), functools.partial(context.run, _contained, tool.run, args, **run_args)
        )

    # -------------------------------------------------------------------------------- files

    async def _run_fs(self, op: str, args: dict[str, Any]) -> Any:
        """One ``fs`` call, traced as a child run of the eval (its input and output summarised, not the bytes)."""
        files = self._ctx.files
        if files is None:
            raise HostCallError("HostError", f"fs.{op} is not available in this eval")
        from langchain_core.runnables import RunnableLambda

        box: list[Any] = []

        async def call(_: Any) -> Any:
            value = await files.run(op, args)
            box.append(value)
            return _files.trace_summary(value)

        traced = RunnableLambda(call, name=f"fs.{op}")
        await traced.ainvoke(_files.trace_summary(args), config=self._child_config())
        return box[0]

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
            if isinstance(exc, asyncio.CancelledError) and _cancelled_from_outside():
                raise
            text, ok = f"EIO: the module could not be read: {exc}", False
        if self._guest is not None and not self._closed:
            self._guest.complete_module_read(call_id, ok, text)
