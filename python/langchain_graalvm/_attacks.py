"""A corpus of hostile programs and the outcome each must have: the sandbox's containment, written down as data.

Every :class:`Attack` is one cell of model-written JavaScript (after optional set-up cells) and the outcome the
model must get. :func:`run_attack` runs one through any interpreter that has ``eval(code)`` returning an object
with ``status``, ``value``, ``error_type`` and ``state_reset`` (this package's :class:`~langchain_graalvm.Interpreter`,
or an adapter around another sandbox), then checks that the same interpreter still answers ``1+1`` with ``2``
and runs the case's follow-up checks. The tests under ``tests/attacks/`` run the corpus; a benchmark can run the
same corpus against another sandbox and compare.

Expected outcomes (``Attack.expected``):

- ``value:TEXT``: the eval succeeds and its rendered value is exactly ``TEXT``;
- ``error:TYPE``: the eval ends in a guest error (status ``error``) of type ``TYPE``;
- ``timeout``: the eval is stopped at its time limit (status ``timeout``);
- ``limit``: the eval is stopped at its memory limit (status ``limit``) and the interpreter is reset;
- ``reset``: the eval is stopped (any status but ``ok``) and the interpreter is reset, losing its globals.

An empty ``TEXT`` or ``TYPE`` accepts any value or error type (for outcomes whose text is checked elsewhere).

:data:`FILES_ATTACKS` aims at the agent's-files bridge (``fs`` and imports); it runs with the ``files`` access and
seed files described by :data:`FILES_PREFIXES` and :data:`FILES_SEED`.

:data:`SNAPSHOT_ATTACKS` holds tampered snapshot payloads for :meth:`Interpreter.restore`; each must be refused
with a ``SnapshotError`` that changes nothing, or restore as documented.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from typing import Any, Protocol

HOST_ESCAPE = "host-escape"
BRIDGE_ABUSE = "bridge-abuse"
EXHAUSTION = "exhaustion"
STATE = "state"
TIMING = "timing"

CATEGORIES = (HOST_ESCAPE, BRIDGE_ABUSE, EXHAUSTION, STATE, TIMING)


@dataclasses.dataclass(frozen=True)
class Attack:
    """One hostile cell and the outcome the model must get for it.

    Attributes:
        id: a short unique name.
        category: one of :data:`CATEGORIES`.
        code: the hostile cell.
        expected: the outcome, in the grammar described in the module docstring.
        description: what the attack tries.
        setup: cells run first, in the same interpreter; each must succeed.
        follow: ``(code, expected)`` checks run after the attack and the ``1+1`` check, in the same interpreter.
        timeout: seconds allowed per eval (1 s for cases that must be stopped, 5 s for the rest by default).
        memory_limit: bytes the eval may keep.
    """

    id: str
    category: str
    code: str
    expected: str
    description: str
    setup: tuple[str, ...] = ()
    follow: tuple[tuple[str, str], ...] = ()
    timeout: float = 1.0
    memory_limit: int = 32 * 1024 * 1024


class Outcome(Protocol):
    """The part of an eval outcome the corpus checks."""

    status: str
    value: str | None
    error_type: str | None
    state_reset: bool


def _a(id: str, category: str, code: str, expected: str, description: str, **kw: Any) -> Attack:  # noqa: A002
    # Cases that must be stopped get a short limit; the rest a generous one, since the machine may be slow.
    kw.setdefault("timeout", 1.0 if expected in ("timeout", "reset", "limit") else 5.0)
    return Attack(id=id, category=category, code=code, expected=expected, description=description, **kw)


_H, _B, _X, _S, _T = HOST_ESCAPE, BRIDGE_ABUSE, EXHAUSTION, STATE, TIMING
_POLLUTED_RENDER = (("const m = new Map(); m.set(1, 'x'); [1, {a: 2}, m]", 'value:[1, {a: 2}, Map(1) {1 => "x"}]'),)
"""A follow-up showing that results still render faithfully after the builtins were tampered with."""

ATTACKS: tuple[Attack, ...] = (
    # ---------------------------------------------------------------------------------------- host escape
    _a(
        "java-type",
        _H,
        "Java.type('java.lang.Runtime').getRuntime().exec('id')",
        "error:ReferenceError",
        "Java interop entry point",
    ),
    _a("java-typeof", _H, "typeof Java", "value:undefined", "Java is absent, not just throwing"),
    _a(
        "packages-system-exit",
        _H,
        "Packages.java.lang.System.exit(1)",
        "error:ReferenceError",
        "Nashorn-style package globals",
    ),
    _a("java-package-global", _H, "java.lang.System.getenv()", "error:ReferenceError", "java.* package global"),
    _a(
        "package-globals-absent",
        _H,
        "[typeof javax, typeof com, typeof org, typeof edu, typeof javafx].join()",
        "value:undefined,undefined,undefined,undefined,undefined",
        "other package globals",
    ),
    _a(
        "polyglot-eval",
        _H,
        "Polyglot.eval('python', 'import os; os.system(\"id\")')",
        "error:ReferenceError",
        "polyglot evaluation of another language",
    ),
    _a("polyglot-import", _H, "Polyglot.import('secret')", "error:ReferenceError", "polyglot bindings import"),
    _a("polyglot-export", _H, "Polyglot.export('x', 1)", "error:ReferenceError", "polyglot bindings export"),
    _a("load-file", _H, "load('/etc/passwd')", "error:ReferenceError", "Nashorn/GraalJS load()"),
    _a(
        "load-new-global",
        _H,
        "loadWithNewGlobal({script: '1', name: 'x'})",
        "error:ReferenceError",
        "loadWithNewGlobal",
    ),
    _a("require-fs", _H, "require('fs').readFileSync('/etc/passwd')", "error:ReferenceError", "CommonJS require"),
    _a(
        "require-child-process",
        _H,
        "require('child_process').execSync('id')",
        "error:ReferenceError",
        "process spawning through require",
    ),
    _a("process-env", _H, "process.env.HOME", "error:ReferenceError", "Node process object"),
    _a("dynamic-import-fs", _H, "await import('fs')", "error:Error", "dynamic import of a host module"),
    _a("dynamic-import-file", _H, "await import('/etc/passwd')", "error:Error", "dynamic import of a file path"),
    _a(
        "dynamic-import-data-url",
        _H,
        "await import('data:text/javascript,export default 1')",
        "error:Error",
        "dynamic import of a data: URL",
    ),
    _a("static-import", _H, "import fs from 'fs'", "error:SyntaxError", "static import in a script"),
    _a("graal-builtin", _H, "Graal.versionGraalVM", "error:ReferenceError", "the Graal builtin object"),
    _a("print-quit", _H, "print('x'); quit()", "error:ReferenceError", "shell builtins"),
    _a("read-file", _H, "read('/etc/passwd')", "error:ReferenceError", "shell read()"),
    _a("readbuffer", _H, "readbuffer('/etc/passwd')", "error:ReferenceError", "shell readbuffer()"),
    _a("fetch", _H, "fetch('http://example.com')", "error:ReferenceError", "network access"),
    _a("xhr", _H, "new XMLHttpRequest()", "error:ReferenceError", "network access (XHR)"),
    _a(
        "webassembly",
        _H,
        "WebAssembly.compile(new Uint8Array([0, 97, 115, 109]))",
        "error:ReferenceError",
        "WebAssembly (native code generation)",
    ),
    _a("set-timeout", _H, "setTimeout(() => {}, 0)", "error:ReferenceError", "host timers"),
    _a("worker", _H, "new Worker('x.js')", "error:ReferenceError", "threads"),
    _a(
        "atomics-wait",
        _H,
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)",
        "error:TypeError",
        "blocking the guest thread on a futex",
    ),
    _a(
        "constructor-chain",
        _H,
        "const g = this.constructor.constructor('return this')(); [g === globalThis, typeof g.Java]",
        'value:[true, "undefined"]',
        "constructor chain to the global object",
    ),
    _a(
        "function-ctor-global",
        _H,
        "Function('return this')().Polyglot",
        "value:undefined",
        "Function constructor in sloppy style",
    ),
    _a(
        "async-function-ctor",
        _H,
        "await (async () => {}).constructor('return typeof Java')()",
        "value:undefined",
        "AsyncFunction constructor",
    ),
    _a(
        "generator-function-ctor",
        _H,
        "Object.getPrototypeOf(function* () {}).constructor('yield typeof Packages')().next().value",
        "value:undefined",
        "GeneratorFunction constructor",
    ),
    _a(
        "indirect-eval",
        _H,
        "(0, eval)('typeof Polyglot + typeof load')",
        "value:undefinedundefined",
        "indirect eval in the global scope",
    ),
    _a("direct-eval", _H, "eval('Java.type(\"java.io.File\")')", "error:ReferenceError", "direct eval"),
    _a("with-statement", _H, "with (globalThis) { Java }", "error:SyntaxError", "with is refused (strict mode)"),
    _a(
        "with-in-function-ctor",
        _H,
        "Function('with (this) { return typeof Java }')()",
        "error:SyntaxError",
        "with smuggled through the Function constructor",
    ),
    _a(
        "console-constructor-chain",
        _H,
        "console.log.constructor('return this')() === globalThis",
        "value:true",
        "the console bridge leads only to the guest global",
    ),
    _a(
        "console-bridge-closure",
        _H,
        "[String(console.log).length > 0, typeof emit, typeof consoleLine, typeof clip]",
        'value:[true, "undefined", "undefined", "undefined"]',
        "console's source names the host callback, but its closure stays out of reach",
    ),
    _a(
        "prelude-helpers-hidden",
        _H,
        "[typeof render, typeof emit, typeof describeError, typeof codec].join()",
        "value:undefined,undefined,undefined,undefined",
        "trusted helpers are not globals",
    ),
    _a(
        "global-walk",
        _H,
        """
