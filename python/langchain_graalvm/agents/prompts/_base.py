"""What every guest's prompt shares: the interface, the settings it renders, and JSON schemas walked into types.

Everything here is rendered once per middleware (or per tool set), from its configuration; nothing depends on the
conversation. :data:`STATE_IN_DESCRIPTION` and :data:`STATE_IN_PROMPT` are JavaScript's words for the modes; the
Python guest words ``"thread"`` its own way.
"""

from __future__ import annotations

import dataclasses
import datetime
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from langchain_core.tools import BaseTool
from pydantic import TypeAdapter

from ...options import Clock, InterpreterOptions, Mode

STATE_IN_DESCRIPTION: dict[Mode, str] = {
    "thread": "Globals (variables, functions, classes) persist across calls and across turns of this conversation.",
    "turn": "Globals persist across calls within this turn and are cleared when the turn ends.",
    "call": "Every call starts from empty globals; nothing is kept between calls.",
}

STATE_IN_PROMPT: dict[Mode, str] = {
    "thread": (
        "Globals you define (variables, functions, classes) stay available in later calls, also in later turns "
        "of this conversation. Between turns, data values (objects, arrays, Map, Set, Date, RegExp, typed "
        "arrays, ...) are kept exactly and functions and classes are re-created from their source; a function "
        "loses variables it closed over inside another function, and values that cannot be saved (promises, "
        "generators, WeakMap, unregistered symbols, ...) throw a ReferenceError saying so when used in a "
        "later turn."
    ),
    "turn": (
        "Globals you define stay available in later calls during this turn. They are cleared when the turn "
        "ends, so the next turn starts from empty globals."
    ),
    "call": (
        "Every call starts from empty globals: nothing carries over between calls, so put everything a "
        "computation needs into one call."
    ),
}


@dataclasses.dataclass(frozen=True)
class PromptConfig:
    """The settings the texts mention: the tool's name, the mode, and the interpreters' limits."""

    tool_name: str
    mode: Mode
    limits: InterpreterOptions
    ptc: bool = False
    """Whether agent tools may be exposed as ``tools.*`` (the prompt then lists them in a section of its own)."""

    @property
    def clock(self) -> Clock:
        return self.limits.clock


def seconds(value: float) -> str:
    return f"{value:g} s"


def memory(limit: int) -> str:
    if limit <= 0:
        return "no memory limit"
    if limit >= 2**20:
        return f"about {limit / 2**20:g} MB of memory"
    return f"about {max(1, limit // 1024)} KB of memory"


