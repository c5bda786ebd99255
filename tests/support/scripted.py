"""Shared pieces for the middleware tests and ``bench/agent_turn.py``: a scripted chat model and agent builders.

The scripted model needs no shared iterator, so any number of threads and tasks can drive one instance at once.
A user turn is a JSON list of code strings (or a plain string, for one cell). The model answers the turn with one
``eval`` tool call per cell, in order, then with a final text that joins the tool results with ``"\\n---\\n"``.
A cell written ``"tool:NAME"`` calls the tool NAME with no arguments instead of ``eval``
(``"tool:NAME {json}"`` with those arguments). A turn whose text does
not parse as a list of strings is answered with plain text and no tool call.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field, PrivateAttr

SEPARATOR = "\n---\n"


def cells_of(text: str) -> list[str] | None:
    """The cells a user turn asks for, or None when the turn is plain chat."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    if isinstance(parsed, str):
        return [parsed]
    if isinstance(parsed, list) and all(isinstance(c, str) for c in parsed):
        return parsed
    return None


def turn(*cells: str) -> dict[str, Any]:
    """The input of one agent turn that runs ``cells`` in order."""
    return {"messages": [HumanMessage(json.dumps(list(cells)))]}


def results_of(state: dict[str, Any]) -> list[str]:
    """The tool results the model reported at the end of a turn."""
    final = state["messages"][-1]
    assert isinstance(final, AIMessage), final
    return str(final.content).split(SEPARATOR)


class ScriptedChatModel(BaseChatModel):
    """Emits one tool call per cell of the latest user turn, then a summary; records every prompt it was given."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tool_name: str = "eval"
    latency_s: float = 0.0
    """Seconds each call waits before answering, as a hosted model would."""
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._lock:
            self.seen.append(list(messages))
        if self.latency_s:
            time.sleep(self.latency_s)
        return ChatResult(generations=[ChatGeneration(message=self._next(messages))])

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        cells = cells_of(str(messages[last_human].content))
        done = [m for m in messages[last_human + 1 :] if isinstance(m, ToolMessage)]
        if cells is None:
            return AIMessage(content="no code")
        if len(done) < len(cells):
            return AIMessage(content="", tool_calls=[self._call(cells[len(done)])])
        return AIMessage(content=SEPARATOR.join(str(m.content) for m in done))

    def _call(self, cell: str) -> dict[str, Any]:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        if cell.startswith("tool:"):
            name, _, args = cell[len("tool:") :].partition(" ")
            return {"name": name, "args": json.loads(args) if args else {}, "id": call_id}
        return {"name": self.tool_name, "args": {"code": cell}, "id": call_id}


class ParallelScriptedChatModel(ScriptedChatModel):
    """Like :class:`ScriptedChatModel`, but asks for every cell of a turn at once, as parallel tool calls."""

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        cells = cells_of(str(messages[last_human].content)) or []
        done = [m for m in messages[last_human + 1 :] if isinstance(m, ToolMessage)]
        if not done and cells:
            return AIMessage(content="", tool_calls=[self._call(c) for c in cells])
        return AIMessage(content=SEPARATOR.join(str(m.content) for m in done))


def build_agent(middleware: Any, *, checkpointer: Any = None, model: ScriptedChatModel | None = None, **kw: Any) -> Any:
    """A real Deep Agent around ``middleware`` and the scripted model."""
    from deepagents import create_deep_agent

    chat = model or ScriptedChatModel(tool_name=getattr(middleware, "tool_name", "eval"))
    mws = [middleware] if middleware is not None else []
    return create_deep_agent(model=chat, middleware=mws, checkpointer=checkpointer, **kw)


def thread(thread_id: str | None = None) -> dict[str, Any]:
    """A run config for one conversation thread."""
    return {"configurable": {"thread_id": thread_id or uuid.uuid4().hex}}