const seen = new Set(); const found = [];
const bad = /java|polyglot|graal|truffle|host|packages/i;
function walk(o, path, depth) {
  if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o) || depth > 4) return;
  seen.add(o);
  for (const k of Reflect.ownKeys(o)) {
    if (bad.test(String(k))) found.push(path + '.' + String(k));
    let d; try { d = Object.getOwnPropertyDescriptor(o, k) } catch (e) { continue }
    if (d && 'value' in d) walk(d.value, path + '.' + String(k), depth + 1);
    if (d && d.get) walk(d.get, path + '.get ' + String(k), depth + 1);
  }
  walk(Object.getPrototypeOf(o), path + '.__proto__', depth + 1);
}
walk(globalThis, 'globalThis', 0);
found""",
        "value:[]",
        "walk every reachable property and prototype for host objects",
    ),
    _a(
        "global-proto-chain",
        _H,
        "let p = globalThis, n = 0; while ((p = Object.getPrototypeOf(p)) !== null) n++; [n, Object.getPrototypeOf(globalThis) === Object.prototype]",
        "value:[1, true]",
        "nothing foreign in the global object's prototype chain",
    ),
    _a(
        "error-stack-host-frames",
        _H,
        "new Error('x').stack.split('\\n').filter(l => /java|\\.java|truffle|graal/i.test(l)).length",
        "value:0",
        "stack traces show no host frames",
    ),
    _a(
        "prepare-stack-trace",
        _H,
        "Error.prepareStackTrace = (e, frames) => frames.map(f => typeof f.getThis); try { null.x } catch (e) { typeof e.stack }",
        "value:string",
        "V8 structured stack traces (call sites leak `this`)",
    ),
    _a(
        "caller-chain",
        _H,
        "function f() { return f.caller } f()",
        "error:TypeError",
        "caller walking is refused in strict mode",
    ),
    _a(
        "arguments-callee",
        _H,
        "(function () { return arguments.callee })()",
        "error:TypeError",
        "arguments.callee is refused in strict mode",
    ),
    _a(
        "proto-setter-global",
        _H,
        "Object.setPrototypeOf(globalThis, null); typeof globalThis.Java",
        "value:undefined",
        "re-parenting the global object reveals nothing",
    ),
    _a("debugger-statement", _H, "debugger; 7", "value:7", "debugger is a no-op"),
    # ---------------------------------------------------------------------------------------- bridge abuse
    _a(
        "console-log-replaced",
        _B,
        "console.log = () => { throw new Error('hijacked') }; 1",
        "value:1",
        "replacing console.log affects only the guest's own calls",
        follow=(("console.log('x')", "error:Error"), ("delete console.log; typeof console.info", "value:function")),
    ),
    _a(
        "console-replaced-by-proxy",
        _B,
        "globalThis.console = new Proxy({}, { get() { while (true) {} } }); 'set'",
        "value:set",
        "a hostile console object only hurts code that calls it",
        follow=_POLLUTED_RENDER,
    ),
    _a(
        "console-log-loops",
        _B,
        "console.log = function () { while (true) {} }; console.log('x')",
        "timeout",
        "a replaced console method that loops",
    ),
    _a(
        "console-proxy-argument",
        _B,
        "console.log(new Proxy({}, { ownKeys() { throw new Error('no keys') } })); 2",
        "value:2",
        "console renders a hostile Proxy without failing",
    ),
    _a(
        "console-getter-argument",
        _B,
        "console.log({ get a() { while (true) {} } }); 3",
        "value:3",
        "console never calls guest getters",
    ),
    _a(
        "object-proto-getters",
        _B,
        """
