"""The Python guest's prompt: the eval tool, the system-prompt section, and ``tools.*`` as Python stubs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.tools import BaseTool

from ...options import Mode
from .._ptc import python_name
from ._base import (
    STATE_IN_DESCRIPTION,
    STATE_IN_PROMPT,
    PromptConfig,
    TypeSyntax,
    approval_line,
    budget_line,
    frozen_instant,
    input_schema,
    memory,
    return_schema,
    review_line,
    schema_type,
    seconds,
)

_STATE_IN_DESCRIPTION: dict[Mode, str] = {
    "thread": "Globals (variables, functions, classes, imports) persist across calls and across turns of this "
    "conversation.",
    "turn": STATE_IN_DESCRIPTION["turn"],
    "call": STATE_IN_DESCRIPTION["call"],
}

_STATE_IN_PROMPT: dict[Mode, str] = {
    "thread": (
        "Globals you define (variables, functions, classes, imported modules) stay available in later calls, also "
        "in later turns of this conversation. Between turns, data values (None, bool, int, float, complex, str, "
        "bytes, bytearray, list, tuple, dict, set, frozenset, datetime, date, time, timedelta, Decimal, shared "
        "references and cycles) are kept exactly, imported modules and names imported from them are imported "
        "again, and functions and classes defined by top-level `def`/`class` statements are re-created from "
        "their source. Other values (instances of your classes, lambdas, generators, iterators, ...) raise a "
        "NameError saying so when used in a later turn."
    ),
    "turn": STATE_IN_PROMPT["turn"],
    "call": STATE_IN_PROMPT["call"],
}


PYTHON = TypeSyntax(
    unknown="Any",
    simple={"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"},
    const=lambda value: f"Literal[{value!r}]",
    enum=lambda values: f"Literal[{', '.join(repr(v) for v in values)}]",
    array=lambda item: f"list[{item}]",
    record=lambda _props, _required, _type_of: "dict",
)


def _type(schema: Any, defs: Mapping[str, Any] | None = None) -> str:
    return schema_type(PYTHON, schema, defs)


def _return_type(tool: BaseTool) -> str:
    schema = return_schema(tool)
    return _type(schema, schema.get("$defs")) if schema else "Any"


def signature(name: str, tool: BaseTool) -> str:
    """The tool as a Python stub: keyword arguments with types, and its first description line."""
    schema = input_schema(tool)
    defs = schema.get("$defs")
    found = schema.get("properties")
    props: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    required = set(schema.get("required") or ())
    params = [f"{k}: {_type(v, defs)}" + ("" if k in required else " = ...") for k, v in props.items()]
    summary = (tool.description or "").strip().splitlines()
    doc = f'\n    """{summary[0].strip()}"""' if summary else ""
    ret = _return_type(tool)
    args = f"*, {', '.join(params)}" if params else ""
    return f"def tools.{name}({args}) -> {ret}: ...{doc}"


_TASK_SECTION = """

### Subagents inside the interpreter (`task`)

`task(description=..., subagent_type=...)` dispatches a subagent, like the `task` tool, and returns its final \
answer as a string. Give each one a complete, self-contained `description`; `subagent_type` is one of the types the \
`task` tool lists. To run several at once, start them, then collect: \
`[p.result() for p in [task.start(description=..., subagent_type=...), ...]]` (at most {limit} at once; the rest \
wait)."""


class PythonPrompt:
    """What the model is told about a Python (GraalPy) guest."""

    def code_description(self, config: PromptConfig) -> str:
        reach = "No fs/network/real-clock access." if config.clock == "frozen" else "No fs/network access."
        return f"Python 3 to run; the value of the last expression is returned (as repr()). {reach}"

    def tool_description(self, config: PromptConfig) -> str:
        reach = "no filesystem, network or real clock" if config.clock == "frozen" else "no filesystem or network"
        return (
            "Run Python 3 in a sandboxed GraalPy interpreter and get back the repr() of the last expression, the "
            f"print() output, or the error with its traceback. {_STATE_IN_DESCRIPTION[config.mode]} "
            f"Pure computation with the standard library: {reach}."
        )

    def system_prompt(self, config: PromptConfig) -> str:
        name, limits = config.tool_name, config.limits
        if config.clock == "frozen":
            clock = (
                f"The clock is frozen: `time.time()` and `datetime.now()` always give "
                f"{frozen_instant(limits.frozen_epoch_ms)} (UTC), so never use them to learn the current date or to "
                "measure time. Date arithmetic on dates you construct works normally."
            )
        else:
            clock = "`time.time()` and `datetime.now()` show the host's real time (UTC)."
        if limits.capture_console:
            console = (
                "`print()` output (stdout and stderr, in order) is returned in a `<stdout>` block before the result."
            )
        else:
            console = "`print()` output is discarded: return what you want to see as the value of the last expression."
        lines = [
            f"### Code interpreter (`{name}`)",
            "",
            f"`{name}` runs Python 3 (GraalPy) in a sandboxed interpreter, like a notebook cell. It answers with "
            '`<result>` holding the repr() of the last expression (None when the cell ends with a statement), or '
            '`<error type="...">` holding the message and a traceback with the line numbers of your code (`cell N` is '
            "your N-th call).",
            "",
            f"- {_STATE_IN_PROMPT[config.mode]}",
            "- The standard library is available (json, re, math, statistics, itertools, collections, datetime, "
            "decimal, fractions, ...). No pip packages, no C extensions (numpy, pandas are not available).",
            f"- {console}",
            "- The sandbox is pure computation: no files, network, sockets, subprocesses, threads, environment or "
            "host tools; those raise PermissionError or ImportError. Return values to pass results on.",
            "- Top-level `await` is not supported; `asyncio` cannot run an event loop here.",
            "- Heavy loops run much faster inside a function than at the top level of a call (functions called "
            "repeatedly are JIT-compiled).",
            f"- {clock}",
            f"- Each call may run for {seconds(limits.timeout)} and keep {memory(limits.memory_limit)}; past that "
            "it stops with a `Timeout` or `OutOfMemory` error, which says whether the globals were kept. The first "
            "import of a large module can take a second or more.",
            f"- Results, errors and console output are each cut to {limits.max_result_chars} characters; return "
            "summaries rather than large data.",
        ]
        return "\n".join(lines)

    def tools_section(
        self,
        tools: Mapping[str, BaseTool],
        tool_name: str,
        max_calls: int | None,
        gated: set[str],
        reviewed: frozenset[str] = frozenset(),
    ) -> str:
        budget = budget_line(max_calls, tool_name, "raises")
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
        paused = [f"`tools.{python_name(n)}`" for n in sorted(reviewed) if python_name(n) in tools]
        if paused:
            lines.append(review_line(paused, "raises"))
        if approval:
            lines.append(approval_line(approval, tool_name, "raise"))
        lines += ["", "```python", "\n".join(signature(n, t) for n, t in tools.items()), "```"]
        return "\n".join(lines)

    def task_section(self, limit: int) -> str:
        return _TASK_SECTION.format(limit=limit)
