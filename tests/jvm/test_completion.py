"""A cell's value is its script completion value, the value ``eval`` of the same text gives, with and without
top-level await; checked against the engine's own completion value and against langchain-quickjs."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from langchain_graalvm import Interpreter

# (code with AWAIT where the await cell awaits, the rendered completion value)
CASES = [
    pytest.param("try { AWAIT; throw new Error('boom') } catch (e) { e.message }", "boom", id="catch-message"),
    pytest.param("if (true) { AWAIT; 'yes' }", "yes", id="if-block"),
    pytest.param("1; if (true) { AWAIT }", "null", id="if-last-await-value"),
    pytest.param("1; if (false) { AWAIT; 2 }", "undefined", id="if-false-is-undefined"),
    pytest.param("AWAIT; 1; if (true) {}", "undefined", id="if-empty-is-undefined"),
    pytest.param("AWAIT; for (let i = 0; i < 3; i++) { i * 10 }", "20", id="for-last-value"),
    pytest.param("AWAIT; 5; for (let i = 0; i < 3; i++) { }", "undefined", id="for-empty-body"),
    pytest.param("AWAIT; let s = 0; for (const x of [1, 2, 3]) s += x", "6", id="for-of-expression-body"),
    pytest.param("AWAIT; for (const k in {a: 1, b: 2}) k", "b", id="for-in"),
    pytest.param("AWAIT; let n = 0; while (n < 3) n++", "2", id="while"),
    pytest.param("AWAIT; 11; do { 12; break } while (true)", "12", id="break-keeps-value"),
    pytest.param("AWAIT; 13; while (true) { break }", "undefined", id="break-on-empty"),
    pytest.param(
        "AWAIT; outer: for (const a of [1, 2]) { for (const b of [3, 4]) { a * b; continue outer } }",
        "6",
        id="labelled-continue",
    ),
    pytest.param("AWAIT; lbl: { 16; break lbl; 17 }", "16", id="labelled-block-break"),
    pytest.param("AWAIT; 18; lbl: { break lbl }", "18", id="labelled-empty-break"),
    pytest.param("AWAIT; switch (2) { case 1: 'one'; break; case 2: 'two'; break }", "two", id="switch"),
    pytest.param("AWAIT; 7; switch (3) { case 1: 'one' }", "undefined", id="switch-no-match"),
    pytest.param("AWAIT; { 8; { 9 } }", "9", id="nested-blocks"),
    pytest.param("AWAIT; try { 1 } finally { 2 }", "1", id="finally-keeps-try-value"),
    pytest.param("AWAIT; try { throw 0 } catch { 3 } finally { 4 }", "3", id="catch-then-finally"),
    pytest.param("AWAIT; 5; try { } catch { }", "undefined", id="empty-try"),
    pytest.param("AWAIT; 6; try { throw 0 } catch { }", "undefined", id="empty-catch"),
    pytest.param("AWAIT; 14; var q = 1", "14", id="var-is-empty"),
    pytest.param("AWAIT; 15; function g() {}", "15", id="function-is-empty"),
    pytest.param("AWAIT; if (true) if (false) 1; else 'inner'", "inner", id="dangling-else"),
    pytest.param("AWAIT; if (true) for (const z of [1, 2]) z", "2", id="loop-as-substatement"),
    pytest.param("AWAIT; 'last'; let after = 1", "last", id="declaration-after-value"),
]

# Cells whose `using` declarations the cell compiler rewrites into try statements, which must not change the value.
USING_CASES = [
    pytest.param("AWAIT; 4; { using x = null; }", "4", id="empty-scope-keeps-the-value-before"),
    pytest.param("AWAIT; 4; { using x = null; 5 }", "5", id="value-in-the-scope"),
    pytest.param("AWAIT; 4; { using x = null; let y = 1 }", "4", id="declaration-after-using"),
    pytest.param("AWAIT; 4; { using x = null; if (false) {} }", "undefined", id="if-in-the-scope"),
    pytest.param("AWAIT; 4; try { using x = null; } finally { }", "undefined", id="real-try-is-undefined"),
    pytest.param("AWAIT; 4; L: { using x = null; 6; break L }", "6", id="labelled-break"),
    pytest.param("AWAIT; 4; for (using x of [null]) { }", "undefined", id="for-of-using-empty-body"),
    pytest.param("AWAIT; 4; for (using x of [null, null]) { 7 }", "7", id="for-of-using-body-value"),
    pytest.param("AWAIT; 4; { await using x = null; }", "4", id="await-using-empty-scope"),
]


def variants(code: str) -> tuple[str, str]:
    """The cell with a real await, and the same cell without any await (which the engine runs as a script)."""
    return code.replace("AWAIT", "await null"), code.replace("AWAIT; ", "").replace("AWAIT", "null")


@pytest.fixture(scope="module")
def repl() -> Iterator[Interpreter]:
    interpreter = Interpreter(timeout=10.0)
    try:
        yield interpreter
    finally:
        interpreter.close()


@pytest.mark.parametrize(("code", "expected"), CASES)
def test_await_cell_value_is_the_completion_value(repl: Interpreter, code: str, expected: str) -> None:
    awaited, plain = variants(code)
    assert repl.eval(plain).text == f"<result>{expected}</result>", "the engine's own completion value"
    assert repl.eval(awaited).text == f"<result>{expected}</result>"


@pytest.mark.parametrize(("code", "expected"), CASES)
def test_engine_eval_of_the_same_text_agrees(repl: Interpreter, code: str, expected: str) -> None:
    # Indirect eval is a script evaluation too; its value is what the cell must give.
    _, plain = variants(code)
    out = repl.eval(f"(0, eval)({plain!r})")
    assert out.text == f"<result>{expected}</result>"


@pytest.fixture(scope="module")
def quickjs() -> Any:
    from langchain_graalvm.cli._benchkit import EvalToolSlot, build_middleware

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return EvalToolSlot(build_middleware("quickjs", "defaults", mode="turn", timeout=60.0))


@pytest.mark.parametrize(("code", "expected"), CASES)
def test_quickjs_gives_the_same_value(quickjs: Any, code: str, expected: str) -> None:
    awaited, _ = variants(code)
    # langchain-quickjs renders undefined as null.
    assert quickjs.eval(awaited) == f"<result>{'null' if expected == 'undefined' else expected}</result>"


@pytest.mark.parametrize(("code", "expected"), USING_CASES)
def test_using_cell_value_is_the_completion_value(repl: Interpreter, code: str, expected: str) -> None:
    awaited, plain = variants(code)
    if "await using" not in plain:
        assert repl.eval(plain).text == f"<result>{expected}</result>"
    assert repl.eval(awaited).text == f"<result>{expected}</result>"


@pytest.mark.parametrize(("code", "expected"), USING_CASES)
def test_quickjs_gives_the_same_using_value(quickjs: Any, code: str, expected: str) -> None:
    awaited, _ = variants(code)
    assert quickjs.eval(awaited) == f"<result>{'null' if expected == 'undefined' else expected}</result>"


def test_the_using_cell_value_is_no_global_and_never_stale() -> None:
    with Interpreter(snapshots=True, timeout=10.0) as js, Interpreter(snapshots=True, timeout=10.0) as other:
        assert js.eval("'use strict'; { using x = null; }").text == "<result>use strict</result>"
        assert js.eval("{ using x = null; 9 }").text == "<result>9</result>"
        assert js.eval("var kept = 1; { using x = null; 8; null.x }").error_type == "TypeError"
        assert js.eval("{ using x = null; }").text == "<result>undefined</result>"
        names = "Object.getOwnPropertyNames(globalThis).filter((n) => n.includes('cellValue')).length"
        assert js.eval(names).text == "<result>0</result>"
        assert other.restore(js.snapshot()) == ["kept"]
        assert other.eval("4; { using x = null; }").text == "<result>4</result>"
        assert other.eval("const n: number = 3; n; { using x = null as null; }").text == "<result>3</result>"


def test_typescript_await_cell_gives_its_completion_value(repl: Interpreter) -> None:
    code = "let x: number = await Promise.resolve(3);\nif (x > 2) { `big ${x as number}` } else { 'small' }"
    assert repl.eval(code).text == "<result>big 3</result>"
    assert repl.eval("x").value == "3"


def test_tool_error_message_caught_in_an_await_cell(repl: Interpreter) -> None:
    code = "async function fetchPage() { throw new Error('404 for /a') }\n"
    code += "try { await fetchPage() } catch (e) { e.message }"
    assert repl.eval(code).text == "<result>404 for /a</result>"


def test_await_cell_keeps_line_numbers_and_bindings(repl: Interpreter) -> None:
    code = "const base = await Promise.resolve(2);\nfor (const i of [1]) {\n  if (i) { throw new Error('at 4') }\n}"
    out = repl.eval(code)
    assert out.error_message == "at 4"
    assert "cell:3:" in out.error_stack, out.error_stack
    assert repl.eval("base").value == "2"
    out = repl.eval("let made = 0;\ntry { made = await Promise.resolve(5) } finally { 'ignored' }")
    assert out.text == "<result>5</result>"
    assert repl.eval("made").value == "5"


def test_final_promise_value_is_still_awaited(repl: Interpreter) -> None:
    assert repl.eval("await null; if (true) { Promise.resolve('settled') }").text == "<result>settled</result>"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("var await = 5; await", "5", id="var-named-await"),
        pytest.param("const await = 3; await + 1", "4", id="const-named-await-plus"),
        pytest.param("function f(await) { return await } f(2)", "2", id="parameter-named-await"),
        pytest.param("await (Promise.resolve(4))", "4", id="parenthesised-await-stays-await"),
        pytest.param("await [1, 2].length", "2", id="await-member"),
    ],
)
def test_await_as_identifier_where_scripts_allow_it(repl: Interpreter, code: str, expected: str) -> None:
    assert repl.eval(code).text == f"<result>{expected}</result>"
