"""Unpaired UTF-16 surrogates never raise out of the tool: they cross every boundary and are shown as ``\\uXXXX``.

A guest makes them easily (``"😀".slice(0, 1)``); JPype's UTF-8 conversion refuses them in both directions.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from langchain_graalvm import CodeInterpreterMiddleware, Interpreter
from langchain_graalvm._runtime._adapter import EvalOutcome
from tests.agents.test_ptc import WorkerModel, run
from tests.support.scripted import build_agent, results_of, thread, turn

pytestmark = pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")

LONE = "\ud800"


def encodable(*texts: str | None) -> bool:
    """Whether every text is valid Unicode that a UTF-8 writer (a log, a JSON checkpoint, an LLM API) accepts."""
    for t in texts:
        if t is not None:
            t.encode("utf-8")
    return True


def assert_clean(out: EvalOutcome) -> None:
    assert encodable(out.text, out.value, out.stdout, out.error_message, out.error_stack, out.error_type)


@pytest.fixture(scope="module")
def js() -> Iterator[Interpreter]:
    interpreter = Interpreter(timeout=10.0, snapshots=True)
    try:
        yield interpreter
    finally:
        interpreter.close()


@pytest.mark.parametrize(
    ("code", "text"),
    [
        pytest.param("'\\ud800'", "<result>\\ud800</result>", id="result"),
        pytest.param("'😀'.slice(0, 1)", "<result>\\ud83d</result>", id="half-an-emoji"),
        pytest.param("'a\\udc00😀b'", "<result>a\\udc00😀b</result>", id="lone-low-beside-a-pair"),
        pytest.param("({k: '\\ud800'})", '<result>{k: "\\ud800"}</result>', id="in-an-object"),
        pytest.param("console.log('x\\ud800y'); 1", "<stdout>\nx\\ud800y\n</stdout>\n<result>1</result>", id="console"),
        pytest.param(f"'{LONE}'", "<result>\\ud800</result>", id="raw-in-the-code"),
        pytest.param(f"'{LONE}'.length + '{LONE}x'.charCodeAt(0)", "<result>55297</result>", id="code-is-exact-utf16"),
    ],
)
def test_javascript_values_and_output(js: Interpreter, code: str, text: str) -> None:
    out = js.eval(code)
    assert_clean(out)
    assert out.text == text


def test_javascript_errors_and_stacks(js: Interpreter) -> None:
    out = js.eval("function f() { throw new TypeError('bad \\ud800 input') }\nf()")
    assert_clean(out)
    assert (out.error_type, out.error_message) == ("TypeError", "bad \\ud800 input")
    assert "at f (cell:1:" in out.error_stack
    out = js.eval(f"let x{LONE} = 1")
    assert_clean(out)
    assert out.error_type == "SyntaxError" and "\\ud800" in (out.error_message or "")
    assert js.eval("1 + 1").value == "2"


def test_javascript_snapshot_round_trips_the_string(js: Interpreter) -> None:
    assert js.eval("globalThis.half = '😀'.slice(0, 1) + 'tail'; half.length").value == "5"
    payload = js.snapshot()
    json.loads(payload)
    with Interpreter(snapshots=True) as other:
        assert "half" in other.restore(payload)
        assert other.eval("[half.charCodeAt(0), half.length]").value == "[55357, 5]"


@pytest.fixture(scope="module")
def py() -> Iterator[Interpreter]:
    interpreter = Interpreter("python", timeout=20.0)
    try:
        yield interpreter
    finally:
        interpreter.close()


@pytest.mark.parametrize(
    ("code", "text"),
    [
        pytest.param("'\\ud800'", "<result>'\\ud800'</result>", id="repr-result"),
        pytest.param("print('a\\ud800b')", "<stdout>\na\\ud800b\n</stdout>\n<result>None</result>", id="print"),
        pytest.param(f"x = '{LONE}'\nlen(x)", "<result>1</result>", id="raw-in-the-code"),
    ],
)
def test_python_guest_values_and_output(py: Interpreter, code: str, text: str) -> None:
    out = py.eval(code)
    assert_clean(out)
    assert out.text == text


def test_python_guest_errors(py: Interpreter) -> None:
    out = py.eval("raise ValueError('x\\ud800')")
    assert_clean(out)
    assert (out.error_type, out.error_message) == ("ValueError", "x\\ud800")


def test_audit_hook_gets_the_code_and_a_clean_outcome(caplog: pytest.LogCaptureFixture) -> None:
    records: list[Any] = []
    with Interpreter(audit=records.append) as a:
        a.eval(f"'{LONE}'")
    assert records[0].code == f"'{LONE}'"
    assert_clean(records[0].outcome)
    with caplog.at_level(logging.INFO, logger="audit.surrogates"), Interpreter(audit="audit.surrogates") as b:
        b.eval(f"'{LONE}' + '\\ud800'")
    assert encodable(caplog.text) and "\\ud800" in caplog.text


@tool
def mirror(text: str) -> str:
    """Returns the text's code points in hex, then half an emoji."""
    return "|".join(f"{ord(c):x}" for c in text) + "\ud83d"


@tool
def refuse(text: str) -> str:
    """Always fails, naming the text."""
    raise ValueError(f"refused {text}\udfff")


def test_tool_arguments_results_and_errors_through_the_eval_tool() -> None:
    mw = CodeInterpreterMiddleware(ptc=["mirror", "refuse"], timeout=10.0)
    agent = build_agent(mw, tools=[mirror, refuse])
    out = run(
        agent,
        "const r = await tools.mirror({text: 'a\\ud800'});\n[r, r.length, r.charCodeAt(r.length - 1)]",
        "try { await tools.refuse({text: 'z\\udc00'}) } catch (e) { e.message }",
        "await tools.mirror({text: '\\ud800'}).then((r) => r.slice(-1))",
    )
    assert encodable(*out)
    assert out[0] == '<result>["61|d800\\ud83d", 8, 55357]</result>'
    assert out[1] == "<result>tools.refuse failed: refused z\\udc00\\udfff</result>"
    assert out[2] == "<result>\\ud83d</result>"


def test_task_descriptions_and_answers() -> None:
    worker = {"name": "worker", "description": "Does one job.", "system_prompt": "Jobs.", "model": WorkerModel()}
    agent = build_agent(CodeInterpreterMiddleware(timeout=10.0), subagents=[worker])
    out = run(agent, "const a = await task({description: 'half \\ud83d', subagentType: 'worker'});\n[a, a.length]")
    assert encodable(*out)
    assert out[0] == '<result>["done: half \\ud83d", 12]</result>'


def test_thread_mode_snapshot_in_graph_state_keeps_the_string() -> None:
    agent, config = build_agent(CodeInterpreterMiddleware(timeout=10.0), checkpointer=InMemorySaver()), thread()
    first = results_of(agent.invoke(turn("globalThis.cut = '😀'.slice(1); cut"), config))
    assert first == ["<result>\\ude00</result>"]
    again = results_of(agent.invoke(turn("[cut.length, cut.charCodeAt(0)]"), config))
    assert again == ["<result>[1, 56832]</result>"]
