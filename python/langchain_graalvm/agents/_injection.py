"""Tool calls from code as LangGraph's ToolNode would make them: injected arguments, tool-call ids, sync or async.

This leans on private parts of langchain-core and langgraph (``_is_injected_arg_type``, ``ToolNode._injected_args``,
``ToolNode._inject_tool_args``), all of them kept here, so that a change there is mended in one place.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from langchain_core.tools.base import InjectedToolCallId, _is_injected_arg_type, get_all_basemodel_annotations
from pydantic import BaseModel, ValidationError

_injection_cache: dict[int, tuple[BaseTool, Any, bool]] = {}


def tool_facts(tool: BaseTool) -> tuple[Any, bool]:
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


def validation_message(exc: ValidationError) -> str:
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


def runs_natively_async(tool: BaseTool) -> bool:
    """Whether the tool has async code of its own; a ``StructuredTool`` made from a plain function runs it in a
    thread even when called through ``arun``, and so is synchronous here."""
    if getattr(tool, "coroutine", None) is not None:
        return True
    if isinstance(tool, StructuredTool):
        return False
    return type(tool)._arun is not BaseTool._arun


def inject(runtime: Any, injector: Any, tool: BaseTool, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    """Fills the tool's injected arguments (ToolRuntime, InjectedState, InjectedStore) from the eval's run."""
    if runtime is None or not injector._injected_args.get(tool.name):
        return args
    call = {"name": tool.name, "args": args, "id": call_id, "type": "tool_call"}
    tool_runtime = dataclasses.replace(runtime, tool_call_id=call_id)
    return dict(injector._inject_tool_args(call, tool_runtime, tool)["args"])
