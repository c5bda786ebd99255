"""The host side of ``tools.*`` and ``task()``: runs the guest's calls on an event loop and settles their Promises.

The guest thread hands each call over without waiting (``call_soon_threadsafe``); async tools and subagents run as
tasks on the agent's event loop (or on a private loop for synchronous agents), synchronous tools in a bounded
thread pool, and each result goes back through ``Interpreter.completeHostCall``, which queues it for the guest
thread. Nothing here blocks the event loop or holds the GIL while the guest waits.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import dataclasses
import functools
import hashlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypedDict

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langchain_core.tools.base import InjectedToolCallId, _is_injected_arg_type, get_all_basemodel_annotations
from langgraph.errors import GraphBubbleUp
from pydantic import BaseModel, ValidationError

from . import _bridge, _files, _ptc
from ._pools import shared_pool

logger = logging.getLogger("langchain_graalvm.ptc")

_SYNC_TOOL_WORKERS = 32
_loop_lock = threading.Lock()
_private_loop: asyncio.AbstractEventLoop | None = None
_POLL_MS = 500
_injection_cache: dict[int, tuple[BaseTool, Any, bool]] = {}


def _pumps() -> concurrent.futures.ThreadPoolExecutor:
    """Threads that collect the guest's calls from Java (one per eval with host functions, reused)."""
    return shared_pool("calls", 256)


def _tool_facts(tool: BaseTool) -> tuple[Any, bool]:
    """A ToolNode that knows ``tool``'s injected arguments, and whether it takes an injected tool-call id."""
    cached = _injection_cache.get(id(tool))
    if cached is not None and cached[0] is tool:
        return cached[1], cached[2]
    from langgraph.prebuilt import ToolNode

    facts = (ToolNode([tool]), _needs_tool_call_id(tool))
    if len(_injection_cache) > 1024:
        _injection_cache.clear()
    _injection_cache[id(tool)] = (tool, *facts)
    return facts


def sync_tool_pool() -> concurrent.futures.ThreadPoolExecutor:
    """The bounded pool synchronous tools called from the guest run in."""
    return shared_pool("tool", _SYNC_TOOL_WORKERS)


def private_loop() -> asyncio.AbstractEventLoop:
    """The event loop that runs host calls of evals made from synchronous code (``agent.invoke``)."""
    global _private_loop
    with _loop_lock:
        if _private_loop is None or _private_loop.is_closed():
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            threading.Thread(target=run, name="langchain-graalvm-host-calls", daemon=True).start()
            ready.wait()
            _private_loop = loop
        return _private_loop


class SubagentStartEvent(TypedDict, total=False):
    """Custom stream event: a ``task()`` dispatch started."""

    type: Literal["subagent"]
    phase: Literal["start"]
    id: str
    subagent_type: str
    label: str
    description: str
    eval_id: str


class SubagentCompleteEvent(TypedDict, total=False):
    """Custom stream event: a ``task()`` dispatch finished."""

    type: Literal["subagent"]
    phase: Literal["complete"]
    id: str
    duration_ms: int
    eval_id: str


class SubagentErrorEvent(TypedDict, total=False):
    """Custom stream event: a ``task()`` dispatch failed."""

    type: Literal["subagent"]
    phase: Literal["error"]
    id: str
    duration_ms: int
    error: str
    eval_id: str


SubagentStreamEvent = SubagentStartEvent | SubagentCompleteEvent | SubagentErrorEvent


class ApprovalRequired(Exception):
    """A tool that needs human approval was called from the interpreter."""


