"""Programmatic tool calling: which agent tools the guest sees as ``tools.*``, their names and prompt signatures,
and how values cross the boundary (JSON with a few tagged forms both sides agree on)."""

from __future__ import annotations

import inspect
import json
import math
import re
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.types import Command
from pydantic import BaseModel, TypeAdapter

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
        raise ValueError("`ptc` must be None or a list of tool names and BaseTool instances")
    entries = list(ptc)
    for entry in entries:
        if isinstance(entry, BaseTool):
            name = entry.name
        elif isinstance(entry, str):
            name = entry
        else:
            raise ValueError(f"`ptc` entries must be tool names or BaseTool instances; got {type(entry).__name__}")
        if name == TASK_TOOL:
            raise ValueError(_TASK_IN_PTC)
        if name != tool_name and not _IDENTIFIER.match(camel_name(name)):
            raise ValueError(
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
        return value if -_MAX_SAFE_INT < value < _MAX_SAFE_INT else {TAG_BIGINT: str(value)}
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


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        ((key, value),) = obj.items()
        if key == TAG_BIGINT:
            return int(value)
        if key == TAG_NUMBER:
            return float(value.replace("Infinity", "inf"))
        if key == TAG_BYTES:
            return bytes(value)
    return obj


def decode_calls(text: str) -> list[tuple[int, str, str, dict[str, Any]]]:
    """A batch of guest calls: ``[callId, kind, name, input]`` entries, the input always a JSON object."""
    calls = json.loads(text, object_hook=_untag)
    return [(int(c[0]), str(c[1]), str(c[2]), c[3] if isinstance(c[3], dict) else {}) for c in calls]


# ------------------------------------------------------------------------------------------------ prompt

_REF = re.compile(r"^#/\$defs/(.+)$")


def ts_type(schema: Any, defs: Mapping[str, Any] | None = None, depth: int = 0) -> str:
    """A TypeScript type for a JSON schema (shallow where schemas get deep)."""
    if not isinstance(schema, Mapping) or depth > 6:
        return "unknown"
    defs = defs or {}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        match = _REF.match(ref)
        target = defs.get(match.group(1)) if match else None
        return ts_type(target, defs, depth + 1) if target is not None else "unknown"
    if "const" in schema:
        return json.dumps(schema["const"])
    if isinstance(schema.get("enum"), list):
        return " | ".join(dict.fromkeys(json.dumps(v) for v in schema["enum"])) or "never"
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(dict.fromkeys(ts_type(s, defs, depth + 1) for s in schema[key])) or "unknown"
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
        return ts_type(schema["allOf"][0], defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(ts_type({**schema, "type": k}, defs, depth + 1) for k in kind)
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        item = ts_type(schema.get("items"), defs, depth + 1)
        return f"({item})[]" if " " in item else f"{item}[]"
    if kind == "object" or "properties" in schema:
        props = schema.get("properties")
        if not isinstance(props, Mapping) or not props:
            return "Record<string, unknown>"
        required = set(schema.get("required") or ())
        fields = [f"{_key(k)}{'' if k in required else '?'}: {ts_type(v, defs, depth + 1)}" for k, v in props.items()]
        return "{ " + "; ".join(fields) + " }"
    return "unknown"


def _key(name: str) -> str:
    return name if _IDENTIFIER.match(name) else json.dumps(name)


def _input_schema(tool: BaseTool) -> dict[str, Any]:
    schema: Any = tool.tool_call_schema
    if isinstance(schema, dict):
        return schema
    try:
        rendered: dict[str, Any] = schema.model_json_schema()
        return rendered
    except Exception:  # noqa: BLE001 - a schema pydantic cannot render is shown as untyped
        return {}


def _return_type(tool: BaseTool) -> str:
    fn = getattr(tool, "coroutine", None) or getattr(tool, "func", None)
    if fn is None:
        return "unknown"
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001 - unresolvable annotations are shown as unknown
        return "unknown"
    annotation = hints.get("return", inspect.Signature.empty)
    if annotation in (inspect.Signature.empty, Any):
        return "unknown"
    try:
        schema = TypeAdapter(annotation).json_schema()
    except Exception:  # noqa: BLE001
        return "unknown"
    return ts_type(schema, schema.get("$defs"))


def signature(js_name: str, tool: BaseTool) -> str:
    """The tool as a TypeScript-style declaration with its first description line as a doc comment."""
    schema = _input_schema(tool)
    defs = schema.get("$defs")
    props = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    required = set(schema.get("required") or ())
    lines = []
    summary = (tool.description or "").strip().splitlines()
    if summary:
        lines.append(f"/** {summary[0].strip()} */")
    if not props:
        lines.append(f"tools.{js_name}(input?: Record<string, unknown>): Promise<{_return_type(tool)}>;")
        return "\n".join(lines)
    lines.append(f"tools.{js_name}(input: {{")
    for key, field in props.items():
        doc = field.get("description") if isinstance(field, Mapping) else None
        if isinstance(doc, str) and doc.strip():
            lines.append(f"  /** {' '.join(doc.split())} */")
        lines.append(f"  {_key(key)}{'' if key in required else '?'}: {ts_type(field, defs)};")
    lines.append(f"}}): Promise<{_return_type(tool)}>;")
    return "\n".join(lines)


def render_section(tools: Mapping[str, BaseTool], tool_name: str, max_calls: int | None, gated: set[str]) -> str:
    """The system-prompt section describing the ``tools`` namespace."""
    budget = (
        f"At most {max_calls} `tools.*` calls per `{tool_name}` call; the next one rejects with "
        "`PTCCallBudgetExceeded`."
        if max_calls
        else "There is no per-call budget, but keep fan-outs proportionate."
    )
    blocks = [signature(name, tool) for name, tool in tools.items()]
    approval = [f"`tools.{camel_name(n)}`" for n in sorted(gated) if camel_name(n) in tools]
    lines = [
        "",
        "",
        "### Agent tools inside the interpreter (`tools`)",
        "",
        f"Code run by `{tool_name}` can call these agent tools as async functions on the global `tools` object. "
        "Each takes one object of arguments and returns a Promise of the tool's result as a native value "
        "(strings stay strings; lists, dicts and models arrive as arrays and objects), so there is no need to "
        "`JSON.parse` it.",
        "",
        "- Call them with `await tools.name({...})`. Run independent calls together with "
        "`await Promise.all(items.map((x) => tools.name({...})))`: they really run concurrently.",
        "- A failing call rejects with an Error whose `name` is the tool's exception type "
        "(`ValidationError` for bad arguments) and whose `message` says what went wrong; catch it with "
        "`try`/`catch` to recover.",
        f"- {budget}",
        "- Waiting for tools does not count against the time limit.",
        "- Tool results stay in the interpreter: summarise, filter or aggregate them in code and return only "
        "what the user needs.",
    ]
    if approval:
        lines.append(
            f"- {', '.join(approval)} need human approval, which calls from code cannot get: they reject with "
            f"`ApprovalRequired`. Call those tools directly instead of from `{tool_name}`."
        )
    lines += ["", "```typescript", "\n\n".join(blocks), "```"]
    return "\n".join(lines)


TASK_SECTION = """

### Subagents inside the interpreter (`task`)

`await task({{description, subagentType, label?}})` dispatches a subagent, like the `task` tool, and resolves to \
its final answer as a string. Give each one a complete, self-contained `description`; `subagentType` is one of the \
types the `task` tool lists. Independent tasks run concurrently with `Promise.all` (at most {limit} at once; the \
rest wait). A failing subagent rejects with an Error naming the failure."""


def py_type(schema: Any, defs: Mapping[str, Any] | None = None, depth: int = 0) -> str:
    """A Python annotation for a JSON schema (shallow where schemas get deep)."""
    if not isinstance(schema, Mapping) or depth > 6:
        return "Any"
    defs = defs or {}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        match = _REF.match(ref)
        target = defs.get(match.group(1)) if match else None
        return py_type(target, defs, depth + 1) if target is not None else "Any"
    if "const" in schema:
        return f"Literal[{schema['const']!r}]"
    if isinstance(schema.get("enum"), list):
        return f"Literal[{', '.join(repr(v) for v in schema['enum'])}]"
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(dict.fromkeys(py_type(s, defs, depth + 1) for s in schema[key])) or "Any"
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
        return py_type(schema["allOf"][0], defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(py_type({**schema, "type": k}, defs, depth + 1) for k in kind)
    simple = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
    if kind in simple:
        return simple[kind]
    if kind == "array":
        return f"list[{py_type(schema.get('items'), defs, depth + 1)}]"
    if kind == "object" or "properties" in schema:
        return "dict"
    return "Any"


def _py_return_type(tool: BaseTool) -> str:
    fn = getattr(tool, "coroutine", None) or getattr(tool, "func", None)
    try:
        annotation = typing.get_type_hints(fn).get("return", Any) if fn is not None else Any
        schema = TypeAdapter(annotation).json_schema() if annotation not in (Any, inspect.Signature.empty) else {}
    except Exception:  # noqa: BLE001 - unresolvable annotations are shown as Any
        return "Any"
    return py_type(schema, schema.get("$defs")) if schema else "Any"


def python_signature(name: str, tool: BaseTool) -> str:
    """The tool as a Python stub: keyword arguments with types, and its first description line."""
    schema = _input_schema(tool)
    defs = schema.get("$defs")
    found = schema.get("properties")
    props: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    required = set(schema.get("required") or ())
    params = [f"{k}: {py_type(v, defs)}" + ("" if k in required else " = ...") for k, v in props.items()]
    summary = (tool.description or "").strip().splitlines()
    doc = f'\n    """{summary[0].strip()}"""' if summary else ""
    ret = _py_return_type(tool)
    args = f"*, {', '.join(params)}" if params else ""
    return f"def tools.{name}({args}) -> {ret}: ...{doc}"


def render_python_section(tools: Mapping[str, BaseTool], tool_name: str, max_calls: int | None, gated: set[str]) -> str:
    """The system-prompt section describing ``tools`` to a Python guest."""
    budget = (
        f"At most {max_calls} `tools.*` calls per `{tool_name}` call; the next one raises `PTCCallBudgetExceeded`."
        if max_calls
        else "There is no per-call budget, but keep fan-outs proportionate."
    )
    approval = [f"`tools.{python_name(n)}`" for n in sorted(gated) if python_name(n) in tools]
    lines = [
        "",
        "",
        "### Agent tools inside the interpreter (`tools`)",
        "",
        f"Code run by `{tool_name}` can call these agent tools as functions on the global `tools` object, with "
        "keyword arguments. A call returns the tool's result as a Python value (str, int, float, list, dict).",
        "",
        "- `tools.name(arg=...)` waits for the result. To run calls concurrently, start them and gather: "
        "`tools.gather(*[tools.name.start(arg=x) for x in items])` returns the results in order.",
        "- A failing call raises an exception named after the tool's error (`ValidationError` for bad arguments); "
        "catch it with `try`/`except Exception`.",
        f"- {budget}",
        "- Waiting for tools does not count against the time limit.",
    ]
    if approval:
        lines.append(
            f"- {', '.join(approval)} need human approval, which calls from code cannot get: they raise "
            f"`ApprovalRequired`. Call those tools directly instead of from `{tool_name}`."
        )
    lines += ["", "```python", "\n".join(python_signature(n, t) for n, t in tools.items()), "```"]
    return "\n".join(lines)


PYTHON_TASK_SECTION = """

### Subagents inside the interpreter (`task`)

`task(description=..., subagent_type=...)` dispatches a subagent, like the `task` tool, and returns its final \
answer as a string. Give each one a complete, self-contained `description`; `subagent_type` is one of the types the \
`task` tool lists. To run several at once, start them, then collect: \
`[p.result() for p in [task.start(description=..., subagent_type=...), ...]]` (at most {limit} at once; the rest \
wait)."""
