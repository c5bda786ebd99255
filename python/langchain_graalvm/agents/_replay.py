"""Host calls of a cell that may pause for review: recorded by LangGraph, replayed when the cell runs again.

A reviewed call pauses the run with a LangGraph ``interrupt`` whose value is the ``HITLRequest`` the agent's
``HumanInTheLoopMiddleware`` would send. LangGraph runs the tool node again from its start on resume, so the cell
runs again from its start: every host call of it is a LangGraph task (``langgraph.func``'s durable step, the
checkpointer's pending writes), taken in the guest's call order, so a call made before the pause returns its
recorded result instead of running a second time, in this process or another. The n-th reviewed call of the cell
takes the n-th decision of the resume values, in order; reviewed calls waiting together are asked in one
interrupt: the batch closes when the guest waits on the reviewed calls alone (it can make no progress without an
answer), as Java reports it, never on a timer. With the reviewer's ``interrupt_mode="per_call"`` each reviewed call
is asked alone, in call order, with the ``ToolApprovalRequest`` shape, and answered by one decision. The guest's
random numbers are seeded per cell from a seed recorded with the cell's first step. A re-run
whose calls differ from the recorded ones ends with :class:`ReplayError`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from langgraph.pregel._call import call
from langgraph.types import interrupt

from ._review import ReviewPolicy

_STEP_VERSION = 1

Outcome = tuple[Any, bool]  # (guest value, ok)
Execute = Callable[[str, str, dict[str, Any]], Awaitable[Outcome]]


class ReplayError(Exception):
    """The cell's re-run after a pause made other host calls than the run that paused."""


