"""Programmatic tool calling: which agent tools the guest sees as ``tools.*`` and under which names, and what of a
tool's result it receives. How values cross the boundary (JSON with a few tagged forms both sides agree on) is
:mod:`.._hostcalls`'s job, as an interpreter's files use it without any agent; how tools are described to the model
is :mod:`.prompts`'s."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.types import Command

from .._hostcalls import guest_value
from ..errors import OptionsError

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_CAMEL = re.compile(r"[-_]([a-z])")
TASK_TOOL = "task"

_TASK_IN_PTC = (
    "The subagent `task` tool cannot be exposed through `ptc`: with `subagents=True` the interpreter has its own "
    "`task({description, subagentType})` global for it. Remove 'task' from `ptc`."
)


def camel_name(name: str) -> str:
    """The JavaScript name of a tool: ``web_search`` and ``web-search`` become ``webSearch``."""
    return _CAMEL.sub(lambda m: m.group(1).upper(), name)


def check_ptc_option(ptc: Any, tool_name: str) -> list[str | BaseTool] | None:
    """Validates the ``ptc`` constructor argument; returns it as a list (or None)."""
    if ptc is None:
        return None
    if isinstance(ptc, (str, BaseTool)) or not isinstance(ptc, Iterable):
        raise OptionsError("`ptc` must be None or a list of tool names and BaseTool instances")
    entries = list(ptc)
    for entry in entries:
        if isinstance(entry, BaseTool):
            name = entry.name
        elif isinstance(entry, str):
            name = entry
        else:
            raise OptionsError(f"`ptc` entries must be tool names or BaseTool instances; got {type(entry).__name__}")
        if name == TASK_TOOL:
            raise OptionsError(_TASK_IN_PTC)
        if name != tool_name and not _IDENTIFIER.match(camel_name(name)):
            raise OptionsError(
                f"PTC tool name {name!r} cannot be exposed as the JavaScript identifier {camel_name(name)!r}. "
                "Tool names must map to /^[A-Za-z_$][A-Za-z0-9_$]*$/."
            )
    return entries


def python_name(name: str) -> str:
    """The Python guest's name of a tool: snake_case stays, ``web-search`` becomes ``web_search``."""
    return name.replace("-", "_")


def select_tools(
    ptc: Sequence[str | BaseTool] | None, available: Iterable[Any], tool_name: str, language: str = "js"
) -> dict[str, BaseTool] | None:
    """The tools to expose, by JavaScript name, in a stable order; None when PTC is off.

    ``BaseTool`` entries of ``ptc`` come first, then agent tools named by ``ptc``. The eval tool itself and the
    ``task`` tool are never exposed; a name seen twice keeps its first tool.
    """
    if ptc is None:
        return None
    by_name = {t.name: t for t in available if isinstance(t, BaseTool)}
    chosen: list[BaseTool] = [e for e in ptc if isinstance(e, BaseTool)]
    chosen += [by_name[e] for e in ptc if isinstance(e, str) and e in by_name]
    exposed: dict[str, BaseTool] = {}
    seen: set[str] = set()
    for tool in chosen:
        if tool.name in seen or tool.name in (tool_name, TASK_TOOL):
            continue
        seen.add(tool.name)
        guest_name = python_name(tool.name) if language == "python" else camel_name(tool.name)
        if guest_name not in exposed and _IDENTIFIER.match(guest_name):
            exposed[guest_name] = tool
    return exposed


def find_task_tool(available: Iterable[Any]) -> BaseTool | None:
    """The Deep Agents subagent tool: named ``task``, taking ``description`` and ``subagent_type``."""
    for tool in available:
        if isinstance(tool, BaseTool) and tool.name == TASK_TOOL:
            args = tool.args
            if "description" in args and "subagent_type" in args:
                return tool
    return None


# ------------------------------------------------------------------------------------------------ values


def to_guest_value(value: Any) -> Any:
    """A tool's return value as JSON-ready data the guest receives natively.

    ``ToolMessage`` gives its content and ``Command`` the content of its last message; any other value crosses as
    :func:`~langchain_graalvm._hostcalls.guest_value` makes it (pydantic models as their ``model_dump()``, bytes as
    a ``Uint8Array``...).
    """
    if isinstance(value, ToolMessage):
        return to_guest_value(value.content)
    if isinstance(value, Command):
        update = value.update
        messages = update.get("messages") if isinstance(update, Mapping) else None
        if messages:
            last = messages[-1]
            return to_guest_value(getattr(last, "content", last))
        return str(update)
    if isinstance(value, list) and any(isinstance(v, (ToolMessage, Command)) for v in value):
        return to_guest_value([v for v in value if isinstance(v, (ToolMessage, Command))][-1])
    return guest_value(value)
