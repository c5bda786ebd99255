"""Built-ins newer than the engine (polyfilled on demand) and `using` declarations, through the public eval path."""

from __future__ import annotations

import pytest

from langchain_graalvm import Interpreter

# The first cell of a process that installs a polyfill group also parses the bundle; on a loaded machine that
# takes seconds, and it counts against the cell's timeout.
SLOW = 60.0


@pytest.fixture(scope="module")
def js() -> Interpreter:
    with Interpreter(timeout=SLOW) as interp:
        yield interp


def _value(js: Interpreter, code: str) -> str:
    out = js.eval(code)
    assert out.ok, out.text
    return out.text


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("typeof DisposableStack + typeof AsyncDisposableStack + typeof SuppressedError", "functionfunctionfunction"),
        ("typeof Symbol.dispose + ' ' + typeof Symbol.asyncDispose", "symbol symbol"),
        ("(await Array.fromAsync((async function* () { yield 1; yield 2 })())).join()", "1,2"),
        ("[...Iterator.concat([1], [2, 3])].join()", "1,2,3"),
        ("JSON.stringify([...Iterator.zip([[1, 2], ['a', 'b']])])", '[[1,"a"],[2,"b"]]'),
        ("JSON.stringify(Iterator.zipKeyed({a: [1], b: [2]}).toArray())", '[{"a":1,"b":2}]'),
        ("new Uint8Array([72, 105]).toBase64() + ' ' + Uint8Array.fromHex('4869').toHex()", "SGk= 4869"),
        ("Array.from(Uint8Array.fromBase64('SGk=')).join()", "72,105"),
        (
            "const m = new Map(); m.getOrInsert('a', 1); m.getOrInsertComputed('b', (k) => k + '!'); [...m].join()",
            "a,1,b,b!",
        ),
        (
            "JSON.stringify({n: JSON.rawJSON('12345678901234567890')}) + JSON.isRawJSON(JSON.rawJSON('1'))",
            '{"n":12345678901234567890}true',
        ),
        ("Math.sumPrecise([1e20, 0.1, -1e20])", "0.1"),
        ("Error.isError(new TypeError()) && !Error.isError({})", "true"),
    ],
)
def test_built_ins_newer_than_the_engine_work(js: Interpreter, code: str, expected: str) -> None:
    assert _value(js, code) == f"<result>{expected}</result>"


def test_polyfilled_methods_have_the_specification_shape(js: Interpreter) -> None:
    code = """
    const shape = (o, k) => { const d = Object.getOwnPropertyDescriptor(o, k); let c = true;
      try { Reflect.construct(String, [], d.value) } catch (e) { c = false }
      return [typeof d.get, d.writable, d.enumerable, d.configurable, d.value.length, d.value.name, c,
        'prototype' in d.value].join() }
    [shape(Map.prototype, 'getOrInsert'), shape(Iterator, 'concat'),
      shape(Uint8Array.prototype, 'toBase64')].join(' | ')
    """
    assert _value(js, code) == (
        "<result>undefined,true,false,true,2,getOrInsert,false,false | "
        "undefined,true,false,true,0,concat,false,false | undefined,true,false,true,0,toBase64,false,false</result>"
    )


def test_error_is_error_checks_the_error_brand_not_the_prototype(js: Interpreter) -> None:
    code = """
    const fake = { __proto__: Error.prototype, constructor: Error, message: '', stack: new Error().stack,
      [Symbol.toStringTag]: 'Error' };
    const trapped = []; const handler = new Proxy({}, { get(t, k) { trapped.push(k) } });
    [[new Error(), new RangeError(), new (class E extends TypeError {})(), new AggregateError([]),
      new SuppressedError(1, 2), Object.setPrototypeOf(new Error(), null), Object.freeze(new URIError())],
     [fake, Object.create(Error.prototype), Error.prototype, new Proxy(new Error(), handler), Error, {}, 'Error', null]]
      .map((vs) => vs.map(Error.isError).join()).join(' | ') + ' | traps: ' + trapped.length
    """
    assert _value(js, code) == (
        "<result>true,true,true,true,true,true,true | false,false,false,false,false,false,false,false"
        " | traps: 0</result>"
    )


