"""The Deep Agents side: the middleware and what it needs (the ``agents`` extra: deepagents, langchain, langgraph).

``middleware`` (the ``eval`` tool, state and prompt) sits on ``_slots`` (one interpreter per thread, restored from
its snapshot), ``_spares`` (pre-built interpreters), ``_snapshot_state`` and ``_delta`` (snapshot records in the
graph's state), ``_hostcalls`` (tool and subagent calls from code, reviews and replay, on the interpreter's own
call pump), ``_ptc`` (which tools code sees, and what of their results) and ``prompts/`` (what the model is told,
one module per guest language). The public path is :mod:`langchain_graalvm.middleware`; importing this package
loads nothing.
"""