for (const k of ['toString', 'valueOf', 'toJSON', 'constructor', 'length', 'name', 'message', 'stack']) {
  Object.defineProperty(Object.prototype, k, { get() { throw new Error('polluted ' + k) }, configurable: true });
}
'polluted'""",
        "value:polluted",
        "throwing getters on Object.prototype",
        follow=_POLLUTED_RENDER,
    ),
    _a(
        "object-proto-then",
        _B,
        "Object.prototype.then = function (resolve) { resolve('hijacked') }; ({a: 1})",
        "value:hijacked",
        "every object becomes a thenable: the result is awaited, as in JavaScript",
        follow=(("delete Object.prototype.then; ({a: 1})", "value:{a: 1}"),),
    ),
    _a(
        "object-proto-then-never",
        _B,
        "Object.prototype.then = function () {}; ({a: 1})",
        "error:Deadlock",
        "a thenable that never settles is a clear error, not a hang",
        follow=(("delete Object.prototype.then; 5", "value:5"),),
    ),
    _a(
        "object-proto-then-getter-loops",
        _B,
        "Object.defineProperty(Object.prototype, 'then', { get() { while (true) {} }, configurable: true }); ({})",
        "timeout",
        "a looping `then` getter is stopped by the timeout",
        follow=(("delete Object.prototype.then; 6", "value:6"),),
    ),
    _a(
        "object-proto-then-throws",
        _B,
        "Object.defineProperty(Object.prototype, 'then', { get() { throw new Error('x') }, configurable: true }); ({b: 2})",
        "value:{b: 2}",
        "a throwing `then` getter is not a thenable",
        follow=(("delete Object.prototype.then; 7", "value:7"),),
    ),
    _a(
        "array-proto-pollution",
        _B,
        """
Array.prototype.push = () => { throw new Error('push') };
Array.prototype.join = () => 'JOINED';
Array.prototype.map = null;
Array.prototype[Symbol.iterator] = function* () { while (true) yield 1 };
Object.defineProperty(Array.prototype, 0, { get() { throw new Error('index') }, configurable: true });
'done'""",
        "value:done",
        "tampered Array.prototype",
        follow=_POLLUTED_RENDER,
    ),
    _a(
        "array-proto-numeric-getter",
        _B,
        "Object.defineProperty(Array.prototype, 1, { get() { while (true) {} }, configurable: true }); [0, , 2]",
        "value:[0, <1 empty item>, 2]",
        "holes never read inherited getters",
    ),
    _a(
        "object-proto-setter-index",
        _B,
        "Object.defineProperty(Object.prototype, '0', { set() { while (true) {} }, configurable: true }); [[1], {x: [2]}]",
        "value:[[1], {x: [2]}]",
        "an inherited setter never runs while rendering",
    ),
    _a(
        "json-replaced",
        _B,
        "JSON.stringify = () => { throw new Error('json') }; JSON.parse = null; ({x: [1, 'a']})",
        'value:{x: [1, "a"]}',
        "rendering does not use the guest's JSON",
    ),
    _a(
        "json-global-deleted",
        _B,
        "delete globalThis.JSON; ({s: 'q\"'})",
        'value:{s: "q\\""}',
        "rendering survives a deleted JSON",
    ),
    _a(
        "promise-replaced",
        _B,
        "globalThis.Promise = function () { throw new Error('no promises') }; await 1; 'after'",
        "value:after",
        "await does not use the guest's Promise global",
    ),
    _a(
        "promise-then-replaced",
        _B,
        "Promise.prototype.then = function () { while (true) {} }; await Promise.resolve(4)",
        "timeout",
        "a looping Promise.prototype.then is stopped by the timeout",
    ),
    _a(
        "promise-then-throws",
        _B,
        "Promise.prototype.then = function () { throw new Error('then') }; Promise.resolve(5)",
        "error:Error",
        "a final promise whose then throws is an error, as resolving it calls then",
    ),
    _a(
        "promise-resolve-replaced",
        _B,
        "Promise.resolve = () => { while (true) {} }; (async () => 8)()",
        "value:8",
        "async functions do not call Promise.resolve",
    ),
    _a(
        "symbol-to-primitive",
        _B,
        "({ [Symbol.toPrimitive]() { while (true) {} }, toString() { while (true) {} }, valueOf() { while (true) {} } })",
        "value:{toString: [Function: toString], valueOf: [Function: valueOf], [Symbol(Symbol.toPrimitive)]: [Function: [Symbol.toPrimitive]]}",
        "rendering never converts objects with guest hooks",
    ),
    _a(
        "symbol-proto-tampered",
        _B,
        "Symbol.prototype.toString = () => { while (true) {} }; Object.defineProperty(Symbol.prototype, 'description', { get() { while (true) {} } }); [Symbol('a')]",
        "value:[Symbol(a)]",
        "symbols render with the pristine toString",
    ),
    _a(
        "symbol-global-replaced",
        _B,
        "globalThis.Symbol = null; ({[Symbol]: 1, k: Object.getOwnPropertySymbols({})})",
        "value:{null: 1, k: []}",
        "a replaced Symbol global",
    ),
    _a(
        "function-to-string-tampered",
        _B,
        "Function.prototype.toString = () => { while (true) {} }; (function f() {})",
        "value:[Function: f]",
        "functions render with the pristine toString",
    ),
    _a(
        "error-to-string-tampered",
        _B,
        "Error.prototype.toString = () => { while (true) {} }; new RangeError('r')",
        "value:RangeError: r",
        "errors render with the pristine toString",
    ),
    _a(
        "string-proto-tampered",
        _B,
        """