def test_iterator_take_and_drop_reject_a_limit_above_the_largest_safe_integer(js: Interpreter) -> None:
    # GraalJS 25.0.3 accepts such a limit; the current specification throws RangeError after ToNumber(limit),
    # closes the iterator, and never reads its `next`.
    code = """
    let log = [];
    const it = () => ({ get next() { log.push('next'); return () => ({ done: true }) },
      return() { log.push('return'); return {} } });
    const run = (name, self, limit) => { log = []; let r;
      try { Iterator.prototype[name].call(self, limit); r = 'ok' } catch (e) { r = e.name }
      return r + ':' + log.join('+') };
    const once = { valueOf() { log.push('valueOf'); return 3 } };
    const m = Iterator.prototype.take; let ctor = true; try { Reflect.construct(String, [], m) } catch { ctor = false }
    [run('take', it(), 2 ** 53), run('drop', it(), 2 ** 53), run('take', it(), Number.MAX_SAFE_INTEGER),
     run('drop', it(), Infinity), run('take', it(), once), run('take', it(), 1n), run('drop', it(), NaN),
     run('take', null, 2 ** 53), [1, 2, 3].values().take(2).toArray().join(),
     [1, 2, 3].values().drop(1).toArray().join(), m.name, m.length, ctor, 'prototype' in m].join(' ')
    """
    assert _value(js, code) == (
        "<result>RangeError:return RangeError:return ok:next ok:next ok:valueOf+next TypeError:return"
        " RangeError:return TypeError: 1,2 2,3 take 1 false false</result>"
    )


def test_polyfill_globals_are_not_model_globals() -> None:
    with Interpreter(snapshots=True, timeout=SLOW) as a, Interpreter(snapshots=True, timeout=SLOW) as b:
        a.eval("var stack = typeof DisposableStack; const n = 1")
        assert b.restore(a.snapshot()) == ["stack", "n"]


# ------------------------------------------------------------------------------------------------------ using


USING_LOG = """
var log = [];
function res(n, fail) { return { [Symbol.dispose]() { log.push('d' + n); if (fail) throw new Error('e' + n) } } }
function ares(n) { return { async [Symbol.asyncDispose]() { await null; log.push('a' + n) } } }
"""


def test_using_disposes_at_the_end_of_each_scope_in_reverse_order() -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        code = """
        { using a = res(1), b = res(2); log.push('body') }
        function f() { 'use strict'; using c = res(3); return 'ret' }
        log.push(f());
        for (using x of [res(4), res(5)]) log.push('it');
        outer: for (using y = res(6); ;) { for (;;) break outer }
        class K { static { using z = res(7) } }
        log.join()
        """
        assert _value(js, code) == "<result>body,d2,d1,d3,ret,it,d4,it,d5,d6,d7</result>"


def test_an_error_while_disposing_is_a_suppressed_error_chain() -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        code = """
        try { using a = res(1, true); using b = res(2, true); throw new Error('body') }
        catch (e) { [e.name, e.error.message, e.suppressed.name, e.suppressed.error.message,
          e.suppressed.suppressed.message].join() }
        """
        assert _value(js, code) == "<result>SuppressedError,e1,SuppressedError,e2,body</result>"
        out = js.eval("{ using a = res(3, true) }")
        assert (out.error_type, out.error_message) == ("Error", "e3")
        out = js.eval("{ using bad = {} }")
        assert out.error_type == "TypeError"


def test_await_using_in_async_functions_and_top_level_await_cells() -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        code = """
        async function g() { await using a = ares(1), b = res(2); log.push('g') }
        await g();
        { await using c = ares(3); log.push('top') }
        for await (await using d of [ares(4)]) log.push('it');
        log.join()
        """
        assert _value(js, code) == "<result>g,d2,a1,top,a3,it,a4</result>"


def test_using_keeps_the_cell_value_names_and_line_numbers() -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        assert _value(js, "{ using a = res(1); 'value' }") == "<result>value</result>"
        assert _value(js, "{ await null; using a = res(1); 'async value' }") == "<result>async value</result>"
        js.eval("Function.prototype[Symbol.dispose] = function () {}")
        assert _value(js, "{ using fn = () => 1; fn.name }") == "<result>fn</result>"
        out = js.eval("{\n  using a = res(1);\n  null.x\n}")
        assert out.error_type == "TypeError" and "cell:3" in out.error_stack


