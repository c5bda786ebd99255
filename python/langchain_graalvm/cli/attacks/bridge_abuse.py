"""Abuse of what crosses the bridge: tampered built-ins, hostile results, host-call payloads."""

from __future__ import annotations

from ._model import BRIDGE_ABUSE, POLLUTED_RENDER, Attack, make

BRIDGE_ABUSE_ATTACKS: tuple[Attack, ...] = (
    make(
        "console-log-replaced",
        BRIDGE_ABUSE,
        "console.log = () => { throw new Error('hijacked') }; 1",
        "value:1",
        "replacing console.log affects only the guest's own calls",
        follow=(("console.log('x')", "error:Error"), ("delete console.log; typeof console.info", "value:function")),
    ),
    make(
        "console-replaced-by-proxy",
        BRIDGE_ABUSE,
        "globalThis.console = new Proxy({}, { get() { while (true) {} } }); 'set'",
        "value:set",
        "a hostile console object only hurts code that calls it",
        follow=POLLUTED_RENDER,
    ),
    make(
        "console-log-loops",
        BRIDGE_ABUSE,
        "console.log = function () { while (true) {} }; console.log('x')",
        "timeout",
        "a replaced console method that loops",
    ),
    make(
        "console-proxy-argument",
        BRIDGE_ABUSE,
        "console.log(new Proxy({}, { ownKeys() { throw new Error('no keys') } })); 2",
        "value:2",
        "console renders a hostile Proxy without failing",
    ),
    make(
        "console-getter-argument",
        BRIDGE_ABUSE,
        "console.log({ get a() { while (true) {} } }); 3",
        "value:3",
        "console never calls guest getters",
    ),
    make(
        "object-proto-getters",
        BRIDGE_ABUSE,
        """
for (const k of ['toString', 'valueOf', 'toJSON', 'constructor', 'length', 'name', 'message', 'stack']) {
  Object.defineProperty(Object.prototype, k, { get() { throw new Error('polluted ' + k) }, configurable: true });
}
'polluted'""",
        "value:polluted",
        "throwing getters on Object.prototype",
        follow=POLLUTED_RENDER,
    ),
    make(
        "object-proto-then",
        BRIDGE_ABUSE,
        "Object.prototype.then = function (resolve) { resolve('hijacked') }; ({a: 1})",
        "value:hijacked",
        "every object becomes a thenable: the result is awaited, as in JavaScript",
        follow=(("delete Object.prototype.then; ({a: 1})", "value:{a: 1}"),),
    ),
    make(
        "object-proto-then-never",
        BRIDGE_ABUSE,
        "Object.prototype.then = function () {}; ({a: 1})",
        "error:Deadlock",
        "a thenable that never settles is a clear error, not a hang",
        follow=(("delete Object.prototype.then; 5", "value:5"),),
    ),
    make(
        "object-proto-then-getter-loops",
        BRIDGE_ABUSE,
        "Object.defineProperty(Object.prototype, 'then', { get() { while (true) {} }, configurable: true }); ({})",
        "timeout",
        "a looping `then` getter is stopped by the timeout",
        follow=(("delete Object.prototype.then; 6", "value:6"),),
    ),
    make(
        "object-proto-then-throws",
        BRIDGE_ABUSE,
        "Object.defineProperty(Object.prototype, 'then', { get() { throw new Error('x') }, configurable: true }); ({b: 2})",
        "value:{b: 2}",
        "a throwing `then` getter is not a thenable",
        follow=(("delete Object.prototype.then; 7", "value:7"),),
    ),
    make(
        "array-proto-pollution",
        BRIDGE_ABUSE,
        """
Array.prototype.push = () => { throw new Error('push') };
Array.prototype.join = () => 'JOINED';
Array.prototype.map = null;
Array.prototype[Symbol.iterator] = function* () { while (true) yield 1 };
Object.defineProperty(Array.prototype, 0, { get() { throw new Error('index') }, configurable: true });
'done'""",
        "value:done",
        "tampered Array.prototype",
        follow=POLLUTED_RENDER,
    ),
    make(
        "array-proto-numeric-getter",
        BRIDGE_ABUSE,
        "Object.defineProperty(Array.prototype, 1, { get() { while (true) {} }, configurable: true }); [0, , 2]",
        "value:[0, <1 empty item>, 2]",
        "holes never read inherited getters",
    ),
    make(
        "object-proto-setter-index",
        BRIDGE_ABUSE,
        "Object.defineProperty(Object.prototype, '0', { set() { while (true) {} }, configurable: true }); [[1], {x: [2]}]",
        "value:[[1], {x: [2]}]",
        "an inherited setter never runs while rendering",
    ),
    make(
        "json-replaced",
        BRIDGE_ABUSE,
        "JSON.stringify = () => { throw new Error('json') }; JSON.parse = null; ({x: [1, 'a']})",
        'value:{x: [1, "a"]}',
        "rendering does not use the guest's JSON",
    ),
    make(
        "json-global-deleted",
        BRIDGE_ABUSE,
        "delete globalThis.JSON; ({s: 'q\"'})",
        'value:{s: "q\\""}',
        "rendering survives a deleted JSON",
    ),
    make(
        "promise-replaced",
        BRIDGE_ABUSE,
        "globalThis.Promise = function () { throw new Error('no promises') }; await 1; 'after'",
        "value:after",
        "await does not use the guest's Promise global",
    ),
    make(
        "promise-then-replaced",
        BRIDGE_ABUSE,
        "Promise.prototype.then = function () { while (true) {} }; await Promise.resolve(4)",
        "timeout",
        "a looping Promise.prototype.then is stopped by the timeout",
    ),
    make(
        "promise-then-throws",
        BRIDGE_ABUSE,
        "Promise.prototype.then = function () { throw new Error('then') }; Promise.resolve(5)",
        "error:Error",
        "a final promise whose then throws is an error, as resolving it calls then",
    ),
    make(
        "promise-resolve-replaced",
        BRIDGE_ABUSE,
        "Promise.resolve = () => { while (true) {} }; (async () => 8)()",
        "value:8",
        "async functions do not call Promise.resolve",
    ),
    make(
        "symbol-to-primitive",
        BRIDGE_ABUSE,
        "({ [Symbol.toPrimitive]() { while (true) {} }, toString() { while (true) {} }, valueOf() { while (true) {} } })",
        "value:{toString: [Function: toString], valueOf: [Function: valueOf], [Symbol(Symbol.toPrimitive)]: [Function: [Symbol.toPrimitive]]}",
        "rendering never converts objects with guest hooks",
    ),
    make(
        "symbol-proto-tampered",
        BRIDGE_ABUSE,
        "Symbol.prototype.toString = () => { while (true) {} }; Object.defineProperty(Symbol.prototype, 'description', { get() { while (true) {} } }); [Symbol('a')]",
        "value:[Symbol(a)]",
        "symbols render with the pristine toString",
    ),
    make(
        "symbol-global-replaced",
        BRIDGE_ABUSE,
        "globalThis.Symbol = null; ({[Symbol]: 1, k: Object.getOwnPropertySymbols({})})",
        "value:{null: 1, k: []}",
        "a replaced Symbol global",
    ),
    make(
        "function-to-string-tampered",
        BRIDGE_ABUSE,
        "Function.prototype.toString = () => { while (true) {} }; (function f() {})",
        "value:[Function: f]",
        "functions render with the pristine toString",
    ),
    make(
        "error-to-string-tampered",
        BRIDGE_ABUSE,
        "Error.prototype.toString = () => { while (true) {} }; new RangeError('r')",
        "value:RangeError: r",
        "errors render with the pristine toString",
    ),
    make(
        "string-proto-tampered",
        BRIDGE_ABUSE,
        """
String.prototype.slice = null; String.prototype.split = null; String.prototype.replace = () => '';
RegExp.prototype.test = () => true; RegExp.prototype.exec = () => null; RegExp.prototype[Symbol.replace] = null;
['a"b', 'c']""",
        'value:["a\\"b", "c"]',
        "keys and strings render with pristine string helpers",
    ),
    make(
        "map-set-tampered",
        BRIDGE_ABUSE,
        """
Map.prototype.entries = null; Map.prototype[Symbol.iterator] = null; Set.prototype.values = () => { while (true) {} };
Object.defineProperty(Map.prototype, 'size', { get() { throw 1 } });
[new Map([[1, 2]]), new Set([3])]""",
        "value:[Map(1) {1 => 2}, Set(1) {3}]",
        "Map and Set render with pristine iterators",
    ),
    make(
        "getter-loops-in-result",
        BRIDGE_ABUSE,
        "({ get a() { while (true) {} }, b: 1 })",
        "value:{a: [Getter], b: 1}",
        "rendering never calls getters",
    ),
    make(
        "getter-throws-in-result",
        BRIDGE_ABUSE,
        "({ get a() { throw new Error('boom') } })",
        "value:{a: [Getter]}",
        "rendering never calls getters",
    ),
    make(
        "proxy-result-throws",
        BRIDGE_ABUSE,
        "new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('gopd') }, ownKeys() { return ['a'] } })",
        "value:{}",
        "a Proxy whose traps throw renders what it can",
    ),
    make(
        "proxy-result-loops",
        BRIDGE_ABUSE,
        "new Proxy({}, { ownKeys() { while (true) {} } })",
        "timeout",
        "a Proxy trap that loops while the result is rendered is stopped by the timeout",
    ),
    make(
        "proxy-prototype-loops",
        BRIDGE_ABUSE,
        "new Proxy({}, { getPrototypeOf() { while (true) {} } })",
        "timeout",
        "a getPrototypeOf trap that loops during rendering",
    ),
    make(
        "proxy-function-result",
        BRIDGE_ABUSE,
        "new Proxy(function named() {}, { get() { throw 1 } })",
        "value:[Function: named]",
        "a function Proxy renders from its target",
    ),
    make(
        "revoked-proxy-result",
        BRIDGE_ABUSE,
        "const r = Proxy.revocable({}, {}); r.revoke(); r.proxy",
        "value:<Revoked Proxy>",
        "a revoked Proxy renders as such instead of failing the render",
    ),
    make("thenable-getter-loops", BRIDGE_ABUSE, "({ get then() { while (true) {} } })", "timeout", "a thenable check that loops"),
    make(
        "thenable-resolves-hostile",
        BRIDGE_ABUSE,
        "({ then(resolve) { resolve(new Proxy({}, { ownKeys() { while (true) {} } })) } })",
        "timeout",
        "a thenable that resolves to a looping Proxy",
    ),
    make(
        "thrown-proxy-loops",
        BRIDGE_ABUSE,
        "throw new Proxy({}, { get() { while (true) {} } })",
        "timeout",
        "an error object whose reads loop while the error is described",
    ),
    make(
        "thrown-name-getter-loops",
        BRIDGE_ABUSE,
        "throw { get name() { while (true) {} } }",
        "timeout",
        "an error whose name getter loops",
    ),
    make(
        "thrown-message-getter-throws",
        BRIDGE_ABUSE,
        "throw { get message() { throw new Error('inner') } }",
        "error:Error",
        "an error whose message getter throws is still described",
    ),
    make("thrown-null", BRIDGE_ABUSE, "throw null", "error:Error", "throwing a non-object"),
    make("thrown-symbol", BRIDGE_ABUSE, "throw Symbol('s')", "error:Error", "throwing a symbol"),
    make(
        "rejected-hostile",
        BRIDGE_ABUSE,
        "await Promise.reject({ get message() { while (true) {} }, name: 'E' })",
        "timeout",
        "a rejection reason whose getter loops",
    ),
    make(
        "error-name-huge",
        BRIDGE_ABUSE,
        "const e = new Error('m'); e.name = 'N'.repeat(5e6); throw e",
        "error:" + "N" * 256,
        "an error name of millions of characters is cut to 256 before it reaches the host",
    ),
    make(
        "frozen-intrinsics",
        BRIDGE_ABUSE,
        "Object.freeze(Object.prototype); Object.freeze(Array.prototype); [1, {a: 2}]",
        "value:[1, {a: 2}]",
        "frozen prototypes do not break rendering",
        follow=POLLUTED_RENDER,
    ),
    make(
        "global-this-replaced",
        BRIDGE_ABUSE,
        "globalThis.globalThis = null; Object = null; Array = null; Reflect = null; [1, {a: 2}]",
        "value:[1, {a: 2}]",
        "rendering uses captured intrinsics only",
    ),
)
