"""A sandboxed GraalVM code interpreter for LangChain and Deep Agents."""

from typing import TYPE_CHECKING, Any

from langchain_graalvm._audit import AuditRecord
from langchain_graalvm._files import FilesAccess
from langchain_graalvm._runtime._adapter import EvalOutcome
from langchain_graalvm.errors import (
    FetchError,
    GraalVMError,
    GuestUnavailableError,
    InterpreterClosedError,
    JvmError,
    JvmUnusableError,
    OptionsError,
    SnapshotError,
)
from langchain_graalvm.interpreter import Interpreter, runtime_info
from langchain_graalvm.options import InterpreterOptions

if TYPE_CHECKING:
    from langchain_graalvm.agents.middleware import CodeInterpreterMiddleware

__all__ = [
    "AuditRecord",
    "CodeInterpreterMiddleware",
    "EvalOutcome",
    "EvalOutputEvent",
    "FetchError",
    "FilesAccess",
    "GraalVMError",
    "GuestUnavailableError",
    "Interpreter",
    "InterpreterClosedError",
    "InterpreterOptions",
    "JvmError",
    "JvmUnusableError",
    "OptionsError",
    "SnapshotError",
    "SubagentCompleteEvent",
    "SubagentErrorEvent",
    "SubagentStartEvent",
    "SubagentStreamEvent",
    "runtime_info",
]

_STREAM_EVENTS = (
    "EvalOutputEvent",
    "SubagentCompleteEvent",
    "SubagentErrorEvent",
    "SubagentStartEvent",
    "SubagentStreamEvent",
)


def __getattr__(name: str) -> Any:
    # The middleware needs the `agents` extra (deepagents, langchain, langgraph); import it only when asked for.
    if name == "CodeInterpreterMiddleware":
        from langchain_graalvm.agents.middleware import CodeInterpreterMiddleware

        return CodeInterpreterMiddleware
    if name in _STREAM_EVENTS:
        from langchain_graalvm.agents import _events

        return getattr(_events, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
