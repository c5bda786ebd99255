"""The audit hook: every executed piece of code reaches the callback or logger with its outcome."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from langchain_graalvm import AuditRecord, Interpreter
from tests.support.scripted import build_agent, thread, turn


def test_callback_gets_code_outcome_duration_and_thread() -> None:
    records: list[AuditRecord] = []
    with Interpreter(timeout=1.0, audit=records.append) as js:
        js.eval("let n = 41")
        js.eval("n + 1")
        js.eval("throw new TypeError('bad')")
        js.eval("while (true) {}")
    assert [r.code for r in records] == ["let n = 41", "n + 1", "throw new TypeError('bad')", "while (true) {}"]
    assert [r.status for r in records] == ["ok", "ok", "error", "timeout"]
    assert records[1].outcome.value == "42"
    assert records[2].outcome.error_type == "TypeError"
    assert records[3].duration_s >= 0.9  # the 1 s timeout ran out
    assert all(r.host_thread == threading.current_thread().name for r in records)
    assert all(r.thread_id is None for r in records)  # no conversation outside an agent


def test_async_evals_are_audited() -> None:
    records: list[AuditRecord] = []

    async def run() -> None:
        with Interpreter(audit=records.append) as js:
            await js.aeval("const a = 2")
            await js.aeval("a * 21")

    asyncio.run(run())
    assert [(r.code, r.outcome.value) for r in records] == [("const a = 2", "undefined"), ("a * 21", "42")]


def test_logger_name_gets_one_info_record_per_eval(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="acme.sandbox.audit"), Interpreter(audit="acme.sandbox.audit") as js:
        js.eval("1 + 1")
        js.eval("nope()")
    records = [r for r in caplog.records if r.name == "acme.sandbox.audit"]
    assert len(records) == 2
    assert "status=ok" in records[0].getMessage() and "code='1 + 1'" in records[0].getMessage()
    assert "status=error" in records[1].getMessage()
    assert records[1].audit.outcome.error_type == "ReferenceError"  # type: ignore[attr-defined]


def test_a_failing_callback_is_logged_and_the_eval_still_returns(caplog: pytest.LogCaptureFixture) -> None:
    def broken(record: AuditRecord) -> None:
        raise RuntimeError("audit sink down")

    with Interpreter(audit=broken) as js:
        assert js.eval("6 * 7").value == "42"
    assert any("audit callback raised" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("bad", [42, ""])
def test_bad_audit_argument_is_a_clear_error(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="audit"):
        Interpreter(audit=bad)  # type: ignore[arg-type]


def test_middleware_audits_every_tool_eval_with_the_conversation_thread_id() -> None:
    from langchain_graalvm import CodeInterpreterMiddleware

    records: list[AuditRecord] = []
    middleware = CodeInterpreterMiddleware(audit=records.append)
    from langgraph.checkpoint.memory import InMemorySaver

    agent = build_agent(middleware, checkpointer=InMemorySaver())
    try:
        config = thread("conv-1")
        agent.invoke(turn("let total = 10", "total * 2"), config)
        agent.invoke(turn("total + 1"), config)
        agent.invoke(turn("1 + 1"), thread("conv-2"))
    finally:
        middleware.close()
    assert [(r.thread_id, r.code, r.outcome.value) for r in records] == [
        ("conv-1", "let total = 10", "undefined"),
        ("conv-1", "total * 2", "20"),
        ("conv-1", "total + 1", "11"),
        ("conv-2", "1 + 1", "2"),
    ]
    assert all(r.tool_call_id and r.tool_call_id.startswith("call_") for r in records)


async def test_middleware_audits_async_runs_too() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from langchain_graalvm import CodeInterpreterMiddleware

    records: list[AuditRecord] = []
    middleware = CodeInterpreterMiddleware(audit=records.append)
    agent = build_agent(middleware, checkpointer=InMemorySaver())
    try:
        await agent.ainvoke(turn("const k = 3", "k * k", "while (true) {}"), thread("async-1"))
    finally:
        middleware.close()
    assert [(r.thread_id, r.code, r.status) for r in records] == [
        ("async-1", "const k = 3", "ok"),
        ("async-1", "k * k", "ok"),
        ("async-1", "while (true) {}", "timeout"),
    ]
    assert records[1].outcome.value == "9"
