"""The ``eval`` tool of :class:`~langchain_graalvm.agents.middleware.CodeInterpreterMiddleware`: what one call of it
runs. It picks the interpreter (the run's slot, or a spare one for ``mode="call"``), gives the guest its host
calls (``tools.*``, ``task``, ``fs``), made durable when the agent reviews one of those tools and the run can pause,
streams what the guest prints as custom stream events, and turns the result into the ``ToolMessage`` the model
sees (or the run's interrupt, when a call waits for review).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from langchain.tools import BaseTool, ToolRuntime
from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig, ensure_config
from langchain_core.tools import StructuredTool
from langgraph.config import get_config
from pydantic import BaseModel, Field, create_model

from .. import _audit, _files
from .._runtime._backend import error_envelope
from ..errors import GraalVMError
from ..options import InterpreterOptions, Mode
from . import _hostcalls, _ptc, _replay, _review, _slots, _spares, prompts
from . import _snapshot_state as snap
from ._events import EvalOutputEvent

logger = logging.getLogger("langchain_graalvm")


class Middleware(Protocol):
    """What the eval tool reads of its :class:`~langchain_graalvm.agents.middleware.CodeInterpreterMiddleware`."""

    @property
    def mode(self) -> Mode: ...
    @property
    def language(self) -> str: ...
    @property
    def tool_name(self) -> str: ...
    @property
    def files(self) -> _files.FilesAccess | None: ...
    @property
    def ptc(self) -> list[str | BaseTool] | None: ...
    @property
    def subagents(self) -> bool: ...
    @property
    def max_ptc_calls(self) -> int | None: ...
    @property
    def max_subagent_concurrency(self) -> int: ...
    @property
    def max_snapshot_bytes(self) -> int | None: ...
    @property
    def stream_output(self) -> bool: ...
    @property
    def _spec(self) -> InterpreterOptions: ...
    @property
    def _registry(self) -> _slots.SlotRegistry: ...
    @property
    def _signing_key(self) -> bytes | None: ...
    @property
    def _previous_keys(self) -> tuple[bytes, ...]: ...
    @property
    def _approval_required(self) -> frozenset[str]: ...
    @property
    def _prompt(self) -> prompts.GuestPrompt: ...
    @property
    def _auditor(self) -> _audit.Auditor | None: ...

    def _slot_id(self, state: Mapping[str, Any]) -> str: ...
    def _run(self, state: Mapping[str, Any], code: str, host: _hostcalls.HostCalls | None = None) -> str: ...
    async def _arun(self, state: Mapping[str, Any], code: str, host: _hostcalls.HostCalls | None = None) -> str: ...


def current_config() -> RunnableConfig | None:
    """The config of the graph run this code runs in; None outside a graph run."""
    try:
        return get_config()
    except RuntimeError:  # not inside a graph run
        return None


# ------------------------------------------------------------------------------------------------ interpreters


def slot_for_eval(mw: Middleware, state: Mapping[str, Any]) -> _slots.Slot:
    """The slot of this run; opened from ``state`` when this process has none (e.g. a resumed run)."""
    slot_id = mw._slot_id(state)
    slot = mw._registry.get(slot_id)
    if slot is not None:
        return slot
    pending = (
        snap.check_stored(state, slot_id, mw._signing_key, mw._previous_keys)[0] if mw.mode == "thread" else None
    )
    return mw._registry.get_or_open(slot_id, mw._spec, pending)


def run(mw: Middleware, state: Mapping[str, Any], code: str, host: _hostcalls.HostCalls | None) -> str:
    """Runs one cell in the run's interpreter; a cell whose calls are durable as a replayable cell."""
    if mw.mode == "call":
        return _run_once(mw._spec, code, host)
    slot = slot_for_eval(mw, state)
    if host is None or not host.durable:
        return slot.eval(code, host)
    return run_cell(slot, code, host, mw.max_snapshot_bytes)


async def arun(mw: Middleware, state: Mapping[str, Any], code: str, host: _hostcalls.HostCalls | None) -> str:
    """Async :func:`run`."""
    if mw.mode == "call":
        return await _arun_once(mw._spec, code, host)
    slot = slot_for_eval(mw, state)
    if host is None or not host.durable:
        return await slot.aeval(code, host)
    return await arun_cell(slot, code, host, mw.max_snapshot_bytes)


def _run_once(spec: InterpreterOptions, code: str, host: _hostcalls.HostCalls | None) -> str:
    pool = _spares.shared_pool()
    interpreter = pool.take(spec)
    try:
        return interpreter.eval(code, host=host).text
    finally:
        pool.retire(interpreter)
        pool.replenish(spec)


