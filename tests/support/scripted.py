"""Shared pieces for the middleware tests and ``bench/agent_turn.py``: turns, results and agent builders.

The scripted chat model is the package's own (:mod:`langchain_graalvm.cli._scripted`, the demo's and the
benchmark's too): a user turn is a JSON list of code strings (or a plain string, for one cell), answered with one
``eval`` tool call per cell, in order, then a final text that joins the tool results with ``SEPARATOR``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from langchain_graalvm.cli._scripted import SEPARATOR, ParallelScriptedChatModel, ScriptedChatModel, cells_of

__all__ = [
    "SEPARATOR",
    "ParallelScriptedChatModel",
    "ScriptedChatModel",
    "build_agent",
    "cells_of",
    "results_of",
    "thread",
    "turn",
]


def turn(*cells: str) -> dict[str, Any]:
    """The input of one agent turn that runs ``cells`` in order."""
    return {"messages": [HumanMessage(json.dumps(list(cells)))]}


def results_of(state: dict[str, Any]) -> list[str]:
    """The tool results the model reported at the end of a turn."""
    final = state["messages"][-1]
    assert isinstance(final, AIMessage), final
    return str(final.content).split(SEPARATOR)


def build_agent(middleware: Any, *, checkpointer: Any = None, model: ScriptedChatModel | None = None, **kw: Any) -> Any:
    """A real Deep Agent around ``middleware`` and the scripted model."""
    from deepagents import create_deep_agent

    chat = model or ScriptedChatModel(tool_name=getattr(middleware, "tool_name", "eval"))
    mws = [middleware] if middleware is not None else []
    return create_deep_agent(model=chat, middleware=mws, checkpointer=checkpointer, **kw)


def thread(thread_id: str | None = None) -> dict[str, Any]:
    """A run config for one conversation thread."""
    return {"configurable": {"thread_id": thread_id or uuid.uuid4().hex}}
