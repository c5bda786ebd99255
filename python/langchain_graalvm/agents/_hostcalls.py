"""The agent's host calls from code: ``tools.*``, ``task()`` subagents, reviews and replay, on the generic pump.

:class:`~langchain_graalvm._hostcalls.CallPump` collects the guest's calls and settles their Promises; this module
adds what needs the agent run: async tools and subagents run as tasks on the agent's event loop (or the private loop
for synchronous agents), synchronous tools in a bounded thread pool, each with a child ``RunnableConfig`` of the
eval tool's run; ``fs`` calls are traced as child runs; a cell under review records its calls
(:mod:`._replay`) so that a resumed run replays them. It is separate so that an interpreter's files alone load no
LangChain module.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import functools
import hashlib
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
from .._hostcalls import CallPump
from .._loop import private_loop, sync_tool_pool
from .._output import OutputCallback
from .._runtime._backend import HostFunctions
from ..errors import HostCallError, SnapshotError
from . import _ptc
from ._context import EvalContext
from ._events import (
    EvalOutputEvent,
    SubagentCompleteEvent,
    SubagentErrorEvent,
    SubagentStartEvent,
    SubagentStreamEvent,
)
from ._injection import inject, runs_natively_async, tool_facts, validation_message
from ._replay import DurableCalls, ReplayError
from ._subagents import SubagentDispatch

logger = logging.getLogger("langchain_graalvm.ptc")

_FS_WRITES = frozenset({"writeFile", "rm"})

__all__ = [
    "EvalContext",
    "EvalOutputEvent",
    "HostCalls",
    "SubagentCompleteEvent",
    "SubagentErrorEvent",
    "SubagentStartEvent",
    "SubagentStreamEvent",
    "private_loop",
]


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


def _unsaved_why(exc: Exception) -> str:
    """Why the globals a cell under review starts from could not be saved, and what to do about it."""
    if isinstance(exc, SnapshotError) and exc.too_large:
        return (
            "the globals this cell started from could not be saved: they exceed max_snapshot_bytes (delete large "
            "globals that are no longer needed, or raise max_snapshot_bytes)"
        )
    return f"the globals this cell started from could not be saved ({exc or type(exc).__name__})"


class HostCalls(CallPump):
    """The host calls of one eval of the agent. Create one per eval, pass it as ``host=``, and :meth:`close` it
    afterwards."""

    # A review or a subagent asks for human input: the whole eval stops and the interrupt reaches the graph.
    _passes_through = (GraphBubbleUp,)

    def __init__(
        self,
        ctx: EvalContext,
        loop: asyncio.AbstractEventLoop,
        durable: DurableCalls | None = None,
        on_output: OutputCallback | None = None,
    ) -> None:
        super().__init__(loop, ctx.files, on_output)
        self._ctx = ctx
        # Tool-call ids are unique per eval from one random base: a urandom call per tool call costs more than the
        # call itself when threads contend for the GIL.
        self._id_base = uuid.uuid4().int & 0xFFFFFFFF
        self._calls = 0
        self._dispatch = SubagentDispatch(ctx, self._child_config)
        self._durable = durable
        self._random_seed: int | None = None  # the recorded seed of a cell under review

    def _functions(self) -> HostFunctions:
        tools = self._ctx.tools
        return HostFunctions(
            tools=tuple(tools or ()),
            expose_tools=tools is not None,
            expose_task=self._ctx.task_tool is not None,
            max_tool_calls=self._ctx.max_tool_calls,
            expose_fs=self._ctx.files is not None,
            random_seed=self._random_seed,
            # The moments the guest waits on its calls alone close a review's batch.
            report_waits=self._durable is not None,
            stream_output=self.streams_output,
        )

    def _guest_waiting(self, settled: int) -> None:
        if self._durable is not None and settled == self._completed:
            self._durable.guest_waiting(self._open_calls)

    # -------------------------------------------------------------------------------- what each call does

    async def _result(self, kind: str, name: str, args: dict[str, Any]) -> tuple[Any, bool]:
        """The call's outcome; in a cell under review, recorded on its first run and replayed on a resume."""
        durable = self._durable
        if durable is None:
            return await self._outcome(kind, name, args)
        if kind == "fs" and self._files_in_state:
            # Writes to the graph state commit with the tool node only (a paused run's are dropped): done again.
            return await self._outcome(kind, name, args)
        tool = (self._ctx.tools or {}).get(name) if kind == "tool" else None
        started = durable.start(kind, tool, args)  # before any await: in the guest's call order
        return await durable.run(started, kind, name, tool, args, self._outcome)

    def _ends_eval(self, exc: BaseException) -> bool:
        if isinstance(exc, GraphBubbleUp) or (isinstance(exc, Exception) and is_invalid_resume(exc)):
            # An interrupt, or a per-call answer that does not match its schema (the run fails, the question stays
            # open): raised for the eval.
            self._stop(interrupt=exc)
            return True
        if isinstance(exc, ReplayError):
            self._stop(failure=str(exc))
            return True
        return False

    async def _call(self, kind: str, name: str, args: dict[str, Any]) -> Any:
        self._refuse_reviewed_builtin(kind, name)
        if kind == "task":
            return await self._dispatch.run(args)
        if kind == "fs":
            return await self._run_fs(name, args)
        return await self._run_tool(name, args)

    def _to_guest(self, value: Any) -> Any:
        return _ptc.to_guest_value(value)

    def _rejection(self, kind: str, name: str, exc: BaseException) -> dict[str, str]:
        if isinstance(exc, ValidationError):
            label = "task" if kind == "task" else f"tools.{name}"
            return {"type": "ValidationError", "message": f"{label}: invalid arguments: {validation_message(exc)}"}
        return super()._rejection(kind, name, exc.raised if isinstance(exc, _ToolRaised) else exc)

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

    # -------------------------------------------------------------------------------- cells under review

    @functools.cached_property
    def _files_in_state(self) -> bool:
        """Whether ``fs`` calls read and write the graph state (``StateBackend``) rather than a store or a disk."""
        files = self._ctx.files
        return files is not None and _files.is_state_backend(files.backend)

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
        run = super()._run_fs
        if self._files is None:
            return await run(op, args)  # refused: this eval has no files
        from langchain_core.runnables import RunnableLambda

        box: list[Any] = []

        async def call(_: Any) -> Any:
            value = await run(op, args)
            box.append(value)
            return _files.trace_summary(value)

        traced = RunnableLambda(call, name=f"fs.{op}")
        await traced.ainvoke(_files.trace_summary(args), config=self._child_config())
        return box[0]
