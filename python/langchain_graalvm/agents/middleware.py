"""``CodeInterpreterMiddleware``: gives a LangChain / Deep Agents agent a sandboxed JavaScript interpreter.

A drop-in for ``langchain_quickjs.CodeInterpreterMiddleware``: the same constructor, the same ``eval`` tool
contract (a ``ToolMessage`` whose content is the ``<stdout>``/``<result>``/``<error>`` envelope) and the same
persistence modes, running on GraalVM through :class:`~langchain_graalvm.Interpreter`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NotRequired

from deepagents.middleware._utils import append_to_system_message
from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ContextT,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
    ResponseT,
    TracePolicy,
    omit_payload,
)
from langchain.tools import BaseTool
from langgraph.channels import DeltaChannel

from .. import _audit, _files
from .._runtime import _prestart
from ..errors import OptionsError, SnapshotError
from ..options import (
    DEFAULT_MAX_CODE_BYTES,
    DEFAULT_MAX_NESTING,
    DEFAULT_MEMORY_LIMIT,
    Clock,
    InterpreterOptions,
    Isolation,
    Mode,
    check_clock,
    check_frozen_epoch,
    resolve_isolation,
    resolve_language,
    resolve_mode,
)
from . import _evaltool, _hostcalls, _ptc, _review, _slots, _spares, prompts
from . import _snapshot_state as snap
from .prompts._base import reviewed_builtins_line

if TYPE_CHECKING:
    from langgraph.runtime import Runtime

logger = logging.getLogger("langchain_graalvm.middleware")

PTCOption = list[str | BaseTool]

_SNAPSHOT_COPY_EVERY = 10  # records between full copies of the snapshot in a checkpoint


class GraalVMInterpreterState(AgentState):
    """Private graph state of the middleware: kept in checkpoints, left out of the graph's input and output.

    Loading a checkpoint replays the snapshot records written since the channel's last full copy, walking back
    through the ancestor checkpoints; a full copy every few records keeps that walk within the one Deep Agents
    already makes for its messages (a copy every 50 message updates, about a dozen turns).
    """

    _graalvm_slot_id: NotRequired[Annotated[str, PrivateStateAttr]]
    _graalvm_snapshot: NotRequired[
        Annotated[bytes, DeltaChannel(snap.replay_records, snapshot_frequency=_SNAPSHOT_COPY_EVERY), PrivateStateAttr]
    ]
    _graalvm_snapshot_hmac: NotRequired[Annotated[bytes, PrivateStateAttr]]


class CodeInterpreterMiddleware(AgentMiddleware[GraalVMInterpreterState, ContextT, ResponseT]):
    """Gives the agent an ``eval`` tool that runs JavaScript/TypeScript in a sandboxed GraalVM interpreter.

    Every conversation thread gets its own interpreter, so nothing leaks between threads, and concurrent runs of
    one compiled graph stay isolated. In ``"thread"`` mode the globals survive across turns, and across processes
    through the checkpointer, as a snapshot kept in private graph state.

    Args:
        memory_limit: bytes one eval may keep; 0 disables the limit. Default 64 MiB.
        timeout: seconds of guest execution allowed per eval. Default 5.
        max_ptc_calls: per-eval budget of ``tools.*`` calls (``None``: unlimited). Default 256. The call past
            the budget rejects with ``PTCCallBudgetExceeded`` before its tool runs.
        tool_name: the name of the tool the model calls. Default ``"eval"``.
        max_result_chars: characters kept of the result, the error and the console output, each. Default 4000.
        capture_console: whether the guest gets a ``console`` whose output is returned. Default True.
        subagents: whether the guest gets a ``task({description, subagentType})`` global that dispatches the
            agent's Deep Agents subagents (present when the agent has a ``task`` tool). Default True.
        max_subagent_concurrency: how many ``task()`` dispatches of one eval run at once; the rest wait.
            A positive int. Default 32.
        ptc: the agent tools the guest may call as ``tools.<camelCaseName>(input)``: tool names (matched
            against the agent's tools) and ``BaseTool`` instances (exposed as given). ``None`` (default) means
            no ``tools`` global; ``[]`` an empty one. The eval tool and ``task`` are never exposed.
        mode: ``"thread"`` (default; globals persist across turns), ``"turn"`` (within one turn) or ``"call"``
            (a fresh interpreter for every eval).
        max_snapshot_bytes: the largest snapshot kept in state; a larger one is dropped with a warning and the
            next turn starts with empty globals. Defaults to ``memory_limit``.
        snapshot_signing_key: when set, snapshots are signed with HMAC-SHA256 (bound to the thread's slot) and a
            snapshot with a missing or wrong signature is refused with a warning. Use the same key in every
            process that serves a thread.
        previous_signing_keys: keys that stored snapshots may still be signed with, for rotating
            ``snapshot_signing_key``: a snapshot signed with one of them is restored, and re-signed with
            ``snapshot_signing_key`` as the run starts. Never used to sign. Default: none.
        language: ``"js"`` (TypeScript annotations are accepted in JavaScript cells) or ``"python"`` (GraalPy,
            Python 3.12; needs the optional GraalPy jars). The tool's description and prompt speak that language.
        clock: ``"frozen"`` (default: ``Date`` shows ``frozen_epoch_ms``, never the host's time) or ``"host"``.
        frozen_epoch_ms: the instant a frozen clock shows, in ms since 1970-01-01T00:00:00Z. Default 0.
        interrupt_on: not needed with ``create_deep_agent(interrupt_on=...)`` or a ``HumanInTheLoopMiddleware``
            in the agent: their policy governs calls from code too, which pause the run for review (see
            docs/tools.md). Tools named here that the agent does not review are refused when called through
            ``tools.*`` (``ApprovalRequired``), with a warning when the agent is built.
        max_wall_time: seconds one eval may take in all, waits on tools and subagents included. ``timeout``
            counts guest execution only, so this is what stops an eval whose tool hangs. Default 300.
        keep_warm: thread mode only. Default False: every turn restores the thread's snapshot into a new context,
            so a turn sees exactly what its snapshot holds, in this process or any other. With True, a thread's
            interpreter stays alive in this process after its turn (the 16 most recent threads, for up to 10
            minutes) and the next turn continues in it when the stored snapshot is still the one it wrote. That
            skips the restore and the new context (a turn then costs a fraction of the CPU), and values a
            snapshot cannot carry (a closure's private variables, promises, ...) live on, but only as long as
            the interpreter does: after a restart, an eviction or a fork, the thread goes on from its snapshot.
        audit: receives every eval of the tool as an :class:`~langchain_graalvm.AuditRecord` (code, outcome,
            duration, the conversation's ``thread_id``): a callable, a :class:`logging.Logger` or a logger's name.
        files: the agent's files inside code (off by default): ``"read"``, ``"read-write"``, a
            :class:`~langchain_graalvm.FilesAccess` (mode, path prefixes, per-eval byte cap, the agent's backend)
            or a mapping of its fields. JavaScript gets a frozen ``fs`` global (``await fs.readFile(path, "utf8")``,
            ``fs.writeFile``, ``fs.readdir``, ``fs.stat``, ``fs.rm``, ``fs.glob``), Python a ``files`` object. Calls
            go through the agent's backend only, never the host's file system.
        interrupt_grace: seconds an interrupted guest gets to stop before its context is closed by force.
            Default 0.5.
        heap_factor: JVM heap allowed per byte of ``memory_limit`` (see
            :class:`~langchain_graalvm.Interpreter`). Default 2.
        max_code_bytes: the largest cell accepted, in bytes of UTF-8 (default 1 MiB); larger code gets a
            ``CodeTooLarge`` error before anything parses it.
        max_nesting: the deepest nesting a cell may have (default 1000 levels of brackets, template
            substitutions, regular expression groups and chained operators); deeper code gets ``CodeTooDeep``.
        isolation: where guest code runs: ``"in-process"`` (this process's JVM) or ``"process"`` (a worker JVM
            per interpreter, its heap capped, killed and replaced on a crash; see docs/workers.md). ``None``
            (default): ``LANGCHAIN_GRAALVM_ISOLATION``, else ``"in-process"``.
        stream_output: what the guest prints goes to the ``custom`` stream while the cell runs, as ``EvalOutputEvent``
            events keyed by the eval's tool call id (see docs/tools.md). Default True; False turns it off.

    Example:
        ```python
        from deepagents import create_deep_agent
        from langchain_graalvm import CodeInterpreterMiddleware

        agent = create_deep_agent(model="claude-sonnet-4-6", middleware=[CodeInterpreterMiddleware()])
        ```
    """

    trace_policy = TracePolicy(process_inputs=omit_payload)
    state_schema = GraalVMInterpreterState

    def __init__(
        self,
        *,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        timeout: float = 5.0,
        max_ptc_calls: int | None = 256,
        tool_name: str = "eval",
        max_result_chars: int = 4000,
        capture_console: bool = True,
        subagents: bool = True,
        max_subagent_concurrency: int = 32,
        ptc: PTCOption | None = None,
        mode: Mode | None = None,
        max_snapshot_bytes: int | None = None,
        snapshot_signing_key: str | bytes | None = None,
        language: str = "js",
        clock: Clock = "frozen",
        frozen_epoch_ms: int = 0,
        keep_warm: bool = False,
        interrupt_on: Mapping[str, Any] | None = None,
        max_wall_time: float = 300.0,
        audit: _audit.AuditTarget = None,
        previous_signing_keys: Sequence[str | bytes] = (),
        files: _files.FilesOption = None,
        interrupt_grace: float = 0.5,
        heap_factor: float = 2.0,
        max_code_bytes: int = DEFAULT_MAX_CODE_BYTES,
        max_nesting: int = DEFAULT_MAX_NESTING,
        isolation: Isolation | None = None,
        stream_output: bool = True,
    ) -> None:
        super().__init__()
        self.files = _files.check_files_option(files)
        if max_ptc_calls is not None and max_ptc_calls < 1:
            raise OptionsError("`max_ptc_calls` must be >= 1 or None")
        if max_snapshot_bytes is not None and max_snapshot_bytes < 1:
            raise OptionsError("`max_snapshot_bytes` must be >= 1 or None")
        if type(max_subagent_concurrency) is not int or max_subagent_concurrency < 1:
            raise OptionsError("`max_subagent_concurrency` must be a positive integer")
        self.stream_output = bool(stream_output)
        self.mode: Mode = resolve_mode(mode)
        self._auditor = _audit.resolve(audit)
        self._signing_key = snap.signing_key(snapshot_signing_key)
        if isinstance(previous_signing_keys, (str, bytes)):
            raise OptionsError("`previous_signing_keys` must be a list of keys, not one key")
        if previous_signing_keys and self._signing_key is None:
            raise OptionsError("`previous_signing_keys` needs `snapshot_signing_key`, the key that signs new snapshots")
        self._previous_keys = tuple(k for k in map(snap.signing_key, previous_signing_keys) if k is not None)
        language = resolve_language(language, quoted=True)
        check_clock(clock, quoted=True)
        check_frozen_epoch(frozen_epoch_ms)
        self.memory_limit = memory_limit
        self.timeout = timeout
        self.max_ptc_calls = max_ptc_calls
        self.tool_name = tool_name
        self.max_result_chars = max_result_chars
        self.capture_console = capture_console
        self.subagents = subagents
        self.max_subagent_concurrency = max_subagent_concurrency
        self.ptc = _ptc.check_ptc_option(ptc, tool_name)
        self.interrupt_on = dict(interrupt_on or {})
        self._approval_required = frozenset(name for name, rule in self.interrupt_on.items() if rule)
        self.max_wall_time = max_wall_time
        self._ptc_sections: dict[tuple[tuple[str, int], ...], str] = {}
        self.max_snapshot_bytes = memory_limit if max_snapshot_bytes is None else max_snapshot_bytes
        self.language = language
        self.clock = clock
        self.frozen_epoch_ms = frozen_epoch_ms
        self.keep_warm = bool(keep_warm) and self.mode == "thread"
        # Fails now, not on the model's first eval, for limits the interpreter cannot run with (e.g. timeout=0).
        self._spec = InterpreterOptions(
            language=self.language,
            timeout=timeout,
            memory_limit=memory_limit,
            max_result_chars=max_result_chars,
            capture_console=capture_console,
            clock=clock,
            frozen_epoch_ms=frozen_epoch_ms,
            snapshots=self.mode == "thread",
            max_wall_time=max_wall_time,
            interrupt_grace=interrupt_grace,
            heap_factor=heap_factor,
            max_code_bytes=max_code_bytes,
            max_nesting=max_nesting,
            agent_modules=self.files is not None,
            isolation=resolve_isolation(isolation, quoted=True),
        )
        if _prestart.enabled():
            # The JVM and a first context start now, while the agent is built and the model thinks.
            _spares.shared_pool().prewarm(self._spec)
        self._prompt = prompts.for_language(self.language)
        prompt_config = prompts.PromptConfig(
            tool_name=tool_name, mode=self.mode, limits=self._spec, ptc=self.ptc is not None
        )
        self._system_prompt = self._prompt.system_prompt(prompt_config) + _files.prompt_section(
            self.files, tool_name, self.language
        )
        self._registry = _slots.new_registry()
        weakref.finalize(self, self._registry.close)
        self._prompt_config = prompt_config
        self._tools: list[BaseTool] = [_evaltool.build_tool(self, prompt_config, None)]
        self._agent_tools = _review.AgentTools()

    @property  # type: ignore[override]
    def tools(self) -> list[BaseTool]:
        """The ``eval`` tool. ``create_agent`` reads this while it builds the agent; that is when the middleware
        learns the agent's review policy (its ``HumanInTheLoopMiddleware``), and the agent gets an ``eval`` tool
        bound to that policy."""
        stack = _review.agent_middleware(self)
        if stack is None:
            return self._tools
        policy = _review.ReviewPolicy.of(stack)
        self._adopt_review(policy)
        return [self._agent_tools.for_policy(policy, lambda p: _evaltool.build_tool(self, self._prompt_config, p))]

    @tools.setter
    def tools(self, value: list[BaseTool]) -> None:
        self._tools = value

    def _adopt_review(self, policy: _review.ReviewPolicy) -> None:
        unreviewed = sorted(self._approval_required - policy.reviewed)
        if unreviewed:
            logger.warning(
                "CodeInterpreterMiddleware(interrupt_on=...) names %s, which the agent does not review (it has no "
                "HumanInTheLoopMiddleware for them): calls to them from code are refused. Give the mapping to "
                "create_deep_agent(interrupt_on=...) instead, and calls from code pause for review.",
                ", ".join(unreviewed),
            )
        if policy.reviewed and self.mode == "turn" and not self._spec.snapshots:
            # A paused cell is rolled back to its start; in turn mode that needs the globals' snapshot.
            self._spec = dataclasses.replace(self._spec, snapshots=True)
        self._ptc_sections.clear()

    # ------------------------------------------------------------------------------------------------ slots

    def _slot_id(self, state: Mapping[str, Any]) -> str:
        slot_id = state.get(snap.SLOT_KEY)
        if isinstance(slot_id, str) and slot_id:
            return slot_id
        raise ValueError(
            "GraalVM private state is missing `_graalvm_slot_id`; "
            "`CodeInterpreterMiddleware.before_agent` must run before eval."
        )

    def _run(self, state: Mapping[str, Any], code: str, host: _hostcalls.HostCalls | None = None) -> str:
        """The eval tool's body, minus the LangChain wrapper: runs ``code`` in the run's interpreter."""
        return _evaltool.run(self, state, code, host)

    async def _arun(self, state: Mapping[str, Any], code: str, host: _hostcalls.HostCalls | None = None) -> str:
        """Async :meth:`_run`."""
        return await _evaltool.arun(self, state, code, host)

    # ------------------------------------------------------------------------------------------------ hooks

    def before_agent(
        self,
        state: GraalVMInterpreterState,
        runtime: Runtime[ContextT],  # noqa: ARG002
    ) -> dict[str, Any] | None:
        """Gives the thread a slot id, checks its stored snapshot, and opens the slot for this run."""
        update: dict[str, Any] = {}
        slot_id = state.get(snap.SLOT_KEY)
        if not isinstance(slot_id, str) or not slot_id:
            slot_id = f"gvm_{uuid.uuid4().hex}"
            update[snap.SLOT_KEY] = slot_id
        pending: bytes | None = None
        if self.mode == "thread":
            pending, refused = snap.check_stored(state, slot_id, self._signing_key, self._previous_keys)
            if refused:
                update.update(snap.CLEARED)
            elif pending and self._previous_keys and self._signing_key is not None:
                update.update(snap.resigned(state, slot_id, self._signing_key, pending) or {})
        if self.mode != "call":
            digest = snap.payload_digest(pending) if pending and self.keep_warm else None
            self._registry.open(slot_id, self._spec, pending, digest=digest).prefetch()
        return update or None

    async def abefore_agent(self, state: GraalVMInterpreterState, runtime: Runtime[ContextT]) -> dict[str, Any] | None:
        """Async :meth:`before_agent` (it does no I/O)."""
        return self.before_agent(state, runtime)

    def after_agent(
        self,
        state: GraalVMInterpreterState,
        runtime: Runtime[ContextT],  # noqa: ARG002
    ) -> dict[str, Any] | None:
        """Closes this run's slot; in thread mode, first stores its snapshot when an eval changed the globals."""
        slot_id = state.get(snap.SLOT_KEY)
        slot = self._registry.pop(slot_id) if isinstance(slot_id, str) else None
        if slot is None:
            return None
        saved_as: bytes | None = None
        try:
            if self.mode != "thread":
                return None
            if not slot.used:
                saved_as = slot.digest  # a parked slot that sat this run out still holds the stored globals
                return None
            update, saved_as = self._store_snapshot(slot, state)
            return update
        finally:
            if self.keep_warm and saved_as is not None and slot.warm:
                self._registry.park(slot, saved_as)
            else:
                slot.close()

    async def aafter_agent(self, state: GraalVMInterpreterState, runtime: Runtime[ContextT]) -> dict[str, Any] | None:
        """Async :meth:`after_agent`; the snapshot is taken off the event loop."""
        return await asyncio.to_thread(self.after_agent, state, runtime)

    def _store_snapshot(
        self, slot: _slots.Slot, state: Mapping[str, Any]
    ) -> tuple[dict[str, Any] | None, bytes | None]:
        """The state update storing the slot's globals, and the digest of the payload stored (None: none is)."""
        try:
            payload = slot.snapshot(self.max_snapshot_bytes)
        except SnapshotError as exc:
            if exc.too_large:
                logger.warning(
                    "Dropping GraalVM snapshot for slot_id=%s (it exceeds max_snapshot_bytes=%d); "
                    "the next turn starts with empty globals.",
                    slot.slot_id,
                    self.max_snapshot_bytes,
                )
            else:
                logger.warning("Failed to create GraalVM snapshot for slot_id=%s: %s", slot.slot_id, exc)
            return dict(snap.CLEARED), None
        except Exception:  # noqa: BLE001 - never fail the run over its snapshot
            logger.warning("Failed to create GraalVM snapshot for slot_id=%s", slot.slot_id, exc_info=True)
            return dict(snap.CLEARED), None
        prior = b"" if slot.restore_failed else snap.stored_payload(state)
        update = snap.snapshot_update(payload, prior, slot.slot_id, self._signing_key)
        return update, snap.payload_digest(payload) if self.keep_warm else None

    def wrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], ModelResponse[ResponseT]],
    ) -> ModelResponse[ResponseT]:
        """Appends the interpreter's section to the system message of every model call."""
        return handler(self._with_prompt(request))

    async def awrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[ResponseT]]],
    ) -> ModelResponse[ResponseT]:
        """Async :meth:`wrap_model_call`."""
        return await handler(self._with_prompt(request))

    def _with_prompt(self, request: ModelRequest[ContextT]) -> ModelRequest[ContextT]:
        prompt = self._system_prompt + self._host_calls_prompt(request.tools)
        return request.override(system_message=append_to_system_message(request.system_message, prompt))

    def _host_calls_prompt(self, available: list[Any]) -> str:
        """The prompt sections for ``tools`` and ``task``, cached per tool set and review policy."""
        tools = _ptc.select_tools(self.ptc, available, self.tool_name, self.language)
        has_task = self.subagents and _ptc.find_task_tool(available) is not None
        policy = self._agent_tools.policy_of(available)
        reviewed = policy.reviewed if policy is not None else frozenset()
        if reviewed and _review.pause_unavailable(_evaltool.current_config()) is not None:
            gated, reviewed = set(self._approval_required | reviewed), frozenset()
        else:
            gated = set(self._approval_required - reviewed)
        builtins = (policy.reviewed if policy is not None else frozenset()) & frozenset(
            ({"write_file", "edit_file"} if self.files is not None else set()) | ({"task"} if has_task else set())
        )
        key = (
            *((name, id(tool)) for name, tool in (tools or {}).items()),
            ("", int(has_task)),
            ("?", hash((frozenset(gated), reviewed, builtins))),
        )
        section = self._ptc_sections.get(key)
        if section is None:
            section = ""
            if tools:
                section += self._prompt.tools_section(tools, self.tool_name, self.max_ptc_calls, gated, reviewed)
            if has_task:
                section += self._prompt.task_section(self.max_subagent_concurrency)
            if builtins:
                section += reviewed_builtins_line(builtins)
            if len(self._ptc_sections) > 64:
                self._ptc_sections.clear()
            self._ptc_sections[key] = section
        return section

    def close(self) -> None:
        """Closes every interpreter this middleware has open (runs still in progress lose their slot)."""
        self._registry.close()
