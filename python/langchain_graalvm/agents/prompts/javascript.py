"""The JavaScript guest's prompt: the eval tool, the system-prompt section, and ``tools.*`` as TypeScript."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from langchain_core.tools import BaseTool

from .._ptc import camel_name
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

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def _key(name: str) -> str:
    return name if _IDENTIFIER.match(name) else json.dumps(name)


def _record(props: Mapping[str, Any], required: set[str], type_of: Any) -> str:
    if not props:
        return "Record<string, unknown>"
    fields = [f"{_key(k)}{'' if k in required else '?'}: {type_of(v)}" for k, v in props.items()]
    return "{ " + "; ".join(fields) + " }"


TYPESCRIPT = TypeSyntax(
    unknown="unknown",
    simple={"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null"},
    const=json.dumps,
    enum=lambda values: " | ".join(dict.fromkeys(json.dumps(v) for v in values)) or "never",
    array=lambda item: f"({item})[]" if " " in item else f"{item}[]",
    record=_record,
)


def _type(schema: Any, defs: Mapping[str, Any] | None = None) -> str:
    return schema_type(TYPESCRIPT, schema, defs)


def _return_type(tool: BaseTool) -> str:
    schema = return_schema(tool)
    return _type(schema, schema.get("$defs")) if schema is not None else "unknown"


def signature(js_name: str, tool: BaseTool) -> str:
    """The tool as a TypeScript-style declaration with its first description line as a doc comment."""
    schema = input_schema(tool)
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
        lines.append(f"  {_key(key)}{'' if key in required else '?'}: {_type(field, defs)};")
    lines.append(f"}}): Promise<{_return_type(tool)}>;")
    return "\n".join(lines)




_TASK_SECTION = """

### Subagents inside the interpreter (`task`)

`await task({{description, subagentType, label?}})` dispatches a subagent, like the `task` tool, and resolves to \
its final answer as a string. Give each one a complete, self-contained `description`; `subagentType` is one of the \
types the `task` tool lists. Independent tasks run concurrently with `Promise.all` (at most {limit} at once; the \
rest wait). A failing subagent rejects with an Error naming the failure."""


class JavaScriptPrompt:
    """What the model is told about a JavaScript (and TypeScript) guest."""

    def code_description(self, config: PromptConfig) -> str:
        reach = "No fs/network/real-clock access." if config.clock == "frozen" else "No fs/network access."
        return (
            "JavaScript or TypeScript to run; the value of the last expression (an awaited Promise's value) is "
            f"returned. {reach}"
        )

    def tool_description(self, config: PromptConfig) -> str:
        reach = "no filesystem, network or real clock" if config.clock == "frozen" else "no filesystem or network"
        return (
            "Run JavaScript or TypeScript in a sandboxed GraalVM interpreter and get back the value of the last "
            f"expression, the console output, or the error with its line numbers. {STATE_IN_DESCRIPTION[config.mode]} "
            + (
                "No filesystem or network; agent tools listed in the system prompt are callable as `tools.*`."
                if config.ptc
                else f"Pure computation: {reach}."
            )
            + " Top-level `await` works, and a Promise in the last expression is awaited."
        )

    def system_prompt(self, config: PromptConfig) -> str:
        name, limits = config.tool_name, config.limits
        if config.clock == "frozen":
            clock = (
                "The clock is frozen: `Date.now()` and `new Date()` always give "
                f"{frozen_instant(limits.frozen_epoch_ms)} "
                "(UTC), so never use them to learn the current date or to measure time. Date arithmetic on dates you "
                "construct works normally."
            )
        else:
            clock = "`Date.now()` and `new Date()` show the host's real time (UTC)."
        if limits.capture_console:
            console = (
                "`console.log`, `info`, `debug`, `warn` and `error` are captured and returned in a `<stdout>` block "
                "before the result."
            )
        else:
            console = "There is no `console`: return what you want to see as the value of the last expression."
        lines = [
            f"### Code interpreter (`{name}`)",
            "",
            f"`{name}` runs JavaScript in a sandboxed GraalVM interpreter. It answers with `<result>` holding the "
            "value "
            'of the last expression, or `<error type="...">` holding the message and the `line:column` positions in '
            "your code.",
            "",
            f"- {STATE_IN_PROMPT[config.mode]}",
            "- TypeScript is accepted: type annotations, interfaces, generics, `as` casts and enums are stripped, "
            "not checked.",
            "- Top-level `let`, `const`, `class` and `function` may be declared again in a later call. Code runs in "
            "strict mode.",
            "- Top-level `await` works; a Promise in the last expression is awaited before the call returns.",
            f"- {console}",
            (
                "- The sandbox has no filesystem, network, `fetch`, `require`, `process` or timers; it reaches out "
                "only "
                "through the `tools` functions described below. Return values to pass results on."
                if config.ptc
                else "- The sandbox is pure computation: no filesystem, network, `fetch`, `require`, `process`, timers "
                "or host tools. Return values to pass results on."
            ),
            f"- {clock}",
            f"- Each call may run for {seconds(limits.timeout)} and keep {memory(limits.memory_limit)}; past that "
            "it stops with a `Timeout` or `OutOfMemory` error, which says whether the globals were kept.",
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
        budget = budget_line(max_calls, tool_name, "rejects with")
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
        paused = [f"`tools.{camel_name(n)}`" for n in sorted(reviewed) if camel_name(n) in tools]
        if paused:
            lines.append(review_line(paused, "rejects with"))
        if approval:
            lines.append(approval_line(approval, tool_name, "reject with"))
        lines += ["", "```typescript", "\n\n".join(blocks), "```"]
        return "\n".join(lines)

    def task_section(self, limit: int) -> str:
        return _TASK_SECTION.format(limit=limit)
