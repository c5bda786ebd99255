"""One scripted chat model for the demo, the benchmarks and the tests: deterministic, offline, shared by threads.

The model keeps no position of its own: it finds the script of the latest human message and counts the tool
results after it, so any number of conversations, threads and tasks can drive one instance at once. The script
of a message is one of two kinds:

- ``turns``: a :class:`ScriptedTurn` whose ``user`` text equals the message (the demo's conversation); a message
  with no turn gets a plain reply saying so.
- cells (no ``turns``): the message is a JSON list of code strings (or one string), answered with one ``eval``
  call per cell, in order, then a final text joining the tool results with :data:`SEPARATOR`. A cell written
  ``"tool:NAME"`` calls the tool NAME with no arguments instead (``"tool:NAME {json}"`` with those arguments). A
  message that is not such a list is answered with plain text and no tool call.
"""

from __future__ import annotations

import dataclasses
import json
import textwrap
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field, PrivateAttr

SEPARATOR = "\n---\n"


@dataclasses.dataclass(frozen=True)
class ToolStep:
    """One tool call the scripted model makes: the tool's name and its arguments."""

    tool: str
    args: dict[str, Any]


def eval_step(code: str) -> ToolStep:
    """A call of the ``eval`` tool with ``code`` (dedented)."""
    return ToolStep("eval", {"code": textwrap.dedent(code).strip()})


@dataclasses.dataclass(frozen=True)
class ScriptedTurn:
    """A user message, the tool calls the scripted model answers it with, and its final answer.

    ``answer`` gets the contents of the turn's tool results, in order, and returns the model's final text.
    """

    user: str
    steps: Sequence[ToolStep]
    answer: Callable[[list[str]], str]


def cells_of(text: str) -> list[str] | None:
    """The cells a user message asks for, or None when the message is plain chat."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    if isinstance(parsed, str):
        return [parsed]
    if isinstance(parsed, list) and all(isinstance(c, str) for c in parsed):
        return parsed
    return None


class ScriptedChatModel(BaseChatModel):
    """Plays a script (see the module docstring); records every prompt it was given in ``seen``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    turns: list[ScriptedTurn] = Field(default_factory=list)
    """The demo's kind of script; empty: every message is a list of cells."""
    tool_name: str = "eval"
    """The tool each cell is sent to."""
    latency_s: float = 0.0
    """Seconds each call waits before answering, as a hosted model would."""
    record: bool = True
    """Whether to keep every prompt in ``seen`` (the tests read it; a long benchmark would only grow)."""
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # noqa: ARG002
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,  # noqa: ARG002 - the script ignores stop words
        run_manager: CallbackManagerForLLMRun | None = None,  # noqa: ARG002
        **kwargs: Any,  # noqa: ARG002
    ) -> ChatResult:
        if self.record:
            with self._lock:
                self.seen.append(list(messages))
        if self.latency_s:
            time.sleep(self.latency_s)
        return ChatResult(generations=[ChatGeneration(message=self._next(messages))])

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
        if not humans:
            return AIMessage(content="Hello! Ask me something.")
        text = str(messages[humans[-1]].content)
        done = [str(m.content) for m in messages[humans[-1] + 1 :] if isinstance(m, ToolMessage)]
        if self.turns:
            turn = next((t for t in self.turns if t.user == text), None)
            if turn is None:
                return AIMessage(content="I have no scripted answer for that message.")
            if len(done) < len(turn.steps):
                return AIMessage(content="", tool_calls=[self._step_call(turn.steps[len(done)])])
            return AIMessage(content=turn.answer(done))
        cells = cells_of(text)
        if cells is None:
            return AIMessage(content="no code")
        if len(done) < len(cells):
            return AIMessage(content="", tool_calls=[self._cell_call(cells[len(done)])])
        return AIMessage(content=SEPARATOR.join(done))

    @staticmethod
    def _call_id() -> str:
        return f"call_{uuid.uuid4().hex[:12]}"

    def _step_call(self, step: ToolStep) -> dict[str, Any]:
        return {"name": step.tool, "args": dict(step.args), "id": self._call_id()}

    def _cell_call(self, cell: str) -> dict[str, Any]:
        if cell.startswith("tool:"):
            name, _, args = cell[len("tool:") :].partition(" ")
            return {"name": name, "args": json.loads(args) if args else {}, "id": self._call_id()}
        return {"name": self.tool_name, "args": {"code": cell}, "id": self._call_id()}


class ParallelScriptedChatModel(ScriptedChatModel):
    """Like :class:`ScriptedChatModel` with cells, but asks for every cell of a turn at once, as parallel calls."""

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        cells = cells_of(str(messages[last_human].content)) or []
        done = [m for m in messages[last_human + 1 :] if isinstance(m, ToolMessage)]
        if not done and cells:
            return AIMessage(content="", tool_calls=[self._cell_call(c) for c in cells])
        return AIMessage(content=SEPARATOR.join(str(m.content) for m in done))
