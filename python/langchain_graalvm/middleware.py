"""The Deep Agents middleware, at its public path (the implementation is :mod:`langchain_graalvm.agents`)."""

from langchain_graalvm.agents.middleware import CodeInterpreterMiddleware, GraalVMInterpreterState

__all__ = ["CodeInterpreterMiddleware", "GraalVMInterpreterState"]