class HostCallError(Exception):
    """An error a host call reports to the guest under a chosen type name."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(message)
        self.type_name = type_name


@dataclasses.dataclass
class EvalContext:
    """What the eval tool knows about the agent run it is part of."""

    runtime: Any  # ToolRuntime, or None when the tool is driven without one
    config: RunnableConfig | None  # the eval tool run's config: PTC runs become its children in traces
    tools: dict[str, BaseTool] | None  # JavaScript name -> tool; None when PTC is off
    task_tool: BaseTool | None
    max_tool_calls: int | None
    max_subagents: int
    approval_required: frozenset[str]
    files: _files.FileCalls | None = None  # the agent's files, when the guest gets `fs`


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ())) or "input"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts)


def _needs_tool_call_id(tool: BaseTool) -> bool:
    schema = tool.args_schema
    if not isinstance(schema, type) or not issubclass(schema, BaseModel):
        return False
    return any(
        _is_injected_arg_type(hint, injected_type=InjectedToolCallId)
        for hint in get_all_basemodel_annotations(schema).values()
    )


def _runs_natively_async(tool: BaseTool) -> bool:
    if getattr(tool, "coroutine", None) is not None:
        return True
    return type(tool)._arun is not BaseTool._arun


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
        self._ordinal = 0
        # Tool-call ids are unique per eval from one random base: a urandom call per tool call costs more than the
        # call itself when threads contend for the GIL.
        self._id_base = uuid.uuid4().int & 0xFFFFFFFF
        self._calls = 0
        self._subagents = asyncio.Semaphore(ctx.max_subagents)
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
        bridge, self._queue = _bridge.new_queued_host_bridge(
            list(tools or ()),
            expose_tools=tools is not None,
            expose_task=self._ctx.task_tool is not None,
            max_tool_calls=self._ctx.max_tool_calls,
            expose_fs=self._ctx.files is not None,
        )
        _pumps().submit(self._pump, self._queue)
        return bridge

    def _pump(self, queue: Any) -> None:
        """Collects the guest's calls in batches (waiting in Java, without the GIL) and hands them to the loop."""
        try:
            while True:
                batch = queue.poll(_POLL_MS)
                if batch is None:
                    return
                calls = _ptc.decode_calls(_bridge.text_of(batch))
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
        _bridge.complete_host_calls(self._java, [entry[0] for entry in batch], text)

    async def _run(self, call_id: int, kind: str, name: str, args: dict[str, Any]) -> None:
        if kind == "fs" and name == "module":
            await self._read_module(call_id, args)
            return
        try:
            if kind == "task":
                result = await self._run_task(args)
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
        except _files.FsError as exc:
            payload, ok = exc.payload(), False
        except ValidationError as exc:
            label = "task" if kind == "task" else f"tools.{name}"
            message = f"{label}: invalid arguments: {_validation_message(exc)}"
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
        injector, needs_id = _tool_facts(tool)
        args = self._inject(injector, tool, args, call_id)
        config = self._child_config()
        tool_call_id = call_id if needs_id else None
        run_args: dict[str, Any] = {
            "callbacks": config.get("callbacks"),
            "tags": config.get("tags"),
            "metadata": config.get("metadata"),
            "config": config,
            "tool_call_id": tool_call_id,
        }
        if _runs_natively_async(tool):
            return await tool.arun(args, **run_args)
        context = contextvars.copy_context()
        return await self._loop.run_in_executor(
            sync_tool_pool(), functools.partial(context.run, tool.run, args, **run_args)
        )

    def _inject(self, injector: Any, tool: BaseTool, args: dict[str, Any], call_id: str) -> dict[str, Any]:
        """Fills the tool's injected arguments (ToolRuntime, InjectedState, InjectedStore) from the eval's run."""
        runtime = self._ctx.runtime
        if runtime is None or not injector._injected_args.get(tool.name):
            return args
        call = {"name": tool.name, "args": args, "id": call_id, "type": "tool_call"}
        tool_runtime = dataclasses.replace(runtime, tool_call_id=call_id)
        return dict(injector._inject_tool_args(call, tool_runtime, tool)["args"])

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
        except _files.FsError as exc:
            text, ok = str(exc), False
        except Exception as exc:  # noqa: BLE001 - the import fails with the reason, the eval goes on
            text, ok = f"EIO: the module could not be read: {exc}", False
        if self._java is not None and not self._closed:
            self._java.completeModuleRead(call_id, ok, text)

    # -------------------------------------------------------------------------------- subagents

    async def _run_task(self, spec: dict[str, Any]) -> Any:
        description = spec.get("description")
        subagent_type = spec.get("subagentType", spec.get("subagent_type"))
        label = spec.get("label")
        if not isinstance(description, str) or not description.strip():
            raise HostCallError("ValueError", "task() requires a non-empty string field `description`")
        if not isinstance(subagent_type, str) or not subagent_type.strip():
            raise HostCallError("ValueError", "task() requires a non-empty string field `subagentType`")
        if label is not None and not isinstance(label, str):
            raise HostCallError("ValueError", "task() field `label` must be a string when provided")
        if spec.get("responseSchema") is not None:
            raise HostCallError(
                "ValueError",
                "task() does not take `responseSchema` here; ask for JSON in the description and JSON.parse "
                "the answer.",
            )
        tool = self._ctx.task_tool
        runtime = self._ctx.runtime
        if tool is None or runtime is None:
            raise HostCallError("RuntimeError", "task tool not configured for this eval")
        eval_id = getattr(runtime, "tool_call_id", None) or ""
        ordinal = self._ordinal
        self._ordinal += 1
        label = " ".join((label or "").split())
        if eval_id:
            key = json.dumps(
                ["langchain-graalvm-subagent-v1", eval_id, tool.name, ordinal, subagent_type, description, label],
                sort_keys=True,
                separators=(",", ":"),
            )
            dispatch_id = f"ptc_{tool.name}_{hashlib.sha256(key.encode()).hexdigest()[:32]}"
        else:
            dispatch_id = f"ptc_{tool.name}_{uuid.uuid4().hex}"
        async with self._subagents:
            shown = label[:120] if label else " ".join(description.split())[:60]
            start: SubagentStartEvent = {
                "type": "subagent",
                "phase": "start",
                "id": dispatch_id,
                "subagent_type": subagent_type,
                "label": shown,
                "description": description[:200],
            }
            self._emit(start, eval_id)
            began = time.monotonic()
            try:
                result = await tool.arun(
                    {
                        "description": description,
                        "subagent_type": subagent_type,
                        "runtime": dataclasses.replace(runtime, tool_call_id=dispatch_id),
                    },
                    callbacks=self._child_config().get("callbacks"),
                    config=self._child_config(),
                    tool_call_id=dispatch_id,
                )
            except Exception as exc:
                if not isinstance(exc, GraphBubbleUp):
                    failed: SubagentErrorEvent = {
                        "type": "subagent",
                        "phase": "error",
                        "id": dispatch_id,
                        "duration_ms": int((time.monotonic() - began) * 1000),
                        "error": str(exc),
                    }
                    self._emit(failed, eval_id)
                raise
            done: SubagentCompleteEvent = {
                "type": "subagent",
                "phase": "complete",
                "id": dispatch_id,
                "duration_ms": int((time.monotonic() - began) * 1000),
            }
            self._emit(done, eval_id)
            return result

    def _emit(self, event: Mapping[str, Any], eval_id: str) -> None:
        runtime = self._ctx.runtime
        writer = getattr(runtime, "stream_writer", None)
        if writer is None:
            return
        payload = dict(event)
        if eval_id:
            payload["eval_id"] = eval_id
        try:
            writer(payload)
        except Exception:  # noqa: BLE001 - a broken stream consumer must not fail the dispatch
            logger.debug("subagent stream event dropped", exc_info=True)
