// Tests for the guest prelude (src/main/resources/.../sandbox/prelude.js and its parts in prelude/), in a Node vm
// context standing for a fresh guest context: the host evaluates the factory, calls it with emit and options, and
// keeps the helpers it returns. Run with: node --test java/src/test/js/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { types } from 'node:util';
import vm from 'node:vm';
import { guestSource } from './guest_source.mjs';

const SOURCE = guestSource('prelude.js');

function context(options = {}) {
  const lines = [];
  const calls = [];
  const ctx = vm.createContext();
  const before = vm.runInContext('Object.getOwnPropertyNames(globalThis)', ctx);
  const factory = vm.runInContext(SOURCE, ctx, { filename: 'prelude.js' });
  const hostCall = (kind, name, input) => {
    calls.push([kind, name, input]);
    return calls.length;
  };
  const api = factory((line, length, stream) => lines.push([line, length, stream]),
    { captureConsole: true, frozenClock: false, epochMillis: 0, hostCall, isErrorObject: types.isNativeError, ...options });
  const run = (code) => vm.runInContext(code, ctx);
  return { ctx, api, run, lines, calls, before };
}

test('the factory is one function expression and returns the host helpers', () => {
  const factory = vm.runInContext(SOURCE, vm.createContext());
  assert.equal(typeof factory, 'function');
  const { api } = context();
  for (const name of ['render', 'describeError', 'hostCallsIntact', 'installHostCalls', 'completeCall', 'completeCalls',
    'dropCalls', 'isThenable', 'settle', 'modelGlobals']) {
    assert.equal(typeof api[name], 'function', name);
  }
});

test('no global is added but queueMicrotask where missing; console is replaced; none counts as the model\'s', () => {
  const { run, api, before } = context();
  const after = run('Object.getOwnPropertyNames(globalThis)');
  const added = after.filter((n) => !before.includes(n));
  assert.equal(added.filter((n) => n !== 'queueMicrotask').length, 0);
  assert.equal(run('Object.keys(console).join()'), 'log,info,debug,warn,error,trace');
  assert.equal(api.modelGlobals().length, 0);
  run('var x = 1; globalThis.y = 2;');
  assert.equal(Array.prototype.join.call(api.modelGlobals()), 'x,y');
});

test('render: values as text, without calling getters, cut at the budget', () => {
  const { run, api } = context();
  const r = (code, budget) => [...api.render(run(code), budget)];
  assert.deepEqual(r('({a: 1, b: [1, , "x"], c: new Map([[1, 2]]), d: new Set([3])})'),
    ['{a: 1, b: [1, <1 empty item>, "x"], c: Map(1) {1 => 2}, d: Set(1) {3}}', false]);
  assert.deepEqual(r('({get g() { throw new Error("called"); }})'), ['{g: [Getter]}', false]);
  assert.deepEqual(r('-0'), ['-0', false]);
  assert.deepEqual(r('10n'), ['10n', false]);
  assert.deepEqual(r('"top"'), ['top', false]);
  assert.deepEqual(r('(function named() {})'), ['[Function: named]', false]);
  assert.deepEqual(r('(class K {})'), ['[class K]', false]);
  assert.deepEqual(r('const o = {}; o.self = o; o'), ['{self: [Circular]}', false]);
  assert.deepEqual(r('Object.create(null)'), ['[Object: null prototype] {}', false]);
  assert.deepEqual(r('[1, 2, 3, 4, 5]', 5), ['[1, 2', true]);
});

test('render ignores prototype pollution and replaced built-ins', () => {
  const { run, api } = context();
  run(`Object.defineProperty(Object.prototype, '0', { set() { throw new Error('setter'); }, configurable: true });
    Array.prototype.join = () => 'joined'; JSON.stringify = () => 'json'; Map.prototype.entries = null;`);
  assert.deepEqual([...api.render(run('({k: "v", m: new Map([["a", 1]])})'))], ['{k: "v", m: Map(1) {"a" => 1}}', false]);
});

test('describeError: name, message and the stack cut to the model\'s frames', () => {
  const { run, api } = context();
  const thrown = run('try { null.x; } catch (e) { e }');
  const [name, message] = api.describeError(thrown);
  assert.equal(name, 'TypeError');
  assert.match(message, /null/);
  assert.deepEqual([...api.describeError(run('42'))], ['Error', '42', '']);
  const custom = run('({name: "Custom", message: "m", stack: "x\\n    at f (cell:3:7)\\n    at g (prelude.js:1:1)"})');
  assert.deepEqual([...api.describeError(custom)], ['Custom', 'm', '    at f (cell:3:7)']);
});

test('console: every call is one line for the host, with its full length and its stream', () => {
  const { run, lines } = context();
  run('console.log("a", 1, {b: [2]}); console.error("e")');
  assert.deepEqual(lines, [['a 1 {b: [2]}', 12, 'stdout'], ['e', 1, 'stderr']]);
  lines.length = 0;
  run('console.info("i"); console.debug("d"); console.trace("t"); console.warn("w")');
  assert.deepEqual(lines.map(([line, , stream]) => `${stream}:${line}`), ['stdout:i', 'stdout:d', 'stdout:t', 'stderr:w']);
  const quiet = context({ captureConsole: false });
  assert.equal(quiet.run('typeof console'), 'undefined');
});

