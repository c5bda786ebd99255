"""Escapes to the host: Java, polyglot, the file system, the network, processes."""

from __future__ import annotations

from ._model import HOST_ESCAPE, Attack, make

HOST_ESCAPE_ATTACKS: tuple[Attack, ...] = (
    make(
        "java-type",
        HOST_ESCAPE,
        "Java.type('java.lang.Runtime').getRuntime().exec('id')",
        "error:ReferenceError",
        "Java interop entry point",
    ),
    make("java-typeof", HOST_ESCAPE, "typeof Java", "value:undefined", "Java is absent, not just throwing"),
    make(
        "packages-system-exit",
        HOST_ESCAPE,
        "Packages.java.lang.System.exit(1)",
        "error:ReferenceError",
        "Nashorn-style package globals",
    ),
    make("java-package-global", HOST_ESCAPE, "java.lang.System.getenv()", "error:ReferenceError", "java.* package global"),
    make(
        "package-globals-absent",
        HOST_ESCAPE,
        "[typeof javax, typeof com, typeof org, typeof edu, typeof javafx].join()",
        "value:undefined,undefined,undefined,undefined,undefined",
        "other package globals",
    ),
    make(
        "polyglot-eval",
        HOST_ESCAPE,
        "Polyglot.eval('python', 'import os; os.system(\"id\")')",
        "error:ReferenceError",
        "polyglot evaluation of another language",
    ),
    make("polyglot-import", HOST_ESCAPE, "Polyglot.import('secret')", "error:ReferenceError", "polyglot bindings import"),
    make("polyglot-export", HOST_ESCAPE, "Polyglot.export('x', 1)", "error:ReferenceError", "polyglot bindings export"),
    make("load-file", HOST_ESCAPE, "load('/etc/passwd')", "error:ReferenceError", "Nashorn/GraalJS load()"),
    make(
        "load-new-global",
        HOST_ESCAPE,
        "loadWithNewGlobal({script: '1', name: 'x'})",
        "error:ReferenceError",
        "loadWithNewGlobal",
    ),
    make("require-fs", HOST_ESCAPE, "require('fs').readFileSync('/etc/passwd')", "error:ReferenceError", "CommonJS require"),
    make(
        "require-child-process",
        HOST_ESCAPE,
        "require('child_process').execSync('id')",
        "error:ReferenceError",
        "process spawning through require",
    ),
    make("process-env", HOST_ESCAPE, "process.env.HOME", "error:ReferenceError", "Node process object"),
    make("dynamic-import-fs", HOST_ESCAPE, "await import('fs')", "error:Error", "dynamic import of a host module"),
    make("dynamic-import-file", HOST_ESCAPE, "await import('/etc/passwd')", "error:Error", "dynamic import of a file path"),
    make(
        "dynamic-import-data-url",
        HOST_ESCAPE,
        "await import('data:text/javascript,export default 1')",
        "error:Error",
        "dynamic import of a data: URL",
    ),
    make("static-import", HOST_ESCAPE, "import fs from 'fs'", "error:SyntaxError", "static import in a script"),
    make("graal-builtin", HOST_ESCAPE, "Graal.versionGraalVM", "error:ReferenceError", "the Graal builtin object"),
    make("print-quit", HOST_ESCAPE, "print('x'); quit()", "error:ReferenceError", "shell builtins"),
    make("read-file", HOST_ESCAPE, "read('/etc/passwd')", "error:ReferenceError", "shell read()"),
    make("readbuffer", HOST_ESCAPE, "readbuffer('/etc/passwd')", "error:ReferenceError", "shell readbuffer()"),
    make("fetch", HOST_ESCAPE, "fetch('http://example.com')", "error:ReferenceError", "network access"),
    make("xhr", HOST_ESCAPE, "new XMLHttpRequest()", "error:ReferenceError", "network access (XHR)"),
    make(
        "webassembly",
        HOST_ESCAPE,
        "WebAssembly.compile(new Uint8Array([0, 97, 115, 109]))",
        "error:ReferenceError",
        "WebAssembly (native code generation)",
    ),
    make("set-timeout", HOST_ESCAPE, "setTimeout(() => {}, 0)", "error:ReferenceError", "host timers"),
    make("worker", HOST_ESCAPE, "new Worker('x.js')", "error:ReferenceError", "threads"),
    make(
        "atomics-wait",
        HOST_ESCAPE,
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)",
        "error:TypeError",
        "blocking the guest thread on a futex",
    ),
    make(
        "constructor-chain",
        HOST_ESCAPE,
        "const g = this.constructor.constructor('return this')(); [g === globalThis, typeof g.Java]",
        'value:[true, "undefined"]',
        "constructor chain to the global object",
    ),
    make(
        "function-ctor-global",
        HOST_ESCAPE,
        "Function('return this')().Polyglot",
        "value:undefined",
        "Function constructor in sloppy style",
    ),
    make(
        "async-function-ctor",
        HOST_ESCAPE,
        "await (async () => {}).constructor('return typeof Java')()",
        "value:undefined",
        "AsyncFunction constructor",
    ),
    make(
        "generator-function-ctor",
        HOST_ESCAPE,
        "Object.getPrototypeOf(function* () {}).constructor('yield typeof Packages')().next().value",
        "value:undefined",
        "GeneratorFunction constructor",
    ),
    make(
        "indirect-eval",
        HOST_ESCAPE,
        "(0, eval)('typeof Polyglot + typeof load')",
        "value:undefinedundefined",
        "indirect eval in the global scope",
    ),
    make("direct-eval", HOST_ESCAPE, "eval('Java.type(\"java.io.File\")')", "error:ReferenceError", "direct eval"),
    make("with-statement", HOST_ESCAPE, "with (globalThis) { Java }", "error:SyntaxError", "with is refused (strict mode)"),
    make(
        "with-in-function-ctor",
        HOST_ESCAPE,
        "Function('with (this) { return typeof Java }')()",
        "error:SyntaxError",
        "with smuggled through the Function constructor",
    ),
    make(
        "console-constructor-chain",
        HOST_ESCAPE,
        "console.log.constructor('return this')() === globalThis",
        "value:true",
        "the console bridge leads only to the guest global",
    ),
    make(
        "console-bridge-closure",
        HOST_ESCAPE,
        "[String(console.log).length > 0, typeof emit, typeof consoleLine, typeof clip]",
        'value:[true, "undefined", "undefined", "undefined"]',
        "console's source names the host callback, but its closure stays out of reach",
    ),
    make(
        "prelude-helpers-hidden",
        HOST_ESCAPE,
        "[typeof render, typeof emit, typeof describeError, typeof codec].join()",
        "value:undefined,undefined,undefined,undefined",
        "trusted helpers are not globals",
    ),
    make(
        "global-walk",
        HOST_ESCAPE,
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
    make(
        "global-proto-chain",
        HOST_ESCAPE,
        "let p = globalThis, n = 0; while ((p = Object.getPrototypeOf(p)) !== null) n++; [n, Object.getPrototypeOf(globalThis) === Object.prototype]",
        "value:[1, true]",
        "nothing foreign in the global object's prototype chain",
    ),
    make(
        "error-stack-host-frames",
        HOST_ESCAPE,
        "new Error('x').stack.split('\\n').filter(l => /java|\\.java|truffle|graal/i.test(l)).length",
        "value:0",
        "stack traces show no host frames",
    ),
    make(
        "prepare-stack-trace",
        HOST_ESCAPE,
        "Error.prepareStackTrace = (e, frames) => frames.map(f => typeof f.getThis); try { null.x } catch (e) { typeof e.stack }",
        "value:string",
        "V8 structured stack traces (call sites leak `this`)",
    ),
    make(
        "caller-chain",
        HOST_ESCAPE,
        "function f() { return f.caller } f()",
        "error:TypeError",
        "caller walking is refused in strict mode",
    ),
    make(
        "arguments-callee",
        HOST_ESCAPE,
        "(function () { return arguments.callee })()",
        "error:TypeError",
        "arguments.callee is refused in strict mode",
    ),
    make(
        "proto-setter-global",
        HOST_ESCAPE,
        "Object.setPrototypeOf(globalThis, null); typeof globalThis.Java",
        "value:undefined",
        "re-parenting the global object reveals nothing",
    ),
    make("debugger-statement", HOST_ESCAPE, "debugger; 7", "value:7", "debugger is a no-op"),
)