def frozen_instant(epoch_ms: int) -> str:
    try:
        instant = datetime.datetime.fromtimestamp(epoch_ms / 1000, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return f"{epoch_ms} ms after 1970-01-01T00:00:00Z"
    return instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")




class GuestPrompt(Protocol):
    """What the model is told about one guest language; one implementation per language."""

    def code_description(self, config: PromptConfig) -> str:
        """The description of the tool's ``code`` argument."""
        ...

    def tool_description(self, config: PromptConfig) -> str:
        """The eval tool's description."""
        ...

    def system_prompt(self, config: PromptConfig) -> str:
        """The section appended to the system message on every model call."""
        ...

    def tools_section(
        self,
        tools: Mapping[str, BaseTool],
        tool_name: str,
        max_calls: int | None,
        gated: set[str],
        reviewed: frozenset[str] = frozenset(),
    ) -> str:
        """The system-prompt section describing the ``tools`` namespace (``gated``: refused for lack of approval;
        ``reviewed``: paused for a human's review)."""
        ...

    def task_section(self, limit: int) -> str:
        """The system-prompt section describing ``task``, with at most ``limit`` subagents at once."""
        ...


def budget_line(max_calls: int | None, tool_name: str, refuses: str) -> str:
    """The ``tools.*`` budget, with the guest's verb for a refused call (``"rejects with"``, ``"raises"``)."""
    if not max_calls:
        return "There is no per-call budget, but keep fan-outs proportionate."
    return (
        f"At most {max_calls} `tools.*` calls per `{tool_name}` call; the next one {refuses} "
        "`PTCCallBudgetExceeded`."
    )


def approval_line(names: list[str], tool_name: str, refuse: str) -> str:
    """The tools that need approval, with the guest's verb for refused calls (``"reject with"``, ``"raise"``)."""
    return (
        f"- {', '.join(names)} need human approval, which calls from code cannot get: they {refuse} "
        f"`ApprovalRequired`. Call those tools directly instead of from `{tool_name}`."
    )


def reviewed_builtins_line(gated: frozenset[str]) -> str:
    """File writes and subagents from code, refused when the agent reviews the tools that do them."""
    what = [
        *(["file writes and removals through `fs`"] if gated & {"write_file", "edit_file"} else []),
        *(["`task` (subagents)"] if "task" in gated else []),
    ]
    tools = ", ".join(f"`{name}`" for name in sorted(gated))
    return (
        f"\n\nFrom code, {' and '.join(what)} are refused with `ApprovalRequired`: the agent reviews {tools}. "
        "Call those tools directly instead.\n"
    )


def review_line(names: list[str], rejects: str) -> str:
    """The tools whose calls from code pause for a human's review, with the guest's verb for a rejected call."""
    return (
        f"- {', '.join(names)} pause the run for a human's review before they run. Approved, the call returns as "
        f"usual (perhaps with edited arguments); rejected, it {rejects} `ToolRejected` with the reviewer's message. "
        "After the review the code runs again from its start, with the results of the calls it already made, so "
        "it must make the same calls again: no randomness or host time in code that calls them."
    )


# ------------------------------------------------------------------------------------------------ schemas

_REF = re.compile(r"^#/\$defs/(.+)$")


@dataclasses.dataclass(frozen=True)
class TypeSyntax:
    """How one guest language writes the types a JSON schema describes."""

    unknown: str
    simple: Mapping[str, str]  # "string", "integer", "number", "boolean", "null" -> the language's name
    const: Callable[[Any], str]
    enum: Callable[[list[Any]], str]
    array: Callable[[str], str]
    record: Callable[[Mapping[str, Any], set[str], Callable[[Any], str]], str]  # properties, required, type_of


def schema_type(syntax: TypeSyntax, schema: Any, defs: Mapping[str, Any] | None = None, depth: int = 0) -> str:
    """The type ``schema`` describes, written in ``syntax`` (shallow where schemas get deep)."""
    if not isinstance(schema, Mapping) or depth > 6:
        return syntax.unknown
    defs = defs or {}

    def inner(sub: Any) -> str:
        return schema_type(syntax, sub, defs, depth + 1)

    ref = schema.get("$ref")
    if isinstance(ref, str):
        match = _REF.match(ref)
        target = defs.get(match.group(1)) if match else None
        return inner(target) if target is not None else syntax.unknown
    if "const" in schema:
        return syntax.const(schema["const"])
    if isinstance(schema.get("enum"), list):
        return syntax.enum(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(dict.fromkeys(inner(s) for s in schema[key])) or syntax.unknown
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
        return inner(schema["allOf"][0])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(inner({**schema, "type": k}) for k in kind)
    if isinstance(kind, str) and kind in syntax.simple:
        return syntax.simple[kind]
    if kind == "array":
        return syntax.array(inner(schema.get("items")))
    if kind == "object" or "properties" in schema:
        props = schema.get("properties")
        return syntax.record(props if isinstance(props, Mapping) else {}, set(schema.get("required") or ()), inner)
    return syntax.unknown


def input_schema(tool: BaseTool) -> dict[str, Any]:
    """The JSON schema of a tool's arguments; empty when pydantic cannot render it."""
    schema: Any = tool.tool_call_schema
    if isinstance(schema, dict):
        return schema
    try:
        rendered: dict[str, Any] = schema.model_json_schema()
        return rendered
    except Exception:  # noqa: BLE001 - a schema pydantic cannot render is shown as untyped
        return {}


def return_schema(tool: BaseTool) -> dict[str, Any] | None:
    """The JSON schema of a tool's return annotation; None when it has none, or one that cannot be resolved."""
    fn = getattr(tool, "coroutine", None) or getattr(tool, "func", None)
    if fn is None:
        return None
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001 - unresolvable annotations are shown as unknown
        return None
    annotation = hints.get("return", inspect.Signature.empty)
    if annotation in (inspect.Signature.empty, Any):
        return None
    try:
        schema: dict[str, Any] = TypeAdapter(annotation).json_schema()
    except Exception:  # noqa: BLE001
        return None
    return schema