test('frozen clock: Date, Date.now and Intl formatting answer the fixed instant', () => {
  const { run } = context({ frozenClock: true, epochMillis: Date.UTC(2024, 0, 2, 3, 4, 5) });
  assert.equal(run('Date.now()'), Date.UTC(2024, 0, 2, 3, 4, 5));
  assert.equal(run('new Date().toISOString()'), '2024-01-02T03:04:05.000Z');
  assert.equal(run('new Date(0).toISOString()'), '1970-01-01T00:00:00.000Z');
  assert.equal(run('new Date(2024, 1).getMonth()'), 1);
  assert.equal(run('Object.getOwnPropertyDescriptor(Date, "now").value()'), Date.UTC(2024, 0, 2, 3, 4, 5));
  assert.equal(run('new Date() instanceof Date && Date.prototype.constructor === Date'), true);
  assert.equal(run('class D extends Date {}; new D().getTime()'), Date.UTC(2024, 0, 2, 3, 4, 5));
  assert.equal(run('new Intl.DateTimeFormat("en-US", {timeZone: "UTC", year: "numeric"}).format()'), '2024');
});

test('Error.isError: the host\'s brand check for objects, false for anything else; a native one stays', () => {
  const checked = [];
  const { run } = context({ isErrorObject: (v) => (checked.push(v), types.isNativeError(v)) });
  assert.equal(run('[new Error(), new (class extends TypeError {})(), Object.create(Error.prototype), new Proxy(new Error(), {})]'
    + '.map(Error.isError).join()'), 'true,true,false,false');
  assert.equal(checked.length, 4);
  assert.equal(run('[undefined, null, 1, "Error", Symbol(), 1n, function () {}, Error].map((v) => Error.isError(v)).join()'),
    'false,false,false,false,false,false,false,false');
  assert.equal(checked.length, 4, 'primitives and functions are not sent to the host');
  assert.equal(run('const d = Object.getOwnPropertyDescriptor(Error, "isError");'
    + ' [d.writable, d.enumerable, d.configurable, d.value.length, d.value.name, "prototype" in d.value].join()'),
  'true,false,true,1,isError,false');
  assert.throws(() => run('new Error.isError({})'), { name: 'TypeError' });
  const ctx = vm.createContext();
  const native = vm.runInContext('Error.isError = function isError() { return "native" }', ctx);
  vm.runInContext(SOURCE, ctx)(() => {}, { captureConsole: true, frozenClock: false, epochMillis: 0, hostCall() {},
    isErrorObject: types.isNativeError });
  assert.equal(vm.runInContext('Error.isError', ctx), native);
});

test('host calls: tools send JSON and settle when the host completes them', async () => {
  const { run, api, calls } = context();
  api.installHostCalls('lookup,other', true, false);
  assert.equal(api.hostCallsIntact(), true);
  run('globalThis.p = tools.lookup({q: "x", n: 10n, skip: undefined, bytes: new Uint8Array([1, 2])})');
  assert.deepEqual(calls[0], ['tool', 'lookup', '{"q":"x","n":{"\\u0000bigint":"10"},"bytes":{"\\u0000bytes":[1,2]}}']);
  api.completeCall(1, true, '{"answer": 42}');
  assert.equal(JSON.stringify(await run('p')), '{"answer":42}');
  run('globalThis.q = task({description: "d"})');
  assert.deepEqual(calls[1], ['task', 'task', '{"description":"d"}']);
  api.completeCall(2, false, '{"type": "ToolError", "message": "no"}');
  await assert.rejects(run('q'), (e) => e.name === 'ToolError' && e.message === 'no');
  assert.equal(run('Object.isFrozen(tools) && Object.keys(tools).join()'), 'lookup,other');
  run('delete globalThis.tools');
  assert.equal(api.hostCallsIntact(), false);
  api.installHostCalls(null, false, false);
  assert.equal(run('typeof tools + typeof task'), 'undefinedundefined');
});

test('host calls: circular and oversized inputs are rejected in the guest', async () => {
  const { run, api, calls } = context();
  api.installHostCalls('t', false, false);
  await assert.rejects(run('const o = {}; o.o = o; tools.t(o)'), /circular reference/);
  await assert.rejects(run('tools.t({s: "x".repeat(9 * 1024 * 1024)})'), /at most 8388608/);
  assert.equal(calls.length, 0);
});

test('fs: operations are host calls; stat comes back with isFile/isDirectory', async () => {
  const { run, api, calls } = context();
  api.installHostCalls(null, false, true);
  run('globalThis.s = fs.promises.stat("/data/a.txt")');
  assert.deepEqual(calls[0], ['fs', 'stat', '{"path":"/data/a.txt"}']);
  api.completeCalls('[[1, true, {"size": 3, "isFile": true, "isDirectory": false}]]');
  assert.equal(await run('s.then((st) => st.size + ":" + st.isFile() + st.isDirectory())'), '3:truefalse');
  await assert.rejects(run('fs.readFile(1)'), /the path must be a string/);
  await assert.rejects(run('fs.readFile("/a", "latin1")'), /only the "utf8" encoding/);
});
