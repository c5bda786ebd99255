"""The agent's review policy as calls from code see it: which tools pause for a human, and with what request.

The policy is the agent's own ``HumanInTheLoopMiddleware`` (``create_deep_agent(interrupt_on=...)`` adds one):
:func:`agent_middleware` finds the middleware list the agent is being built from while ``create_agent`` reads the
interpreter middleware's ``tools``, so there is no second copy of ``interrupt_on`` to keep in step.
"""

from __future__ import annotations

import dataclasses
import sys
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import FrameType
from typing import Any

from langchain.agents.middleware import HumanInTheLoopMiddleware, InterruptOnConfig
from langchain.agents.middleware.human_in_the_loop import _decision_schema
from langchain.agents.middleware.types import ToolCallRequest
from langchain.tools import BaseTool
from langgraph._internal._constants import CONF, CONFIG_KEY_CALL, CONFIG_KEY_CHECKPOINTER

_BUILDER = "create_agent"
_MAX_DEPTH = 6

DecisionType = str


def agent_middleware(me: object) -> list[Any] | None:
    """The middleware list of the agent ``create_agent`` is building with ``me`` in it; None when not called from
    there. Read from the builder's frame (its ``middleware`` argument) while it collects the middlewares' tools."""
    frame: FrameType | None = sys._getframe(2)  # noqa: SLF001 - the builder reading the `tools` property
    for _ in range(_MAX_DEPTH):
        if frame is None:
            return None
        if frame.f_code.co_name == _BUILDER:
            stack = frame.f_locals.get("middleware")
            if isinstance(stack, Sequence) and any(m is me for m in stack):
                return list(stack)
            return None
        frame = frame.f_back
    return None


@dataclasses.dataclass(frozen=True)
class ReviewPolicy:
    """The review rules of the agent an interpreter middleware is part of."""

    configs: Mapping[str, InterruptOnConfig]
    description_prefix: str
    reviewer: HumanInTheLoopMiddleware[Any, Any, Any] | None

    @classmethod
    def of(cls, stack: Sequence[Any]) -> ReviewPolicy:
        """The policy of the agent built from ``stack``: its ``HumanInTheLoopMiddleware``'s, or none."""
        reviewer = next((m for m in stack if isinstance(m, HumanInTheLoopMiddleware)), None)
        if reviewer is None:
            return cls({}, "", None)
        return cls(dict(reviewer.interrupt_on), reviewer.description_prefix, reviewer)

    @property
    def reviewed(self) -> frozenset[str]:
        return frozenset(self.configs)

    @property
    def per_call(self) -> bool:
        """Whether the reviewer asks about each call alone (``interrupt_mode="per_call"``) rather than in batches."""
        return getattr(self.reviewer, "interrupt_mode", "batched") == "per_call"

    @staticmethod
    def approval_request(
        action: Mapping[str, Any], review: Mapping[str, Any], tool_call_id: str, tool: Any
    ) -> tuple[dict[str, Any], Any]:
        """The ``ToolApprovalRequest`` of one call in per-call mode, and the schema its answer must match (the
        reviewer's own: the allowed decisions, an edit keeping the tool's name and following its arguments).
        ``tool_call_id`` is the model's ``eval`` call the call from code belongs to."""
        request = {
            "type": "tool_approval",
            "tool_call_id": tool_call_id,
            "name": action["name"],
            "args": action["args"],
            "description": action.get("description", ""),
        }
        return request, _decision_schema(review["allowed_decisions"], action["name"], tool)

    def rule_for(self, name: str, args: dict[str, Any], runtime: Any, tool: Any) -> InterruptOnConfig | None:
        """The rule a call of tool ``name`` must be reviewed under; None when it runs without review."""
        config = self.configs.get(name)
        if config is None:
            return None
        when = config.get("when")
        if when is not None:
            tool_call = {"name": name, "args": args, "id": getattr(runtime, "tool_call_id", None), "type": "tool_call"}
            state = getattr(runtime, "state", None) or {}
            request = ToolCallRequest(tool_call=tool_call, tool=tool, state=state, runtime=runtime)  # type: ignore[arg-type]
            if not when(request):
                return None
        return config

    def action(
        self, name: str, args: dict[str, Any], config: InterruptOnConfig, runtime: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The ``ActionRequest`` and ``ReviewConfig`` of one call, as ``HumanInTheLoopMiddleware`` writes them."""
        described = config.get("description")
        tool_call = {"name": name, "args": args, "id": getattr(runtime, "tool_call_id", None), "type": "tool_call"}
        if callable(described):
            description = described(tool_call, getattr(runtime, "state", None) or {}, runtime)  # type: ignore[arg-type]
        elif described is not None:
            description = described
        else:
            description = f"{self.description_prefix}\n\nTool: {name}\nArgs: {args}"
        action = {"name": name, "args": args, "description": description}
        review = {"action_name": name, "allowed_decisions": list(config["allowed_decisions"])}
        return action, review


def pause_unavailable(config: Mapping[str, Any] | None) -> str | None:
    """Why a run with this config cannot pause for review (no checkpointer, not a graph run); None when it can."""
    configurable = (config or {}).get(CONF) or {}
    if configurable.get(CONFIG_KEY_CALL) is None:
        return "this eval does not run inside a LangGraph graph, so it cannot pause for the review"
    if configurable.get(CONFIG_KEY_CHECKPOINTER) is None:
        return "the agent has no checkpointer, so the run cannot pause for the review"
    return None


class AgentTools:
    """The ``eval`` tool of each agent built with one middleware, one per reviewer, kept only as long as an agent
    holds it: agents sharing the middleware never see one another's policy, and a process that builds agents
    without end (a new ``interrupt_on`` per request) does not keep the tools of the agents it has dropped."""

    def __init__(self) -> None:
        self._by_reviewer: weakref.WeakValueDictionary[int, BaseTool] = weakref.WeakValueDictionary()
        self._policies: dict[int, ReviewPolicy] = {}  # id of a live tool -> its policy

    def for_policy(self, policy: ReviewPolicy, build: Callable[[ReviewPolicy], BaseTool]) -> BaseTool:
        """The tool bound to ``policy``'s reviewer: the one an agent still holds, else a new one from ``build``."""
        # A live tool's policy keeps its reviewer alive, so no other reviewer can have the id it is filed under.
        tool = self._by_reviewer.get(id(policy.reviewer))
        if tool is not None:
            return tool
        tool = build(policy)
        self._by_reviewer[id(policy.reviewer)] = tool
        self._policies[id(tool)] = policy
        weakref.finalize(tool, self._policies.pop, id(tool), None)
        return tool

    def policy_of(self, available: Iterable[Any]) -> ReviewPolicy | None:
        """The policy of the agent whose model sees ``available``: the one its ``eval`` tool is bound to."""
        return next((self._policies[id(t)] for t in available if id(t) in self._policies), None)

    def __len__(self) -> int:
        return len(self._policies)