String.prototype.slice = null; String.prototype.split = null; String.prototype.replace = () => '';
RegExp.prototype.test = () => true; RegExp.prototype.exec = () => null; RegExp.prototype[Symbol.replace] = null;
['a"b', 'c']""",
        'value:["a\\"b", "c"]',
        "keys and strings render with pristine string helpers",
    ),
    _a(
        "map-set-tampered",
        _B,
        """
Map.prototype.entries = null; Map.prototype[Symbol.iterator] = null; Set.prototype.values = () => { while (true) {} };
Object.defineProperty(Map.prototype, 'size', { get() { throw 1 } });
[new Map([[1, 2]]), new Set([3])]""",
        "value:[Map(1) {1 => 2}, Set(1) {3}]",
        "Map and Set render with pristine iterators",
    ),
    _a(
        "getter-loops-in-result",
        _B,
        "({ get a() { while (true) {} }, b: 1 })",
        "value:{a: [Getter], b: 1}",
        "rendering never calls getters",
    ),
    _a(
        "getter-throws-in-result",
        _B,
        "({ get a() { throw new Error('boom') } })",
        "value:{a: [Getter]}",
        "rendering never calls getters",
    ),
    _a(
        "proxy-result-throws",
        _B,
        "new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('gopd') }, ownKeys() { return ['a'] } })",
        "value:{}",
        "a Proxy whose traps throw renders what it can",
    ),
    _a(
        "proxy-result-loops",
        _B,
        "new Proxy({}, { ownKeys() { while (true) {} } })",
        "timeout",
        "a Proxy trap that loops while the result is rendered is stopped by the timeout",
    ),
    _a(
        "proxy-prototype-loops",
        _B,
        "new Proxy({}, { getPrototypeOf() { while (true) {} } })",
        "timeout",
        "a getPrototypeOf trap that loops during rendering",
    ),
    _a(
        "proxy-function-result",
        _B,
        "new Proxy(function named() {}, { get() { throw 1 } })",
        "value:[Function: named]",
        "a function Proxy renders from its target",
    ),
    _a(
        "revoked-proxy-result",
        _B,
        "const r = Proxy.revocable({}, {}); r.revoke(); r.proxy",
        "value:<Revoked Proxy>",
        "a revoked Proxy renders as such instead of failing the render",
    ),
    _a("thenable-getter-loops", _B, "({ get then() { while (true) {} } })", "timeout", "a thenable check that loops"),
    _a(
        "thenable-resolves-hostile",
        _B,
        "({ then(resolve) { resolve(new Proxy({}, { ownKeys() { while (true) {} } })) } })",
        "timeout",
        "a thenable that resolves to a looping Proxy",
    ),
    _a(
        "thrown-proxy-loops",
        _B,
        "throw new Proxy({}, { get() { while (true) {} } })",
        "timeout",
        "an error object whose reads loop while the error is described",
    ),
    _a(
        "thrown-name-getter-loops",
        _B,
        "throw { get name() { while (true) {} } }",
        "timeout",
        "an error whose name getter loops",
    ),
    _a(
        "thrown-message-getter-throws",
        _B,
        "throw { get message() { throw new Error('inner') } }",
        "error:Error",
        "an error whose message getter throws is still described",
    ),
    _a("thrown-null", _B, "throw null", "error:Error", "throwing a non-object"),
    _a("thrown-symbol", _B, "throw Symbol('s')", "error:Error", "throwing a symbol"),
    _a(
        "rejected-hostile",
        _B,
        "await Promise.reject({ get message() { while (true) {} }, name: 'E' })",
        "timeout",
        "a rejection reason whose getter loops",
    ),
    _a(
        "error-name-huge",
        _B,
        "const e = new Error('m'); e.name = 'N'.repeat(5e6); throw e",
        "error:" + "N" * 256,
        "an error name of millions of characters is cut to 256 before it reaches the host",
    ),
    _a(
        "frozen-intrinsics",
        _B,
        "Object.freeze(Object.prototype); Object.freeze(Array.prototype); [1, {a: 2}]",
        "value:[1, {a: 2}]",
        "frozen prototypes do not break rendering",
        follow=_POLLUTED_RENDER,
    ),
    _a(
        "global-this-replaced",
        _B,
        "globalThis.globalThis = null; Object = null; Array = null; Reflect = null; [1, {a: 2}]",
        "value:[1, {a: 2}]",
        "rendering uses captured intrinsics only",
    ),
    # ---------------------------------------------------------------------------------------- exhaustion
    _a(
        "loop-plain",
        _X,
        "while (true) {}",
        "timeout",
        "plain infinite loop",
        setup=("var kept = 'yes'",),
        follow=(("kept", "value:yes"),),
    ),
    _a(
        "loop-in-finally",
        _X,
        "try { while (true) {} } finally { while (true) {} }",
        "timeout",
        "a loop in finally that runs after the interrupt",
    ),
    _a(
        "loop-catch-all",
        _X,
        "while (true) { try { while (true) {} } catch (e) {} }",
        "timeout",
        "a catch-all try that swallows the interrupt",
    ),
    _a(
        "loop-finally-continue",
        _X,
        "for (;;) { try { for (;;) {} } catch { continue } finally { continue } }",
        "timeout",
        "continue from finally",
    ),
    _a(
        "loop-regex-backtracking",
        _X,
        "/(a*)*\\1b/.test('a'.repeat(40))",
        "timeout",
        "catastrophic backtracking (backreference forces the backtracker)",
    ),
    _a("regex-linear", _X, "/(a+)+b/.test('a'.repeat(5000))", "value:false", "classic ReDoS input runs in linear time"),
    _a("loop-json-reviver", _X, "JSON.parse('[1]', () => { while (true) {} })", "timeout", "a JSON.parse reviver"),
    _a(
        "loop-to-string-render", _X, "({ toString() { while (true) {} } }) + ''", "timeout", "toString while converting"
    ),
    _a("loop-after-await", _X, "await null; while (true) {}", "timeout", "a loop in a microtask after await"),
    _a("loop-in-sort-comparator", _X, "[3, 1, 2].sort(() => { while (true) {} })", "timeout", "a sort comparator"),
    _a(
        "loop-in-getter-via-spread",
        _X,
        "({ ...{ get a() { while (true) {} } } })",
        "timeout",
        "a getter run by the guest's own spread",
    ),
    _a(
        "loop-generator-spread",
        _X,
        "[...(function* () { while (true) yield 1 })()]",
        "limit",
        "spreading an infinite generator",
        timeout=30.0,
    ),
    _a(
        "microtask-flood",
        _X,
        "function f() { Promise.resolve().then(f) }; f(); 1",
        "timeout",
        "a promise chain that never drains",
    ),
    _a(
        "queue-microtask-flood",
        _X,
        "function g() { queueMicrotask(g) }; g(); 1",
        "timeout",
        "queueMicrotask re-queueing forever",
    ),
    _a(
        "promise-all-flood",
        _X,
        "await Promise.all(Array.from({length: 2e4}, (_, i) => Promise.resolve(i))).then(a => a.length)",
        "value:20000",
        "a large but finite Promise.all settles",
    ),
    _a("pending-forever", _X, "await new Promise(() => {})", "error:Deadlock", "awaiting a promise nobody resolves"),
    _a(
        "async-recursion",
        _X,
        "async function r() { await r() }; await r()",
        "error:RangeError",
        "unbounded async recursion",
        timeout=30.0,  # unwinding thousands of frames is slow on a busy machine; speed is not the point
    ),
    _a(
        "deep-recursion",
        _X,
        "function r(n) { return r(n + 1) + 1 }; r(0)",
        "error:RangeError",
        "unbounded recursion",
        setup=("var kept = 3",),
        follow=(("kept", "value:3"),),
        timeout=30.0,  # unwinding thousands of frames is slow on a busy machine; speed is not the point
    ),
    _a(
        "recursion-in-getter",
        _X,
        "const o = { get x() { return this.x } }; o.x",
        "error:RangeError",
        "a getter that recurses",
        timeout=30.0,  # unwinding thousands of frames is slow on a busy machine; speed is not the point
    ),
    _a(
        "recursion-in-to-string",
        _X,
        "const o = { toString() { return `${o}` } }; `${o}`",
        "error:RangeError",
        "toString that recurses",
        timeout=30.0,  # unwinding thousands of frames is slow on a busy machine; speed is not the point
    ),
    _a(
        "deep-json",
        _X,
        "JSON.parse('['.repeat(200000) + ']'.repeat(200000)) && 'parsed'",
        "error:RangeError",
        "deeply nested JSON",
        timeout=30.0,  # unwinding thousands of frames is slow on a busy machine; speed is not the point
    ),
    _a(
        "memory-arrays",
        _X,
        "const a = []; while (true) a.push(new Array(1000).fill(1.5))",
        "limit",
        "an array of arrays without bound",
        timeout=30.0,
    ),
    _a(
        "memory-strings",
        _X,
        "const s = []; let i = 0; while (true) s.push('x'.repeat(100) + i++)",
        "limit",
        "distinct strings without bound",
        timeout=30.0,
    ),
    _a(
        "memory-maps",
        _X,
        "const m = new Map(); let i = 0; while (true) m.set(i++, {i, s: 'v' + i})",
        "limit",
        "a Map without bound",
        timeout=30.0,
    ),
    _a(
        "memory-typed-arrays",
        _X,
        "const t = []; while (true) t.push(new Float64Array(1 << 20))",
        "limit",
        "typed arrays without bound",
        timeout=30.0,
    ),
    _a(
        "memory-closures",
        _X,
        "let f = () => 0; while (true) { const g = f; f = () => g() + 1 }",
        "limit",
        "a chain of closures without bound",
        timeout=30.0,
    ),
    _a("string-too-long", _X, "'x'.repeat(2 ** 30)", "error:RangeError", "a string over the engine's length limit"),
    _a("pad-too-long", _X, "'a'.padStart(2 ** 30)", "error:RangeError", "padStart over the length limit"),
    _a("array-too-long", _X, "new Array(2 ** 32)", "error:RangeError", "an array over the length limit"),
    _a(
        "typed-array-too-long",
        _X,
        "new Uint8Array(2 ** 31 - 1).length",
        "error:RangeError",
        "a typed array over the length limit",
    ),
    _a(
        "huge-result-string",
        _X,
        "'x'.repeat(2 ** 26)",
        "value:",
        "a 64-million-character result crosses to the host only as a bounded prefix",
        timeout=10.0,
        memory_limit=256 * 1024 * 1024,
    ),
    _a(
        "huge-thrown-string",
        _X,
        "throw 'w'.repeat(2 ** 26)",
        "error:Error",
        "a 64-million-character thrown string is cut before it reaches the host",
        timeout=10.0,
        memory_limit=256 * 1024 * 1024,
    ),
    _a(
        "huge-console-line",
        _X,
        "console.log('y'.repeat(2 ** 26)); 'printed'",
        "value:printed",
        "a 64-million-character console line crosses only as a prefix and a count",
        timeout=10.0,
        memory_limit=256 * 1024 * 1024,
    ),
    _a(
        "console-flood",
        _X,
        "for (let i = 0; i < 200000; i++) console.log('line ' + i); 'done'",
        "value:done",
        "a flood of console lines is kept up to the limit and counted",
        timeout=10.0,
        # The flood's garbage is short-lived; the JVM-wide memory measure must not be what this case tests.
        memory_limit=256 * 1024 * 1024,
    ),
    _a(
        "huge-render",
        _X,
        "Array.from({length: 1e6}, (_, i) => ({i}))",
        "value:",
        "a huge structure renders within a budget",
        timeout=10.0,
        memory_limit=256 * 1024 * 1024,
    ),
    _a(
        "circular-render",
        _X,
        "const a = [1]; a.push(a); const o = {a}; o.o = o; [a, o]",
        "value:[[1, [Circular]], {a: [1, [Circular]], o: [Circular]}]",
        "cycles render as [Circular]",
    ),
    _a(
        "deep-render",
        _X,
        "let d = {}; const root = d; for (let i = 0; i < 1e5; i++) { d.n = {}; d = d.n }; root",
        "value:",
        "a 100,000-deep object renders without overflowing",
        timeout=5.0,
    ),
    _a("bigint-pow-huge", _X, "(2n ** (2n ** 40n)) > 0n", "error:RangeError", "a BigInt too large to allocate"),
    _a(
        "sparse-array-length",
        _X,
        "const a = []; a[2 ** 32 - 2] = 1; a.length",
        "value:4294967295",
        "a sparse array with a huge length is cheap",
    ),
    _a(
        "sparse-array-render",
        _X,
        "const a = []; a[2 ** 32 - 2] = 1; a",
        "timeout",
        "rendering a sparse array walks its holes until the timeout",
    ),
    # ---------------------------------------------------------------------------------------- state
    _a(
        "builtin-redefinition-kept",
        _S,
        "Math.max = () => 42; Math.max(1, 2)",
        "value:42",
        "the model may change its own builtins; the host does not depend on them",
        follow=(("Math.max(1, 2)", "value:42"), ("[1, 2]", "value:[1, 2]")),
    ),
    _a(
        "global-clobber",
        _S,
        "for (const k of Object.getOwnPropertyNames(globalThis)) { try { delete globalThis[k] } catch (e) {} }; 'gone'",
        "value:gone",
        "deleting every deletable global leaves the interpreter usable",
        follow=(("[1, 'a']", 'value:[1, "a"]'),),
    ),
    _a(
        "define-undeletable-global",
        _S,
        "Object.defineProperty(globalThis, 'x', { value: 1, configurable: false }); Object.freeze(globalThis); x",
        "value:1",
        "a frozen global object",
        follow=(("var later = 2", "error:TypeError"), ("x + 1", "value:2")),
    ),
    _a(
        "timeout-keeps-globals",
        _S,
        "kept = 'changed'; while (true) {}",
        "timeout",
        "a timeout keeps globals, including changes made before it",
        setup=("var kept = 'original'",),
        follow=(("kept", "value:changed"),),
    ),
    _a(
        "memory-limit-resets",
        _S,
        "var hog = []; while (true) hog.push(new Array(1000).fill(0))",
        "limit",
        "a memory stop resets the interpreter",
        timeout=30.0,
        setup=("var kept = 1",),
        follow=(("typeof kept", "value:undefined"),),
    ),
    _a(
        "syntax-error-keeps-state",
        _S,
        "var broken = ;",
        "error:SyntaxError",
        "a syntax error changes nothing",
        setup=("var kept = 'k'",),
        follow=(("kept", "value:k"),),
    ),
    _a(
        "half-run-cell",
        _S,
        "var first = 1; null.boom; var second = 2",
        "error:TypeError",
        "a cell that throws half-way keeps what ran",
        follow=(("[first, typeof second]", 'value:[1, "undefined"]'),),
    ),
    # ---------------------------------------------------------------------------------------- timing
    _a(
        "date-now-frozen",
        _T,
        "[Date.now(), new Date().getTime(), new Date().toISOString()]",
        'value:[0, 0, "1970-01-01T00:00:00.000Z"]',
        "the host clock is not visible",
    ),
    _a(
        "date-now-descriptor",
        _T,
        "Object.getOwnPropertyDescriptor(Date, 'now').value()",
        "value:0",
        "the original Date.now read through its property descriptor",
    ),
    _a(
        "date-now-reflect",
        _T,
        "Reflect.get(Object.getOwnPropertyDescriptors(Date).now, 'value')()",
        "value:0",
        "the original Date.now read through getOwnPropertyDescriptors",
    ),
    _a(
        "date-constructor-chain",
        _T,
        "[new (Object.getPrototypeOf(new Date()).constructor)().getTime(), Reflect.construct(Date, []).getTime(), (class extends Date {}).now()]",
        "value:[0, 0, 0]",
        "the Date constructor reached through prototypes and subclasses",
    ),
    _a("date-call", _T, "Date()", "value:Thu Jan 01 1970 00:00:00 GMT+0000 (GMT)", "Date called as a function"),
    _a(
        "intl-format-now",
        _T,
        "new Intl.DateTimeFormat('en-US', {timeZone: 'UTC'}).format()",
        "value:1/1/1970",
        "Intl.DateTimeFormat formats the current time when given no date",
    ),
    _a(
        "intl-format-to-parts-now",
        _T,
        "new Intl.DateTimeFormat('en-US', {timeZone: 'UTC', year: 'numeric'}).formatToParts().map(p => p.value).join('')",
        "value:1970",
        "formatToParts with no date",
    ),
    _a(
        "intl-format-stays-usable",
        _T,
        "const f = new Intl.DateTimeFormat('en-US', {timeZone: 'UTC'}); [f.format === f.format, ['2024-05-06'].map(d => f.format(new Date(d)))[0]]",
        'value:[true, "5/6/2024"]',
        "the frozen format is cached per formatter and formats given dates as usual",
    ),
    _a("performance-now", _T, "performance.now()", "error:ReferenceError", "high-resolution timer"),
    _a("process-hrtime", _T, "process.hrtime.bigint()", "error:ReferenceError", "Node high-resolution timer"),
    _a("temporal-now", _T, "typeof Temporal", "value:undefined", "Temporal.Now"),
    _a(
        "shared-array-buffer-counter",
        _T,
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(16)), 0, 0, 10)",
        "error:TypeError",
        "timed Atomics.wait as a clock",
    ),
)


def _check_expected(expected: str, outcome: Outcome) -> str | None:
    kind, _, text = expected.partition(":")
    got = f"status={outcome.status} type={outcome.error_type} reset={outcome.state_reset} value={outcome.value!r:.200}"
    if kind == "value":
        if outcome.status != "ok" or (text and outcome.value != text):
            return f"expected value {text!r}, got {got}"
        return None
    if kind == "error":
        if outcome.status != "error" or (text and outcome.error_type != text):
            return f"expected error {text or '(any type)'}, got {got}"
        return None
    if kind == "timeout":
        return None if outcome.status == "timeout" else f"expected a timeout, got {got}"
    if kind == "limit":
        return None if outcome.status == "limit" and outcome.state_reset else f"expected a memory limit, got {got}"
    if kind == "reset":
        return None if outcome.status != "ok" and outcome.state_reset else f"expected a reset, got {got}"
    raise ValueError(f"unknown expected outcome {expected!r}")


def run_attack(attack: Attack, evaluate: Callable[[str], Outcome]) -> list[str]:
    """Runs ``attack`` through ``evaluate`` (one interpreter's eval); returns the failed checks (empty: contained)."""
    failures: list[str] = []
    for cell in attack.setup:
        out = evaluate(cell)
        if out.status != "ok":
            return [f"setup cell failed: {cell!r}: status={out.status} type={out.error_type}"]
    outcome = evaluate(attack.code)
    problem = _check_expected(attack.expected, outcome)
    if problem:
        failures.append(problem)
    after = evaluate("1+1")
    if after.status != "ok" or after.value != "2":
        failures.append(f"1+1 afterwards gave status={after.status} value={after.value!r} type={after.error_type}")
    for code, expected in attack.follow:
        problem = _check_expected(expected, evaluate(code))
        if problem:
            failures.append(f"follow-up {code!r}: {problem}")
    return failures


@dataclasses.dataclass(frozen=True)
class EnvelopeOutcome:
    """An outcome read back from the envelope text a model sees (for sandboxes reached only through a tool)."""

    status: str
    value: str | None
    error_type: str | None
    state_reset: bool
    text: str


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def outcome_from_envelope(text: str) -> EnvelopeOutcome:
    """Reads status, value, error type and reset from an eval tool's envelope (``<result>``/``<error>``)."""
    body = text.rsplit("</stdout>\n", 1)[-1]
    match = re.fullmatch(r'<error type="([^"]*)">(.*)</error>', body, re.S)
    if match:
        etype = _unescape(match.group(1))
        status = {"Timeout": "timeout", "OutOfMemory": "limit"}.get(etype, "error")
        reset = "all globals from earlier calls are gone" in match.group(2)
        return EnvelopeOutcome(status, None, etype, reset, text)
    match = re.fullmatch(r"<result>(.*)</result>", body, re.S)
    if match:
        return EnvelopeOutcome("ok", _unescape(match.group(1)), None, False, text)
    return EnvelopeOutcome("invalid", None, None, False, text)


# ------------------------------------------------------------------------------------------------ snapshots


@dataclasses.dataclass(frozen=True)
class SnapshotAttack:
    """A snapshot payload, taken from ``setup`` and then altered by ``tamper``, given to ``restore``.

    Attributes:
        id: a short unique name.
        description: what the attack tries.
        setup: cells run in the interpreter whose snapshot is taken.
        tamper: turns the genuine payload into the hostile one.
        refused: whether :meth:`Interpreter.restore` must refuse it with a ``SnapshotError``.
        follow: ``(code, expected)`` checks run after the restore (or its refusal), in the same interpreter.
    """

    id: str
    description: str
    tamper: Callable[[bytes], bytes]
    refused: bool
    setup: tuple[str, ...] = ("var kept = {n: 1, list: [1, 2, 3]}; function twice(x) { return 2 * x }",)
    follow: tuple[tuple[str, str], ...] = ()


def _flip_first(payload: bytes) -> bytes:
    # The JSON's opening brace. A bit flipped inside a string can leave valid JSON: catching those is the job of
    # the middleware's record checksum and HMAC, tested against its stored records.
    return bytes([payload[0] ^ 0x01]) + payload[1:]


def _with_json(change: Callable[[Any], Any]) -> Callable[[bytes], bytes]:
    def tamper(payload: bytes) -> bytes:
        return json.dumps(change(json.loads(payload))).encode()

    return tamper


def _function_entry(source: str) -> Callable[[bytes], bytes]:
    """A payload whose only global ``f`` is a function entry with the given source."""
    return lambda _: json.dumps({"v": 1, "g": ["f", [0]], "h": [["F", source, 0, "f", 0, "f"]], "s": []}).encode()


_UNTOUCHED = (("typeof kept", "value:undefined"), ("typeof twice", "value:undefined"))

SNAPSHOT_ATTACKS: tuple[SnapshotAttack, ...] = (
    SnapshotAttack(
        "genuine",
        "the untouched payload restores",
        lambda p: p,
        refused=False,
        follow=(("twice(kept.list.length)", "value:6"),),
    ),
    SnapshotAttack("flipped-byte", "one bit flipped in the structure", _flip_first, refused=True, follow=_UNTOUCHED),
    SnapshotAttack("truncated", "cut to half its length", lambda p: p[: len(p) // 2], refused=True, follow=_UNTOUCHED),
    SnapshotAttack("empty", "an empty payload", lambda _p: b"", refused=True, follow=_UNTOUCHED),
    SnapshotAttack("not-utf8", "bytes that are not UTF-8", lambda p: b"\xff\xfe" + p, refused=True, follow=_UNTOUCHED),
    SnapshotAttack("not-json", "text that is not JSON", lambda _p: b"while(true){}", refused=True, follow=_UNTOUCHED),
    SnapshotAttack(
        "future-version",
        "a payload of an unknown version",
        _with_json(lambda d: {**d, "v": 99}),
        refused=True,
        follow=_UNTOUCHED,
    ),
    SnapshotAttack(
        "dangling-reference",
        "a reference to an object that is not in the table",
        _with_json(lambda d: {**d, "g": ["x", [999]]}),
        refused=True,
        follow=_UNTOUCHED,
    ),
    # A source that is a call passes the codec's syntax check and runs when it is re-created, as class static
    # blocks do: guest code, inside the sandbox and its limits. Only a signed snapshot proves who wrote it.
    SnapshotAttack(
        "function-call-injection",
        "a function entry whose source is a call, not a function",
        _function_entry("(function () { globalThis.pwned = typeof Java })()"),
        refused=False,
        follow=(("f", "error:ReferenceError"), ("pwned", "value:undefined")),
    ),
    SnapshotAttack(
        "function-comma-injection",
        "a function source followed by a statement",
        _function_entry("function () {}, globalThis.pwned = 1"),
        refused=False,
        follow=(("typeof pwned", "value:undefined"), ("f", "error:ReferenceError")),
    ),
    SnapshotAttack(
        "class-static-loop",
        "a class whose static block loops when it is re-created",
        _function_entry("(class { static { while (true) {} } })"),
        refused=True,
    ),
    SnapshotAttack(
        "proto-key",
        "a shape that names __proto__ and constructor",
        _with_json(lambda _d: {"v": 1, "g": ["o", [0]], "h": [["o", 0, 1, 2]], "s": [[0, "__proto__", "constructor"]]}),
        refused=False,
        follow=(("({}).polluted", "value:undefined"),),
    ),
    SnapshotAttack(
        "oversized-claim",
        "a huge typed array claimed by a short entry",
        _with_json(
            lambda _d: {"v": 1, "g": ["t", [1]], "h": [["B", "", -1], ["T", "Uint8Array", 0, 0, 2**40]], "s": []}
        ),
        refused=True,
        follow=(("typeof t", "value:undefined"),),
    ),
)


# ------------------------------------------------------------------------------------------------ the fs bridge

FILES_PREFIXES = ("/data/",)
"""The corpus of :data:`FILES_ATTACKS` runs with ``files=FilesAccess("read", prefixes=FILES_PREFIXES)``."""

FILES_SEED = {"/data/seed.txt": "seed", "/secret.txt": "top secret"}
"""The agent's files each :data:`FILES_ATTACKS` case starts with (``/secret.txt`` lies outside the prefixes)."""

_B = BRIDGE_ABUSE
_H = HOST_ESCAPE
_REFUSED = ".then((v) => String(v).includes('secret') ? 'LEAKED' : 'read', () => 'refused')"


def _read(path: str) -> str:
    return f"await fs.readFile({json.dumps(path)}, 'utf8'){_REFUSED}"


FILES_ATTACKS: tuple[Attack, ...] = (
    _a("fs-etc-passwd", _H, _read("/etc/passwd"), "value:refused", "a host file by its absolute path"),
    _a("fs-outside-prefix", _B, _read("/secret.txt"), "value:refused", "an agent file outside the allowed prefixes"),
    _a("fs-dot-dot", _B, _read("/data/../secret.txt"), "value:refused", "`..` out of an allowed prefix"),
    _a("fs-dot-dot-deep", _H, _read("/data/../../../../etc/passwd"), "value:refused", "`..` past the root"),
    _a("fs-double-slash", _B, _read("//secret.txt"), "value:refused", "a leading `//` normalised past the prefix"),
    _a("fs-prefix-sibling", _B, _read("/data-evil/../secret.txt"), "value:refused", "a sibling of the prefix"),
    _a("fs-encoded-dot-dot", _B, _read("/data/%2e%2e/secret.txt"), "value:refused", "percent-encoded `..`"),
    _a("fs-backslash", _B, _read("/data/..\\secret.txt"), "value:refused", "a backslash as a separator"),
    _a("fs-nul", _B, _read("/data/seed.txt\u0000/../../secret.txt"), "value:refused", "a NUL byte in the path"),
    _a("fs-relative", _B, _read("../secret.txt"), "value:refused", "a relative path"),
    _a("fs-file-url", _H, _read("file:///etc/passwd"), "value:refused", "a file: URL as the path"),
    _a(
        "fs-path-object",
        _B,
        "await fs.readFile({toString() { return '/secret.txt'; }}, 'utf8').then(() => 'read', (e) => e.name)",
        "value:TypeError",
        "an object whose toString names a forbidden path",
    ),
    _a(
        "fs-write-in-read-mode",
        _B,
        "await fs.writeFile('/data/seed.txt', 'owned').then(() => 'written', (e) => e.code)",
        "value:EACCES",
        "a write in read mode",
        follow=((_read("/data/seed.txt").replace(_REFUSED, ""), "value:seed"),),
    ),
    _a(
        "fs-rm-root",
        _B,
        "await fs.rm('/', {recursive: true}).then(() => 'removed', (e) => e.code)",
        "value:EACCES",
        "removing every file",
        follow=(("await fs.readdir('/data')", 'value:["seed.txt"]'),),
    ),
    _a(
        "fs-glob-escape",
        _B,
        "(await fs.glob('**/*').catch(() => [])).concat(await fs.glob('../**/*').catch(() => []))"
        ".filter((p) => !p.startsWith('/data/')).length",
        "value:0",
        "a glob that reaches past the prefixes",
    ),
    _a(
        "fs-glob-cwd-root",
        _B,
        "await fs.glob('*', {cwd: '/'}).then((r) => r.join(','), (e) => e.code)",
        "value:EACCES",
        "a glob rooted above the prefixes",
    ),
    _a(
        "fs-frozen",
        _B,
        "fs.readFile = async () => 'fake'",
        "error:TypeError",
        "replacing an fs function",
        follow=(("typeof fs.readFile + typeof fs.promises.readFile", "value:functionfunction"),),
    ),
    _a(
        "fs-deleted-and-restored",
        _B,
        "delete globalThis.fs; typeof fs",
        "value:undefined",
        "deleting the fs global, which the next eval gets back",
        follow=(("await fs.readFile('/data/seed.txt', 'utf8')", "value:seed"),),
    ),
    _a(
        "fs-prototype-pollution",
        _B,
        "Object.defineProperty(Object.prototype, 'path', {get() { return '/secret.txt'; }, configurable: true});"
        f" const r = {_read('/data/nope.txt')}; delete Object.prototype.path; r",
        "value:refused",
        "a getter on Object.prototype that would rename the path sent to the host",
    ),
    _a(
        "fs-promise-then-hijack",
        _B,
        "Promise.prototype.then = function () { return 'hijacked'; }; typeof fs.stat('/data/seed.txt')",
        "value:object",
        "a replaced Promise.prototype.then while fs.stat wraps its result",
    ),
    _a(
        "fs-huge-write",
        EXHAUSTION,
        "await fs.writeFile('/data/big.txt', 'x'.repeat(9 * 2 ** 20)).then(() => 'written', (e) => e.name)",
        "value:RangeError",
        "a write larger than one host call may carry",
    ),
    _a(
        "import-host-file",
        _H,
        "await import('/etc/passwd').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a host file as an ES module",
    ),
    _a(
        "import-file-url",
        _H,
        "await import('file:///etc/passwd').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a file: URL as a module specifier",
    ),
    _a(
        "import-outside-prefix",
        _B,
        "await import('/secret.txt').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "an agent file outside the prefixes as a module",
    ),
    _a(
        "import-relative-escape",
        _B,
        "await import('./data/../../secret.txt').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a relative specifier climbing out",
    ),
    _a(
        "import-eval-prefix",
        _B,
        "await import('/.eval-1/secret.txt').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "the module cache's internal path prefix",
    ),
    _a(
        "import-http",
        _H,
        "await import('http://127.0.0.1:9/x.js').then(() => 'loaded', () => 'refused')",
        "value:refused",
        "a module over the network",
    ),
)
