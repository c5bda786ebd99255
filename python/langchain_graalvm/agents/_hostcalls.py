"""The host side of ``tools.*`` and ``task()``: runs the guest's calls on an event loop and settles their Promises.

The guest thread hands each call over without waiting (``call_soon_threadsafe``); async tools and subagents run as
tasks on the agent's event loop (or on a private loop for synchronous agents), synchronous tools in a bounded
thread pool, and each result goes back through ``Interpreter.completeHostCall``, which queues it for the guest
thread. Nothing here blocks the event loop or holds the GIL while the guest waits.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import logging
import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphBubbleUp
from pydantic import ValidationError

from .. import _files
from .._runtime import _adapter
from ..errors import FsError, HostCallError
from . import _ptc
from ._context import EvalContext
from ._events import SubagentCompleteEvent, SubagentErrorEvent, SubagentStartEvent, SubagentStreamEvent
from ._injection import inject, runs_natively_async, tool_facts, validation_message
from ._loop import private_loop, pumps, sync_tool_pool
from ._subagents import SubagentDispatch

logger = logging.getLogger("langchain_graalvm.ptc")

_POLL_MS = 500

__all__ = [
    "EvalContext",
    "HostCalls",
    "SubagentCompleteEvent",
    "SubagentErrorEvent",
    "SubagentStartEvent",
    "SubagentStreamEvent",
    "private_loop",
]


class HostCalls:
    """The host calls of one eval. Create one per eval, pass it as ``host=``, and :meth:`close` it afterwards."""

    def __init__(self, ctx: EvalContext, loop: asyncio.AbstractEventLoop) -> None:
        self._ctx = ctx
        self._loop = loop
        # The eval tool's context (its run config, tracing): every call runs in a copy of it, so tools, subagents
        # and stream events see the eval as their parent even on another thread's loop.
        self._context = contextvars.copy_context()
        self._java: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        # Tool-call ids are unique per eval from one random base: a urandom call per tool call costs more than the
        # call itself when threads contend for the GIL.
        self._id_base = uuid.uuid4().int & 0xFFFFFFFF
        self._calls = 0
        self._dispatch = SubagentDispatch(ctx, self._child_config)
        self._queue: Any = None
        self._done: list[list[Any]] = []
        self._flush_scheduled = False
        self.interrupt: BaseException | None = None
        self._stop_eval: Callable[[], None] | None = None

    @property
    def files_touched(self) -> list[tuple[str, str]] | None:
        """The ``(operation, path)`` pairs of this eval's ``fs`` calls so far; None without ``fs``."""
        return self._ctx.files.touched if self._ctx.files is not None else None

    # -------------------------------------------------------------------------------- wiring to the interpreter

    def java_bridge(self, java_interpreter: Any) -> Any:
        self._java = java_interpreter
        self._stop_eval = java_interpreter.cancel
        tools = self._ctx.tools
        bridge, self._queue = _adapter.new_queued_host_bridge(
            list(tools or ()),
            expose_tools=tools is not None,
            expose_task=self._ctx.task_tool is not None,
            max_tool_calls=self._ctx.max_tool_calls,
            expose_fs=self._ctx.files is not None,
        )
        pumps().submit(self._pump, self._queue)
        return bridge

    def _pump(self, queue: Any) -> None:
        """Collects the guest's calls in batches (waiting in Java, without the GIL) and hands them to the loop."""
        try:
            while True:
                batch = queue.poll(_POLL_MS)
                if batch is None:
                    return
                calls = _ptc.decode_calls(_adapter.text_of(batch))
                if calls:
                    self._loop.call_soon_threadsafe(self._spawn, calls)
        except RuntimeError:  # the loop is closed: nobody is left to run the calls
            logger.debug("host calls dropped: the event loop is closed")
        except Exception:  # noqa: BLE001 - never let a pump thread die silently
            logger.exception("host-call pump failed")

    def _spawn(self, calls: list[tuple[int, str, str, dict[str, Any]]]) -> None:
        if self._closed:
            return
        for call_id, kind, name, args in calls:
            task = self._loop.create_task(self._run(call_id, kind, name, args), context=self._context.copy())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _complete(self, call_id: int, ok: bool, value: Any) -> None:
        """Queues a result; the results of one loop iteration go to Java in one batch."""
        self._done.append([call_id, ok, value])
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        batch, self._done = self._done, []
        if not batch or self._java is None:
            return
        text = json.dumps(batch, ensure_ascii=False, allow_nan=False)
        _adapter.complete_host_calls(self._java, [entry[0] for entry in batch], text)

    async def _run(self, call_id: int, kind: str, name: str, args: dict[str, Any]) -> None:
        if kind == "fs" and name == "module":
            await self._read_module(call_id, args)
            return
        try:
            if kind == "task":
                result = await self._dispatch.run(args)
            elif kind == "fs":
                result = await self._run_fs(name, args)
            else:
                result = await self._run_tool(name, args)
            payload, ok = _ptc.to_guest_value(result), True
        except asyncio.CancelledError:
            raise
        except GraphBubbleUp as exc:
            # A subagent asked for human input: the whole eval stops and the interrupt reaches the graph.
            self.interrupt = exc
            if self._stop_eval is not None:
                self._stop_eval()
            return
        except HostCallError as exc:
            payload, ok = {"type": exc.type_name, "message": str(exc)}, False
        except FsError as exc:
            payload, ok = exc.payload(), False
        except ValidationError as exc:
            label = "task" if kind == "task" else f"tools.{name}"
            message = f"{label}: invalid arguments: {validation_message(exc)}"
            payload, ok = {"type": "ValidationError", "message": message}, False
        except Exception as exc:  # noqa: BLE001 - every failure becomes a rejection the guest can read
            label = {"task": "task", "fs": f"fs.{name}"}.get(kind, f"tools.{name}")
            text = str(exc) or repr(exc)
            payload, ok = {"type": type(exc).__name__, "message": f"{label} failed: {text}"}, False
        self._complete(call_id, ok, payload)

    def close(self) -> None:
        """Ends the eval's calls: stops collecting new ones and cancels those still running."""
        self._closed = True
        if self._queue is not None:
            self._queue.close()
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
            raise HostCallError(
                "ApprovalRequired",
                f"tools.{js_name} needs human approval, which calls from code cannot get. Call the "
                f"`{tool.name}` tool directly (as its own tool call) so it can be reviewed.",
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
            return await tool.arun(args, **run_args)
        context = contextvars.copy_context()
        return await self._loop.run_in_executor(
            sync_tool_pool(), functools.partial(context.run, tool.run, args, **run_args)
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
        if self._java is None or not self._java.importsModules():
            self._complete(call_id, False, {"type": "Error", "message": "fs.module is not available in this eval"})
            return
        try:
            text, ok = await self._run_fs("module", args), True
        except asyncio.CancelledError:
            raise
        except FsError as exc:
            text, ok = str(exc), False
        except Exception as exc:  # noqa: BLE001 - the import fails with the reason, the eval goes on
            text, ok = f"EIO: the module could not be read: {exc}", False
        if self._java is not None and not self._closed:
            self._java.completeModuleRead(call_id, ok, text)