def _digest(kind: str, name: str, args: dict[str, Any]) -> str:
    text = json.dumps([kind, name, args], sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


async def eval_host_call(run: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    """One host call of a cell under review, as a durable step (its result is recorded by the checkpointer)."""
    return await run()


def eval_host_call_sync(run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """:func:`eval_host_call` for agents run synchronously (the step runs in LangGraph's worker thread)."""
    return run()


class DurableCalls:
    """The host calls of one eval made durable, the reviewed ones paused for a decision."""

    def __init__(
        self,
        policy: ReviewPolicy,
        runtime: Any,
        loop: asyncio.AbstractEventLoop,
        *,
        sync_graph: bool,
        tools: Mapping[str, Any] | None = None,
    ) -> None:
        self._policy = policy
        self._callable = dict(tools or {})  # the guest's name -> tool, of the tools code may call
        self._runtime = runtime
        self._loop = loop
        self._sync_graph = sync_graph
        self._ordinal = 0
        self._numbers: dict[int, int] = {}  # ordinal -> the guest's call number (1-based)
        self._next_turn = 0
        self._turns = asyncio.Condition()
        self._reviewed = 0
        self._waiting: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self._decisions: list[dict[str, Any]] = []
        self._pending: dict[int, int | None] = {}  # ordinal -> review index (None: unreviewed), step not issued
        self._ready_for = -1  # the guest waited on undecided calls alone when this many decisions were known
        self._wake = asyncio.Event()  # replaced each time it is set: calls waiting for a decision look again
        self._tools: dict[int, Any] = {}  # review index -> the tool, for a per-call request's answer schema
        self._stopped = False  # a call ended the eval (a pause, an error): later calls issue no step
        self._failed: dict[int, str] = {}  # ordinal -> why its review rule could not be applied

    # ------------------------------------------------------------------------------------------------ entry

    def start(self, kind: str, tool: Any, args: dict[str, Any]) -> tuple[int, Any, int | None]:
        """Registers a call as the guest made it (call order): its ordinal, its review rule and review index."""
        ordinal = self._ordinal
        self._ordinal += 1
        if kind != "cell":
            self._numbers[ordinal] = len(self._numbers) + 1
        rule = None
        action = None
        if kind == "tool" and tool is not None:
            try:
                rule = self._policy.rule_for(tool.name, args, self._runtime, tool)
                action = self._policy.action(tool.name, args, rule, self._runtime) if rule is not None else None
            except Exception as exc:  # noqa: BLE001 - a user's `when` or `description` failed: the call fails
                self._failed[ordinal] = f"the review rule of `{tool.name}` failed: {exc or repr(exc)}"
                self._pending[ordinal] = None
                return ordinal, None, None
        index = None
        if rule is not None and action is not None:
            index = self._reviewed
            self._reviewed += 1
            self._waiting[index] = action
            self._tools[index] = tool
        self._pending[ordinal] = index
        return ordinal, rule, index

    async def run(
        self,
        started: tuple[int, Any, int | None],
        kind: str,
        name: str,
        tool: Any,
        args: dict[str, Any],
        execute: Execute,
    ) -> Outcome:
        """The call's outcome: asked for review when its rule says so, then recorded or replayed."""
        ordinal, rule, index = started
        issued = False
        try:
            failed = self._failed.get(ordinal)
            if failed is not None:
                return {"type": "ReviewRuleError", "message": f"{_label(kind, name)}: {failed}"}, False
            if rule is not None and index is not None:
                decision = await self._decision(index)
                answer = self._apply(decision, tool.name, rule["allowed_decisions"], name)
                if answer is not None:
                    return answer
                if decision["type"] == "edit":
                    edited = decision["edited_action"]
                    args = dict(edited.get("args") or {})
                    if edited.get("name", tool.name) != tool.name:
                        target = self._callable_as(str(edited["name"]))
                        if target is None:
                            return _edit_refused(name, str(edited["name"]), self._callable), False
                        name, tool = target
            await self._await_turn(ordinal)
            if self._stopped:
                raise asyncio.CancelledError  # the eval is being stopped: a step now would shift the numbering
            step = self._step(kind, name, args, execute)
            issued = True
            self._pending.pop(ordinal, None)
            await self._pass_turn(ordinal)
            record = await step
        except BaseException:
            if not issued:
                self._stopped = True  # before the turn passes: later calls must not take this call's step
                self._notify()
            raise
        finally:
            if not issued:
                await self._await_turn(ordinal)  # still pending meanwhile: it waits on the calls before it
                self._pending.pop(ordinal, None)
                await self._pass_turn(ordinal)
        if record.get("digest") != _digest(kind, name, args):
            number = self._numbers.get(ordinal, 0)
            raise ReplayError(
                f"the cell cannot be resumed after the review: its host call #{number} on the re-run "
                f"({_label(kind, name)}) is not the call the paused run made at that place "
                f"({_label(record.get('kind', '?'), record.get('name', '?'))}, or the same call with other "
                "arguments). Code that pauses for review must make the same calls when it runs again: depend only "
                "on its inputs, tool results, the frozen clock and Math.random (Python: the random module's "
                "functions), which replays the same numbers."
            )
        return record["value"], bool(record["ok"])

    # ------------------------------------------------------------------------------------------------ order

    async def _await_turn(self, ordinal: int) -> None:
        async with self._turns:
            await self._turns.wait_for(lambda: self._next_turn >= ordinal)

    async def _pass_turn(self, ordinal: int) -> None:
        async with self._turns:
            if self._next_turn == ordinal:
                self._next_turn = ordinal + 1
            self._turns.notify_all()

    def _step(self, kind: str, name: str, args: dict[str, Any], execute: Execute) -> Awaitable[dict[str, Any]]:
        """Starts the durable step of one call now (LangGraph numbers steps in the order they start)."""
        digest = _digest(kind, name, args)

        async def outcome() -> dict[str, Any]:
            value, ok = await execute(kind, name, args)
            return {"v": _STEP_VERSION, "kind": kind, "name": name, "digest": digest, "ok": ok, "value": value}

        if self._sync_graph:
            loop = self._loop

            def blocking() -> dict[str, Any]:
                return asyncio.run_coroutine_threadsafe(outcome(), loop).result()

            return asyncio.wrap_future(call(eval_host_call_sync, blocking))
        return call(eval_host_call, outcome)

    # ------------------------------------------------------------------------------------------------ review

    def guest_waiting(self, open_calls: int) -> None:
        """The guest waits with nothing to run, every result sent to it taken, and ``open_calls`` calls unanswered:
        when each of them waits on an undecided review (its own, or an earlier call's, in turn order), the guest
        can make no progress without a decision, and the reviewed calls waiting are asked about now."""
        if not self._stopped and open_calls > 0 and open_calls == self._parked():
            self._ready_for = len(self._decisions)
            self._notify()

    def _parked(self) -> int:
        """How many calls cannot go on before a decision: the first undecided reviewed call and every call after
        it that has not issued its step."""
        decided = len(self._decisions)
        undecided = [o for o, index in self._pending.items() if index is not None and index >= decided]
        if not undecided:
            return 0
        first = min(undecided)
        return sum(1 for ordinal in self._pending if ordinal >= first)

    def _notify(self) -> None:
        self._wake.set()
        self._wake = asyncio.Event()

    async def _decision(self, index: int) -> dict[str, Any]:
        while index >= len(self._decisions):
            if self._stopped:
                raise asyncio.CancelledError  # the eval is being stopped (a pause): no second interrupt
            if index == len(self._decisions) == self._ready_for:
                self._ask(index)  # no await from the check to the interrupt: one asker per pause
                continue
            await self._wake.wait()
        return self._decisions[index]

    def _ask(self, first: int) -> None:
        """Asks the reviewer about the undecided calls (per call: the first of them alone); raises the run's
        interrupt, or takes the decisions of a resumed run."""
        try:
            decisions = self._ask_per_call(first) if self._policy.per_call else self._ask_batch(first)
        except BaseException:
            self._stopped = True
            self._notify()
            raise
        self._decisions.extend(decisions)
        self._notify()

    def _ask_batch(self, first: int) -> list[dict[str, Any]]:
        batch = [self._waiting[i] for i in sorted(self._waiting) if i >= first]
        request = {
            "action_requests": [action for action, _ in batch],
            "review_configs": [review for _, review in batch],
        }
        answer = interrupt(request)
        decisions = answer.get("decisions") if isinstance(answer, dict) else None
        if not isinstance(decisions, list) or not decisions:
            raise ReplayError(
                "the review's answer has no `decisions` list; resume with "
                '`Command(resume={"decisions": [...]})`, one decision per reviewed call in order'
            )
        if len(decisions) != len(batch):
            raise ReplayError(
                f"the review's answer has {len(decisions)} decisions for {len(batch)} reviewed "
                f"call{'s' if len(batch) != 1 else ''}; give exactly one decision per reviewed call, in order"
            )
        return [d if isinstance(d, dict) else {} for d in decisions]

    def _ask_per_call(self, first: int) -> list[dict[str, Any]]:
        action, review = self._waiting[first]
        request, schema = self._policy.approval_request(
            action, review, getattr(self._runtime, "tool_call_id", None) or "", self._tools.get(first)
        )
        decision = interrupt(request, response_schema=schema)
        return [dict(decision) if isinstance(decision, dict) else {}]

    @staticmethod
    def _apply(decision: dict[str, Any], tool_name: str, allowed: list[str], label: str) -> Outcome | None:
        """The outcome a decision gives without running the tool (reject, respond); None to run it."""
        kind = decision.get("type")
        if kind not in allowed:
            raise ReplayError(
                f"the reviewer's decision {kind!r} for `{tool_name}` is not one of its allowed decisions {allowed}"
            )
        if kind == "reject":
            reason = decision.get("message")
            message = (
                f"tools.{label}: the reviewer rejected this call: {reason}"
                if reason
                else f"tools.{label}: the reviewer rejected this call; it did not run. Do not retry it unless the "
                "user asks."
            )
            return {"type": "ToolRejected", "message": message}, False
        if kind == "respond":
            return decision.get("message", ""), True
        if kind == "edit":
            edited = decision.get("edited_action")
            if not isinstance(edited, dict) or not isinstance(edited.get("args", {}), dict):
                raise ReplayError(f"an `edit` decision for `{tool_name}` must give `edited_action.args`, an object")
        return None

    def _callable_as(self, tool_name: str) -> tuple[str, Any] | None:
        """The guest's name and the tool of the tool called ``tool_name``, when code may call it; else None."""
        return next(((js, tool) for js, tool in self._callable.items() if tool.name == tool_name), None)


def _edit_refused(name: str, target: str, tools: Mapping[str, Any]) -> dict[str, Any]:
    names = ", ".join(sorted(tool.name for tool in tools.values())) or "none"
    return {
        "type": "ToolEditError",
        "message": f"tools.{name}: the reviewer replaced this call with a call of `{target}`, which code cannot call "
        f"here (the tools code may call: {names}); nothing ran",
    }


def _label(kind: str, name: str) -> str:
    return {"tool": f"tools.{name}", "task": "task()", "fs": f"fs.{name}"}.get(kind, name)
