"""REPL semantics: values, persistence, top-level await, TypeScript, console, errors."""

from __future__ import annotations

import pytest

from langchain_graalvm import Interpreter


def test_last_expression_is_the_result(js: Interpreter) -> None:
    out = js.eval("let x = 20; x + 22")
    assert out.status == "ok"
    assert out.text == "<result>42</result>"
    assert out.value == "42"


def test_statement_only_cell_gives_undefined(js: Interpreter) -> None:
    assert js.eval("let y = 1").text == "<result>undefined</result>"


@pytest.mark.parametrize("keyword", ["let", "const", "var"])
def test_top_level_bindings_persist_and_can_be_declared_again(js: Interpreter, keyword: str) -> None:
    assert js.eval(f"{keyword} v = 1").ok
    assert js.eval("v").value == "1"
    again = js.eval(f"{keyword} v = 2; v")
    assert again.text == "<result>2</result>"


def test_class_and_function_persist_and_can_be_redeclared(js: Interpreter) -> None:
    js.eval("class Point { constructor(x) { this.x = x } }\nfunction twice(n) { return 2 * n }")
    assert js.eval("new Point(twice(2)).x").value == "4"
    assert js.eval("class Point { constructor() { this.y = 9 } }; new Point()").value == "Point {y: 9}"


def test_destructuring_declarations_persist(js: Interpreter) -> None:
    js.eval("const {a, b: [c]} = {a: 1, b: [2]}")
    assert js.eval("a + c").value == "3"


def test_top_level_await_and_its_bindings_persist(js: Interpreter) -> None:
    out = js.eval("const t = await Promise.resolve(7);\nlet u = await new Promise(r => r(t + 1));\nt + u")
    assert out.text == "<result>15</result>"
    assert js.eval("t * u").value == "56"


def test_function_declared_in_an_await_cell_is_global(js: Interpreter) -> None:
    js.eval("await null; function later() { return 'ok' }")
    assert js.eval("later()").value == "ok"


def test_final_promise_is_awaited(js: Interpreter) -> None:
    assert js.eval("Promise.resolve({x: 1})").text == "<result>{x: 1}</result>"
    assert js.eval("(async () => 5)()").value == "5"


def test_rejected_final_promise_is_an_error(js: Interpreter) -> None:
    out = js.eval("Promise.reject(new RangeError('rej'))")
    assert out.status == "error"
    assert out.error_type == "RangeError"
    assert out.error_message == "rej"


def test_pending_promise_is_a_clear_deadlock_error_not_a_hang(js: Interpreter) -> None:
    out = js.eval("await new Promise(() => {})")
    assert out.error_type == "Deadlock"
    assert "still pending" in (out.error_message or "")
    assert out.duration_s < 2


def test_typescript_annotations_are_accepted(js: Interpreter) -> None:
    code = (
        "interface User { id: number; name?: string }\n"
        "type Id = number;\n"
        "function pick<T>(xs: T[], i: Id): T { return xs[i] }\n"
        "const u: User = { id: 1 } as User;\n"
        "enum Color { Red, Green }\n"
        "pick<number>([10, 20], u.id)! + Color.Green"
    )
    out = js.eval(code)
    assert out.text == "<result>21</result>", out.text


def test_typescript_keeps_line_numbers_in_stacks(js: Interpreter) -> None:
    out = js.eval("const n: number = 1;\ninterface X { a: string }\nthrow new Error('line three')")
    assert out.error_type == "Error"
    assert "cell:3:" in out.error_stack


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("let y = ;", id="js-syntax"),
        pytest.param("const x: number = ;", id="ts-syntax"),
        pytest.param("function f(a: number { return a }", id="ts-broken-signature"),
        pytest.param("let", id="lone-keyword"),
    ],
)
def test_syntax_errors_are_clear_and_keep_state(js: Interpreter, code: str) -> None:
    js.eval("var before = 1")
    out = js.eval(code)
    assert out.status == "error"
    assert out.error_type == "SyntaxError"
    assert "(1:" in (out.error_message or ""), out.error_message
    assert js.eval("before").value == "1"


def test_console_is_captured_in_order(js: Interpreter) -> None:
    out = js.eval("console.log('a', 1); console.warn('w'); console.error('e'); console.info({k: [1]}); 'done'")
    assert out.text == "<stdout>\na 1\nw\ne\n{k: [1]}\n</stdout>\n<result>done</result>"


def test_console_output_before_an_error_is_kept(js: Interpreter) -> None:
    out = js.eval("console.log('first'); null.x")
    assert out.stdout == "first"
    assert out.error_type == "TypeError"
    assert out.text.startswith("<stdout>\nfirst\n</stdout>\n<error")


def test_console_can_be_disabled() -> None:
    with Interpreter(capture_console=False) as quiet:
        assert quiet.eval("typeof console").value == "undefined"


def test_error_stack_points_at_model_lines(js: Interpreter) -> None:
    out = js.eval("function f() {\n  throw new TypeError('bad thing')\n}\nf()")
    assert out.error_type == "TypeError"
    assert out.error_message == "bad thing"
    frames = out.error_stack.splitlines()
    assert [f.split(":")[0:2] for f in frames] == [["    at f (cell", "2"], ["    at cell", "4"]]
    assert out.text == f'<error type="TypeError">bad thing\n{out.error_stack}</error>'


def test_error_stack_in_await_cell_points_at_model_lines(js: Interpreter) -> None:
    out = js.eval("await null;\nconst z = 1;\nthrow new Error('x')")
    assert "cell:3:" in out.error_stack


@pytest.mark.parametrize(
    ("code", "etype", "message"),
    [
        pytest.param("throw 'plain'", "Error", "plain", id="string"),
        pytest.param("throw 42", "Error", "42", id="number"),
        pytest.param("throw null", "Error", "null", id="null"),
        pytest.param("throw {code: 1}", "Error", "{code: 1}", id="object"),
        pytest.param("throw {name: 'N', message: 'm'}", "N", "m", id="duck-typed"),
        pytest.param("const e = new Error('m'); e.name = 'A<B'; throw e", "A<B", "m", id="custom-name"),
        pytest.param("notDefined + 1", "ReferenceError", "notDefined is not defined", id="reference"),
        pytest.param("undeclared = 5", "ReferenceError", "undeclared is not defined", id="strict-mode"),
    ],
)
def test_thrown_values_are_described(js: Interpreter, code: str, etype: str, message: str) -> None:
    out = js.eval(code)
    assert out.status == "error"
    assert out.error_type == etype
    assert out.error_message == message


def test_strict_mode_rejects_with(js: Interpreter) -> None:
    out = js.eval("with ({a: 1}) { a }")
    assert out.error_type == "SyntaxError"


def test_static_import_is_a_syntax_error(js: Interpreter) -> None:
    out = js.eval("import fs from 'fs'")
    assert out.error_type == "SyntaxError"


def test_empty_cell(js: Interpreter) -> None:
    assert js.eval("").text == "<result>undefined</result>"


def test_microtasks_run_within_the_eval(js: Interpreter) -> None:
    out = js.eval("Promise.resolve().then(() => console.log('tick')); queueMicrotask(() => console.log('q')); 1")
    assert out.stdout == "tick\nq"
