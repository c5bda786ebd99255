"""Programmatic tool calling: which agent tools the guest sees as ``tools.*`` and under which names, and how values
cross the boundary (JSON with a few tagged forms both sides agree on). How they are described to the model is
:mod:`.prompts`'s job."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.types import Command
from pydantic import BaseModel

from ..errors import OptionsError

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_CAMEL = re.compile(r"[-_]([a-z])")
_MAX_SAFE_INT = 2**53
TAG_BIGINT = "\u0000bigint"
TAG_BYTES = "\u0000bytes"
TAG_NUMBER = "\u0000number"
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


def _tag_number(value: float) -> Any:
    return value if math.isfinite(value) else {TAG_NUMBER: repr(value).replace("inf", "Infinity").replace("nan", "NaN")}


def to_guest_value(value: Any) -> Any:
    """A tool's return value as JSON-ready data the guest receives natively.

    Strings, numbers, booleans and None stay as they are; lists, tuples and dicts are converted recursively;
    pydantic models become their ``model_dump()``; ``ToolMessage`` gives its content and ``Command`` the content
    of its last message; bytes become a ``Uint8Array``; other values become ``str(value)``.
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
    return _plain(value, 0)


def _plain(value: Any, depth: int) -> Any:
    if depth > 200:
        raise ValueError("the tool's result is nested more than 200 levels deep")
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return value if -_MAX_SAFE_INT < value < _MAX_SAFE_INT else {TAG_BIGINT: _digits(value)}
    if isinstance(value, float):
        return _tag_number(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {TAG_BYTES: list(bytes(value))}
    if isinstance(value, BaseModel):
        return _plain(value.model_dump(), depth + 1)
    if isinstance(value, Mapping):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return str(value)


class CannotCross(ValueError):
    """A guest value the host cannot take as it is: the guest gets this message as a ``TypeError``."""


def _bounded_int(text: str) -> int:
    limit = sys.get_int_max_str_digits()
    if limit and len(text.lstrip("-")) > limit:
        raise CannotCross(
            f"an integer of {len(text.lstrip('-'))} digits cannot be sent to the host (at most {limit} digits); "
            "send it as a string"
        )
    return int(text)


def _digits(value: int) -> str:
    try:
        return str(value)
    except ValueError:  # over the interpreter's limit for int-to-str conversion
        raise CannotCross(
            f"an integer of more than {sys.get_int_max_str_digits()} digits cannot be sent to the guest; "
            "return it as a string"
        ) from None


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        ((key, value),) = obj.items()
        if key == TAG_BIGINT and isinstance(value, str):
            return _bounded_int(value)
        if key == TAG_NUMBER and value in ("NaN", "Infinity", "-Infinity"):
            return float(value.replace("Infinity", "inf"))
        if key == TAG_BYTES and isinstance(value, list):
            try:
                return bytes(value)
            except (ValueError, TypeError):
                raise CannotCross("bytes sent to the host must be whole numbers from 0 to 255") from None
    return obj


@dataclasses.dataclass(frozen=True)
class GuestCall:
    """One call from the guest: its arguments, or why they cannot be read (``refused``) and so the call fails."""

    call_id: int
    kind: str
    name: str
    args: dict[str, Any]
    refused: str | None = None


def decode_calls(text: str) -> list[GuestCall]:
    """A batch of guest calls: ``[callId, kind, name, inputText]`` entries written by the host (Java).

    Each input is the guest's own JSON text, which guest code can shape at will, so it is decoded on its own: one
    that is not a JSON object, or holds a value the host cannot take (an integer too long to read, a malformed
    tag), refuses that call alone.
    """
    calls = []
    for call_id, kind, name, raw in json.loads(text):
        try:
            args = json.loads(raw, object_hook=_untag, parse_int=_bounded_int)
        except CannotCross as exc:
            calls.append(GuestCall(int(call_id), str(kind), str(name), {}, str(exc)))
            continue
        except (ValueError, TypeError, RecursionError) as exc:
            why = f"the arguments are not valid JSON ({exc})"
            calls.append(GuestCall(int(call_id), str(kind), str(name), {}, why))
            continue
        calls.append(GuestCall(int(call_id), str(kind), str(name), args if isinstance(args, dict) else {}))
    return calls
