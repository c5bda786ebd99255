"""The guest cannot reach the host: no Java, polyglot, IO, module loading, environment or host clock."""

from __future__ import annotations

import time

import pytest

from langchain_graalvm import Interpreter

ABSENT_GLOBALS = [
    "Java", "Packages", "java", "javax", "com", "org", "edu", "Polyglot", "Graal", "load", "loadWithNewGlobal",
    "print", "printErr", "quit", "read", "readline", "readbuffer", "require", "process", "module", "exports",
    "fetch", "XMLHttpRequest", "WebAssembly", "setTimeout", "setInterval", "performance", "Deno", "Bun",
]


@pytest.mark.parametrize("name", ABSENT_GLOBALS)
def test_host_globals_are_absent(js: Interpreter, name: str) -> None:
    assert js.eval(f"typeof globalThis[{name!r}]").value == "undefined"


@pytest.mark.parametrize(
    ("code", "etype"),
    [
        pytest.param("Java.type('java.lang.Runtime')", "ReferenceError", id="java-type"),
        pytest.param("Polyglot.eval('python', '1')", "ReferenceError", id="polyglot-eval"),
        pytest.param("Polyglot.import('x')", "ReferenceError", id="polyglot-import"),
        pytest.param("load('/etc/passwd')", "ReferenceError", id="load"),
        pytest.param("require('fs')", "ReferenceError", id="require"),
        pytest.param("process.env", "ReferenceError", id="process"),
        pytest.param("Packages.java.lang.System.exit(1)", "ReferenceError", id="packages"),
        pytest.param("Graal.versionGraalVM", "ReferenceError", id="graal"),
    ],
)
def test_host_access_attempts_fail_with_clear_errors(js: Interpreter, code: str, etype: str) -> None:
    out = js.eval(code)
    assert out.status == "error"
    assert out.error_type == etype
    assert js.eval("1 + 1").value == "2"


def test_dynamic_import_is_refused(js: Interpreter) -> None:
    out = js.eval("await import('fs')")
    assert out.status == "error"
    assert js.eval("1 + 1").value == "2"


def test_global_walk_finds_no_host_object(js: Interpreter) -> None:
    code = """
    const seen = new Set(); const found = [];
    const bad = /java|polyglot|graal|host|truffle/i;
    function walk(o, path, depth) {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o) || depth > 3) return;
      seen.add(o);
      for (const k of Reflect.ownKeys(o)) {
        const name = String(k);
        if (bad.test(name)) found.push(path + '.' + name);
        let d; try { d = Object.getOwnPropertyDescriptor(o, k) } catch (e) { continue }
        if (d && 'value' in d) walk(d.value, path + '.' + name, depth + 1);
      }
    }
    walk(globalThis, 'globalThis', 0);
    found
    """
    assert js.eval(code).value == "[]"


def test_constructor_chain_reaches_only_the_guest_global(js: Interpreter) -> None:
    out = js.eval("const g = this.constructor.constructor('return this')(); [g === globalThis, typeof g.Java]")
    assert out.value == '[true, "undefined"]'


def test_function_and_eval_cannot_reach_the_host(js: Interpreter) -> None:
    out = js.eval("[Function('return typeof Java')(), (0, eval)('typeof Polyglot')]")
    assert out.value == '["undefined", "undefined"]'


def test_frozen_clock_hides_host_time(js: Interpreter) -> None:
    out = js.eval("[Date.now(), new Date().toISOString(), new Date().getTime(), typeof Date()]")
    assert out.value == '[0, "1970-01-01T00:00:00.000Z", 0, "string"]'


def test_frozen_clock_keeps_date_usable(js: Interpreter) -> None:
    out = js.eval(
        "[new Date(2020, 0, 1).getFullYear(), new Date('2024-05-06T00:00:00Z').toISOString(),"
        " new Date(0) instanceof Date, Date.UTC(2000, 0), Date.parse('1970-01-02T00:00:00Z'),"
        " new Date().constructor === Date]"
    )
    assert out.value == '[2020, "2024-05-06T00:00:00.000Z", true, 946684800000, 86400000, true]'


def test_frozen_clock_instant_is_configurable() -> None:
    with Interpreter(frozen_epoch_ms=1_700_000_000_000) as js:
        assert js.eval("new Date().toISOString()").value == "2023-11-14T22:13:20.000Z"


def test_host_clock_is_opt_in() -> None:
    with Interpreter(clock="host") as js:
        now = float(js.eval("Date.now()").value or 0) / 1000
        assert abs(now - time.time()) < 60


def test_time_zone_is_utc(js: Interpreter) -> None:
    assert js.eval("new Date(0).getTimezoneOffset()").value == "0"


def test_globals_do_not_leak_between_interpreters() -> None:
    with Interpreter() as a, Interpreter() as b:
        a.eval("var secret = 'a-only'; Object.prototype.polluted = 1")
        assert b.eval("typeof secret").value == "undefined"
        assert b.eval("({}).polluted").value == "undefined"


def test_frozen_clock_date_keeps_the_shape_of_date(js: Interpreter) -> None:
    out = js.eval(
        "class Stamp extends Date { label() { return 'at ' + this.getTime(); } }"
        "[Date.name, Date.length, Object.getPrototypeOf(new Date(5)) === Date.prototype,"
        " new Stamp().label(), new Stamp(7) instanceof Date, Reflect.construct(Date, [], Stamp).getTime(),"
        " new Date(2024, 1).getMonth(), isNaN(new Date(2024, 1, undefined)), new Date(2024, 0, 2, 3, 4, 5, 6).getTime(),"
        " new Date(new Date(9)).getTime(), Date(1, 2) === new Date(0).toString(), Date.prototype.constructor === Date,"
        " typeof Date.UTC, Date.now()]"
    )
    assert out.value == (
        '["Date", 7, true, "at 0", true, 0, 1, true, 1704164645006, 9, true, true, "function", 0]'
    ), out.text