async def _arun_once(spec: InterpreterOptions, code: str, host: _hostcalls.HostCalls | None) -> str:
    pool = _spares.shared_pool()
    interpreter = pool.take(spec)
    try:
        return (await interpreter.aeval(code, host=host)).text
    finally:
        pool.retire(interpreter)
        pool.replenish(spec)


# ------------------------------------------------------------------------------------------------ host calls


_GATED_BUILTINS = frozenset({"write_file", "edit_file", "task"})


def host_calls(
    mw: Middleware,
    policy: _review.ReviewPolicy | None,
    runtime: Any,
    config: RunnableConfig,
    loop: asyncio.AbstractEventLoop,
    *,
    sync: bool = False,
) -> _hostcalls.HostCalls | None:
    """The host functions of one eval: ``tools.*`` from the agent's tools, ``task`` when there is a subagent
    tool, ``fs``, and the guest's output as custom stream events. None when the guest gets none of them. Calls to
    tools the agent reviews (``policy``, the review policy of the agent this eval tool was built for) pause the run
    for the review (their cell's calls are then durable), or are refused when the run cannot pause."""
    available = getattr(runtime, "tools", None) or []
    tools = _ptc.select_tools(mw.ptc, available, mw.tool_name, mw.language)
    task_tool = _ptc.find_task_tool(available) if mw.subagents else None
    files = _files.FileCalls(mw.files) if mw.files is not None else None
    on_output = output_events(runtime) if mw.stream_output else None
    if tools is None and task_tool is None and files is None and on_output is None:
        return None
    reviewed = policy.reviewed & {tool.name for tool in (tools or {}).values()} if policy else frozenset()
    why = _review.pause_unavailable(config) if reviewed else None
    refused = mw._approval_required - (policy.reviewed if policy else frozenset())
    durable = None
    if policy is not None and reviewed and why is None:
        durable = _replay.DurableCalls(policy, runtime, loop, sync_graph=sync, tools=tools)
    elif why is not None:
        refused |= reviewed
    ctx = _hostcalls.EvalContext(
        runtime=runtime,
        config=config,
        tools=tools,
        task_tool=task_tool,
        max_tool_calls=mw.max_ptc_calls,
        max_subagents=mw.max_subagent_concurrency,
        approval_required=frozenset(refused),
        files=files,
        approval_why=why or "calls from code cannot get it: the agent does not review this tool",
        reviewed_builtins=policy.reviewed & _GATED_BUILTINS if policy else frozenset(),
        reviewed=frozenset(reviewed) if durable is not None else frozenset(),
    )
    return _hostcalls.HostCalls(ctx, loop, durable, on_output)


def output_events(runtime: Any) -> Callable[[str, str], None] | None:
    """Writes the guest's output as :class:`EvalOutputEvent` custom stream events keyed by the eval's tool call id,
    as ``task()``'s events are; None when the tool runs without a stream writer."""
    writer = getattr(runtime, "stream_writer", None)
    if writer is None:
        return None
    eval_id = getattr(runtime, "tool_call_id", None) or ""

    def write(stream: str, text: str) -> None:
        event: EvalOutputEvent = {"type": "eval_output", "stream": stream, "text": text}  # type: ignore[typeddict-item]
        if eval_id:
            event["eval_id"] = eval_id
        writer(event)

    return write


# ------------------------------------------------------------------------------------------------ the tool


def build_tool(mw: Middleware, config: prompts.PromptConfig, policy: _review.ReviewPolicy | None) -> BaseTool:
    """The ``eval`` tool of ``mw`` for an agent with review policy ``policy`` (None: not built into an agent yet),
    sync and async."""
    schema: type[BaseModel] = create_model(
        "EvalSchema",
        __doc__="Input of the eval tool.",
        code=(str, Field(description=mw._prompt.code_description(config))),
    )
    name = config.tool_name

    def sync_eval(runtime: ToolRuntime[None, Any], code: str) -> ToolMessage:
        # ensure_config() is this tool run's config: host calls made with it are its children in traces.
        host = host_calls(mw, policy, runtime, ensure_config(), _hostcalls.private_loop(), sync=True)
        with _eval_scope(mw, runtime, host):
            try:
                text = mw._run(runtime.state, code, host)
            except (GraalVMError, OSError) as exc:  # the model reads why the sandbox could not run its cell
                text = unavailable(exc)
        if host is not None:
            host.flush_output()  # the cell's output events come before its ToolMessage
        return _message(runtime, host, text, name)

    async def async_eval(runtime: ToolRuntime[None, Any], code: str) -> ToolMessage:
        host = host_calls(mw, policy, runtime, ensure_config(), asyncio.get_running_loop())
        with _eval_scope(mw, runtime, host):
            try:
                text = await mw._arun(runtime.state, code, host)
            except (GraalVMError, OSError) as exc:  # as in sync_eval
                text = unavailable(exc)
        if host is not None:
            await host.aflush_output()
        return _message(runtime, host, text, name)

    return StructuredTool.from_function(
        name=name,
        description=mw._prompt.tool_description(config),
        func=sync_eval,
        coroutine=async_eval,
        infer_schema=False,
        args_schema=schema,
        metadata={"ls_code_input_language": "python" if config.limits.language == "python" else "javascript"},
    )


