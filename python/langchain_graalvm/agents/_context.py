"""What one eval's host calls may reach: the agent run, its tools, the subagent tool, the files, the budgets."""

from __future__ import annotations

import dataclasses
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from .. import _files


@dataclasses.dataclass
class EvalContext:
    """What the eval tool knows about the agent run it is part of."""

    runtime: Any  # ToolRuntime, or None when the tool is driven without one
    config: RunnableConfig | None  # the eval tool run's config: PTC runs become its children in traces
    tools: dict[str, BaseTool] | None  # JavaScript name -> tool; None when PTC is off
    task_tool: BaseTool | None
    max_tool_calls: int | None
    max_subagents: int
    approval_required: frozenset[str]
    files: _files.FileCalls | None = None  # the agent's files, when the guest gets `fs`
    approval_why: str = ""  # why the tools in `approval_required` are refused
    reviewed_builtins: frozenset[str] = frozenset()  # write_file / edit_file / task, when the agent reviews them
    reviewed: frozenset[str] = frozenset()  # the tools in `tools` whose calls pause the run for review
