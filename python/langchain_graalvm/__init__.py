"""A sandboxed GraalVM code interpreter for LangChain and Deep Agents."""

from langchain_graalvm._bridge import EvalOutcome, SnapshotError
from langchain_graalvm._jvm import JvmError
from langchain_graalvm.interpreter import Interpreter, runtime_info

__all__ = ["EvalOutcome", "Interpreter", "JvmError", "SnapshotError", "runtime_info"]