def unavailable(exc: Exception) -> str:
    """The eval's answer when the sandbox itself failed (no JDK, a JVM that can no longer run guest code, every
    sandbox worker busy, a missing language, a worker that could not be started): an
    ``<error type="SandboxUnavailable">`` envelope the model reads, so the agent's run goes on; the agent's log
    gets the exception with its traceback. A middleware used without its ``before_agent`` still raises its
    ``ValueError``, as langchain-quickjs's does: that is the agent's wiring, which no model can fix."""
    logger.warning("the eval tool could not run a cell: %s", exc, exc_info=exc)
    message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return error_envelope("SandboxUnavailable", f"the cell did not run: {message}")


@contextlib.contextmanager
def _eval_scope(mw: Middleware, runtime: ToolRuntime[None, Any], host: _hostcalls.HostCalls | None) -> Iterator[None]:
    """The audit scope of one eval; its host calls are closed when it ends, however it ends."""
    touched = host.files_touched if host is not None else None
    try:
        thread_id = _audit.thread_id_of(runtime.config)
        with _audit.scope(mw._auditor, thread_id, runtime.tool_call_id, touched):
            yield
    finally:
        if host is not None:
            host.close()


def _message(runtime: ToolRuntime[None, Any], host: _hostcalls.HostCalls | None, text: str, name: str) -> ToolMessage:
    """The eval's answer to the model; raises the run's interrupt instead when a call waits for review."""
    if host is not None and host.interrupt is not None:
        raise host.interrupt
    return ToolMessage(content=text, tool_call_id=runtime.tool_call_id, name=name)


# ------------------------------------------------------------------------------------------------ durable cells


def run_cell(slot: _slots.Slot, code: str, host: _hostcalls.HostCalls, max_bytes: int | None) -> str:
    """Runs a cell whose calls are durable in ``slot``: from the globals it started with when it is resumed, and
    leaving them as it found them when it pauses or cannot be resumed. The cell holds the slot from its start
    snapshot to its roll-back, so other evals of the turn neither change its start nor get rolled back with it."""
    with slot.held():
        start, resumed = host.begin_cell_blocking(code, lambda: slot.snapshot_held(max_bytes))
        _restart(slot, start, resumed, host)
        return _after_cell(slot, start, host, slot.eval_held(code, host))


async def arun_cell(slot: _slots.Slot, code: str, host: _hostcalls.HostCalls, max_bytes: int | None) -> str:
    """Async :func:`run_cell`."""
    async with slot.aheld():
        start, resumed = await host.begin_cell(code, lambda: slot.snapshot_held(max_bytes))
        _restart(slot, start, resumed, host)
        return _after_cell(slot, start, host, await slot.aeval_held(code, host))


def _restart(slot: _slots.Slot, start: bytes | None, resumed: bool, host: _hostcalls.HostCalls) -> None:
    """Puts a resumed cell's globals back to its start, unless this slot rolled it back when it paused (then the
    slot holds that start, and the effects of the evals that ran since, which a restore would undo)."""
    if not resumed or start is None:
        return
    if host.cell_id is not None and host.cell_id in slot.rolled_back:
        slot.rolled_back.discard(host.cell_id)
        return
    slot.reset(start)


def _after_cell(slot: _slots.Slot, start: bytes | None, host: _hostcalls.HostCalls, text: str) -> str:
    if host.interrupt is None and host.failure is None:
        return text
    if start is not None:
        slot.reset(start)
        if host.failure is None and host.cell_id is not None:
            slot.rolled_back.add(host.cell_id)
    return text if host.failure is None else error_envelope("ReplayError", host.failure)