@pytest.mark.parametrize(
    "code",
    [
        "using x = res(1)",
        "await using x = ares(1)",
        "switch (1) { case 1: using x = res(1) }",
        "switch (1) { default: using x = res(1) }",
        "for (using x in {a: 1}) {}",
        "if (true) using x = res(1);",
        "{ using x; }",
        "function f() { await using x = ares(1) }",
    ],
)
def test_misplaced_using_declarations_are_syntax_errors(code: str) -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        out = js.eval(code)
        assert out.error_type == "SyntaxError", out.text
        # The interpreter is unharmed.
        assert _value(js, "1 + 1") == "<result>2</result>"


def test_using_in_typescript_cells() -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        code = "{ using a: Disposable = res(1); const n: number = 2; log.push('ts' + n) }\nlog.join()"
        assert _value(js, code) == "<result>ts2,d1</result>"


def test_a_using_binding_named_of_in_a_for_statement_head() -> None:
    # Only for-of forbids `using of`; a for statement's head may bind it, as `let of` may.
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        assert _value(js, "for (using of = res(1);;) { log.push(typeof of); break }\nlog.join()") == (
            "<result>object,d1</result>"
        )
        # In a for-of head `using of` is no declaration: this loop assigns the identifier `using`.
        assert _value(js, "var using, of = [[7]]; for (using of of[0]) ; using") == "<result>7</result>"


def test_using_in_literal_eval_text_runs_in_the_callers_scope() -> None:
    with Interpreter(timeout=SLOW) as js:
        js.eval(USING_LOG)
        # eval returns the text's completion value: a scope that yields nothing leaves the value before it.
        assert _value(js, "[eval('{ using a = res(1); }'), eval('4; { using b = res(2); }')].join() + log.join()") == (
            "<result>,4d1,d2</result>"
        )
        # A direct eval still sees the caller's bindings and the disposal happens inside the call.
        code = """
        function f(n) { const local = n; return eval(`{ using c = res(local); log.push('in' + local); local * 2 }`) }
        [f(3), log.join()].join(' ')
        """
        assert _value(js, code) == "<result>6 d1,d2,in3,d3</result>"
        out = js.eval("function g() {\n  return eval('{\\n  using d = res(4);\\n  null.x\\n}')\n}\ng()")
        assert out.error_type == "TypeError" and "cell:2" in out.error_stack
        # Text built at run time reaches the engine as it is, which has no `using`.
        out = js.eval("const text = '{ using e = res(5); }'; eval(text)")
        assert out.error_type == "SyntaxError"


def test_using_is_still_an_identifier() -> None:
    with Interpreter(timeout=SLOW) as js:
        assert _value(js, "var using = [5]; using[0]") == "<result>5</result>"
        assert _value(js, "{ let using = 1; using + 1 }") == "<result>2</result>"


# -------------------------------------------------------------------------------------------------- snapshots


def test_restored_values_of_polyfilled_classes_and_functions_work() -> None:
    with Interpreter(snapshots=True, timeout=SLOW) as a:
        a.eval("var m = new Map([['k', 1]]); function bump(key) { return m.getOrInsert(key, 0) + 1 }")
        a.eval(
            "var err = new SuppressedError(new Error('d'), new Error('b'), 'both'); var stack = new DisposableStack()"
        )
        payload = a.snapshot()
    with Interpreter(snapshots=True, timeout=SLOW) as b:
        names = b.restore(payload)
        assert names == ["m", "bump", "err", "stack"]
        # A restored function that needs a polyfill finds it, though no cell of this context has named it.
        assert _value(b, "bump('new')") == "<result>1</result>"
        assert _value(
            b, "[err instanceof SuppressedError, err.message, err.error.message, err.suppressed.message]"
        ) == ('<result>[true, "both", "d", "b"]</result>')
        residue = b.eval("stack")
        assert residue.error_type == "ReferenceError"
        assert "type: DisposableStack" in residue.error_message
    with Interpreter(snapshots=True, timeout=SLOW) as c:
        c.eval("var plain = 1")
        p2 = c.snapshot()
    with Interpreter(snapshots=True, timeout=SLOW) as d:
        d.restore(p2)
        # A later cell that names a polyfilled built-in installs it after a restore.
        assert _value(d, "plain + Math.sumPrecise([1, 2])") == "<result>4</result>"
