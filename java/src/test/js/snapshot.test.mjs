
// Tests for the guest snapshot codec (src/main/resources/.../sandbox/snapshot.js and its parts in snapshot/).
// Run with: node --test java/src/test/js/
// Each test evaluates the factory in a fresh vm context A (standing for the guest context the model used), puts
// globals there, encodes, then evaluates the factory in a NEW context B, decodes, and checks the values in B.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { execFileSync } from 'node:child_process';
import { guestSource } from './guest_source.mjs';

const SOURCE = guestSource('snapshot.js');

function realm(options) {
  const context = vm.createContext();
  const factory = vm.runInContext(SOURCE, context, { filename: 'snapshot.js' });
  const api = factory(options);
  const run = (code) => vm.runInContext(code, context);
  return { context, api, run };
}

// Runs `setup` in a fresh context A, saves `names`, restores them into a fresh context B.
function roundTrip(setup, names, options) {
  const a = realm(options);
  a.run(setup);
  const text = a.api.encode(names);
  const b = realm(options);
  const restored = b.api.decode(text);
  return { a, b, text, restored };
}

// Asserts that every line of `checks` evaluates to true in context r.
function expectAll(r, checks) {
  for (const line of checks.split('\n').map((l) => l.trim()).filter(Boolean)) {
    let result;
    try {
      result = r.run(line);
    } catch (e) {
      assert.fail(`check threw: ${line}\n  ${e && e.stack}`);
    }
    assert.equal(result, true, `check failed: ${line}`);
  }
}

function residueMessage(name, type) {
  return `Value for '${name}' was not restored because it is not serializable (type: ${type}).`;
}

function throwsIn(r, code) {
  try {
    r.run(code);
  } catch (e) {
    return { name: e.name, message: e.message };
  }
  return null;
}

test('factory is a single expression evaluating to a function and returning encode/decode', () => {
  const context = vm.createContext();
  const factory = vm.runInContext(SOURCE, context);
  assert.equal(typeof factory, 'function');
  const api = factory();
  assert.equal(typeof api.encode, 'function');
  assert.equal(typeof api.decode, 'function');
  assert.equal(typeof vm.runInContext(SOURCE, vm.createContext())({ maxBytes: 10 }).encode, 'function');
});

test('empty global set', (t) => {
  const { text, restored } = roundTrip('', []);
  assert.equal(text, '{"v":1,"g":[],"h":[],"s":[]}');
  assert.deepEqual([...restored], []);
  t.diagnostic(`encoded size for an empty global set: ${Buffer.byteLength(text)} bytes`);
  console.log(`snapshot size, empty global set: ${Buffer.byteLength(text)} bytes`);
});

test('primitives round-trip exactly', () => {
  const { b, restored } = roundTrip(`
    var u = undefined, n = null, t = true, f = false, i = 42, fl = -3.25, big = 1e300, tiny = 5e-324;
    var nan = NaN, inf = Infinity, ninf = -Infinity, negz = -0, posz = 0;
    var s = 'hello', empty = '', lone = '\\uD800x\\uDFFF', pair = '\\uD83D\\uDE00', ctl = '\\u0000\\n"\\\\';
    var bi = 123456789012345678901234567890n, nbi = -42n, zbi = 0n;
  `, ['u', 'n', 't', 'f', 'i', 'fl', 'big', 'tiny', 'nan', 'inf', 'ninf', 'negz', 'posz', 's', 'empty', 'lone',
    'pair', 'ctl', 'bi', 'nbi', 'zbi']);
  assert.equal(restored.length, 21);
  expectAll(b, `
    'u' in globalThis && u === undefined
    n === null
    t === true && f === false
    i === 42 && fl === -3.25 && big === 1e300 && tiny === 5e-324
    Number.isNaN(nan)
    inf === Infinity && ninf === -Infinity
    Object.is(negz, -0) && Object.is(posz, 0)
    s === 'hello' && empty === ''
    lone === '\\uD800x\\uDFFF' && lone.length === 3 && lone.charCodeAt(0) === 0xD800 && lone.charCodeAt(2) === 0xDFFF
    pair === '\\uD83D\\uDE00'
    ctl === '\\u0000\\n"\\\\'
    bi === 123456789012345678901234567890n && nbi === -42n && zbi === 0n && typeof zbi === 'bigint'
  `);
});

test('globals are restored as writable, enumerable, configurable data properties, in order', () => {
  const { b, restored } = roundTrip('var a = 1; var c = 2; globalThis.b = 3;', ['a', 'b', 'c', 'missing', 'a']);
  assert.deepEqual([...restored], ['a', 'b', 'c']);
  expectAll(b, `
    JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, 'b')) === '{"value":3,"writable":true,"enumerable":true,"configurable":true}'
    !('missing' in globalThis)
  `);
});

test('Date and RegExp', () => {
  const { b } = roundTrip(`
    var d = new Date(Date.UTC(2024, 1, 29, 12, 30, 15, 123)); var bad = new Date(NaN); var neg = new Date(-8.64e15);
    var re = /a(b+)c/gimsuy; re.lastIndex = 3; var plain = /x/; var slash = new RegExp('a/b\\\\d', 'd');
    var sets = new RegExp('[\\\\p{L}--[a-z]]', 'v'); d.note = 'extra';
  `, ['d', 'bad', 'neg', 're', 'plain', 'slash', 'sets']);
  expectAll(b, `
    d instanceof Date && d.getTime() === Date.UTC(2024, 1, 29, 12, 30, 15, 123) && d.note === 'extra'
    bad instanceof Date && Number.isNaN(bad.getTime())
    neg.getTime() === -8.64e15
    re instanceof RegExp && re.source === 'a(b+)c' && re.flags === 'gimsuy' && re.lastIndex === 3
    plain.flags === '' && plain.lastIndex === 0 && plain.test('x')
    slash.source === 'a\\\\/b\\\\d' && slash.hasIndices && slash.test('a/b1')
    sets.unicodeSets && sets.test('Z') && !sets.test('z')
  `);
});

test('Map and Set, with object keys and shared identities', () => {
  const { b } = roundTrip(`
    var k1 = {name: 'k1'}; var k2 = [1, 2];
    var m = new Map([[k1, 'one'], [k2, k1], ['str', 1], [NaN, 'nan'], [-0, 'zero']]);
    var s = new Set([k1, k2, 'x', 3n, undefined]);
    var nested = new Map([['inner', new Set([m])]]);
    m.extra = 'prop';
  `, ['k1', 'k2', 'm', 's', 'nested']);
  expectAll(b, `
    m instanceof Map && m.size === 5 && m.get(k1) === 'one' && m.get(k2) === k1 && m.get('str') === 1
    m.get(NaN) === 'nan' && m.get(0) === 'zero' && m.extra === 'prop'
    JSON.stringify([...m.keys()].map(String)) === JSON.stringify(['[object Object]', '1,2', 'str', 'NaN', '0'])
    s instanceof Set && s.size === 5 && s.has(k1) && s.has(k2) && s.has('x') && s.has(3n) && s.has(undefined)
    [...s][0] === k1
    nested.get('inner').has(m)
  `);
});

test('arrays: holes, sparse, extra properties, nesting, subclass', () => {
  const { b } = roundTrip(`
    var holes = [1, , 3, , ]; var sparse = []; sparse[5] = 'five'; sparse[1000000] = 'million';
    var extra = [1, 2]; extra.label = 'x'; extra[-1] = 'neg';
    var nested = [[1, [2, [3]]], {a: [4]}]; var empty = []; var longer = [1]; longer.length = 4;
    class List extends Array { sum() { return this.reduce((a, b) => a + b, 0); } }
    var L = List; var li = List.from([1, 2, 3]);
  `, ['holes', 'sparse', 'extra', 'nested', 'empty', 'longer', 'L', 'li']);
  expectAll(b, `
    Array.isArray(holes) && holes.length === 4 && holes[0] === 1 && !(1 in holes) && holes[2] === 3 && !(3 in holes)
    sparse.length === 1000001 && sparse[5] === 'five' && sparse[1000000] === 'million' && Object.keys(sparse).length === 2
    extra.length === 2 && extra.label === 'x' && extra[-1] === 'neg' && JSON.stringify(Object.keys(extra)) === '["0","1","label","-1"]'
    JSON.stringify(nested) === '[[1,[2,[3]]],{"a":[4]}]'
    empty.length === 0 && Array.isArray(empty)
    longer.length === 4 && !(1 in longer)
    li instanceof L && Array.isArray(li) && li.sum() === 6 && li.length === 3
  `);
});

test('plain objects: key order, null prototype, __proto__ key, accessors saved by source', () => {
  const { b } = roundTrip(`
    var o = {b: 1, a: 2, 10: 'ten', 2: 'two', 'with space': 3};
    var bare = Object.create(null); bare.x = 1;
    var proto = JSON.parse('{"__proto__": {"polluted": true}, "y": 1}');
    var acc = { _v: 2, get v() { return this._v * 10; }, set v(x) { this._v = x; } };
    var hidden = {}; Object.defineProperty(hidden, 'secret', {value: 1, enumerable: false}); hidden.shown = 2;
    var symKey = {[Symbol('k')]: 1, n: 1};
  `, ['o', 'bare', 'proto', 'acc', 'hidden', 'symKey']);
  expectAll(b, `
    JSON.stringify(Object.keys(o)) === '["2","10","b","a","with space"]' && o['with space'] === 3
    Object.getPrototypeOf(o) === Object.prototype
    Object.getPrototypeOf(bare) === null && bare.x === 1
    Object.hasOwn(proto, '__proto__') && proto.__proto__.polluted === true && Object.getPrototypeOf(proto) === Object.prototype && ({}).polluted === undefined
    acc.v === 20 && (acc.v = 5, acc.v === 50) && typeof Object.getOwnPropertyDescriptor(acc, 'v').get === 'function'
    !('secret' in hidden) && hidden.shown === 2
    Object.getOwnPropertySymbols(symKey).length === 0 && symKey.n === 1
  `);
});

test('Error objects', () => {
  const { a, b } = roundTrip(`
    var e1 = new Error('plain'); var e2 = new TypeError('typed', {cause: {code: 7}});
    var e3 = new RangeError('named'); e3.name = 'CustomName'; e3.extra = 1;
    var agg = new AggregateError([new Error('inner')], 'many');
    class MyError extends Error { constructor(m) { super(m); this.name = 'MyError'; } describe() { return this.name + ':' + this.message; } }
    var ME = MyError; var mine = new MyError('mine');
    var nostack = new Error('x'); delete nostack.stack;
  `, ['e1', 'e2', 'e3', 'agg', 'ME', 'mine', 'nostack']);
  const stack = a.run('e1.stack');
  assert.equal(b.run('e1.stack'), stack);
  expectAll(b, `
    e1 instanceof Error && e1.message === 'plain' && e1.name === 'Error' && String(e1) === 'Error: plain'
    !Object.getOwnPropertyDescriptor(e1, 'message').enumerable && Object.keys(e1).length === 0
    e2 instanceof TypeError && e2.message === 'typed' && e2.cause.code === 7
    e3 instanceof RangeError && e3.name === 'CustomName' && e3.extra === 1 && e3.message === 'named'
    agg instanceof AggregateError && agg.errors.length === 1 && agg.errors[0].message === 'inner'
    mine instanceof ME && mine instanceof Error && mine.describe() === 'MyError:mine'
    !Object.hasOwn(nostack, 'stack') && nostack.message === 'x'
  `);
});

test('ArrayBuffer, every typed array, shared buffers with offsets, DataView', () => {
  const { b, text } = roundTrip(`
    var buf = new ArrayBuffer(32); var u8 = new Uint8Array(buf); for (let i = 0; i < 32; i++) u8[i] = i * 7;
    var i8 = new Int8Array(buf, 1, 4); var u16 = new Uint16Array(buf, 2, 3); var f64 = new Float64Array(buf, 8, 2);
    var dv = new DataView(buf, 3, 10);
    var kinds = [new Int8Array([-1, 2]), new Uint8Array([255]), new Uint8ClampedArray([300]), new Int16Array([-300]),
      new Uint16Array([65535]), new Int32Array([-1e9]), new Uint32Array([4e9]), new Float32Array([1.5]),
      new Float64Array([Math.PI, NaN, -0]), new BigInt64Array([-5n]), new BigUint64Array([2n ** 64n - 1n])];
    var empty = new ArrayBuffer(0); var odd = new Uint8Array([1, 2, 3, 4, 5]).buffer;
    var rs = new ArrayBuffer(4, {maxByteLength: 16});
  `, ['buf', 'u8', 'i8', 'u16', 'f64', 'dv', 'kinds', 'empty', 'odd', 'rs']);
  assert.equal((text.match(/"B"/g) || []).length, 1 + 11 + 2 + 1, 'one buffer entry per distinct buffer');
  expectAll(b, `
    buf instanceof ArrayBuffer && buf.byteLength === 32
    u8.buffer === buf && i8.buffer === buf && u16.buffer === buf && f64.buffer === buf && dv.buffer === buf
    Array.from(u8).every((v, i) => v === (i * 7) % 256)
    i8.byteOffset === 1 && i8.length === 4 && u16.byteOffset === 2 && u16.length === 3 && f64.byteOffset === 8 && f64.length === 2
    dv.byteOffset === 3 && dv.byteLength === 10 && dv.getUint8(0) === 21
    (u8[8] = 99, f64[0] !== undefined && new Uint8Array(f64.buffer, 8, 1)[0] === 99)
    kinds[0] instanceof Int8Array && kinds[0][0] === -1 && kinds[1][0] === 255 && kinds[2] instanceof Uint8ClampedArray && kinds[2][0] === 255
    kinds[3][0] === -300 && kinds[4][0] === 65535 && kinds[5][0] === -1e9 && kinds[6][0] === 4e9 && kinds[7][0] === 1.5
    kinds[8][0] === Math.PI && Number.isNaN(kinds[8][1]) && Object.is(kinds[8][2], -0)
    kinds[9] instanceof BigInt64Array && kinds[9][0] === -5n && kinds[10][0] === 2n ** 64n - 1n
    empty.byteLength === 0 && new Uint8Array(odd).join() === '1,2,3,4,5'
    rs.resizable === true && rs.maxByteLength === 16 && rs.byteLength === 4
  `);
});

test('boxed primitives', () => {
  const { b } = roundTrip(`
    var bn = new Number(-0); var bs = new String('abc'); var bb = new Boolean(false); var bi = Object(7n); var bnan = new Number(NaN);
  `, ['bn', 'bs', 'bb', 'bi', 'bnan']);
  expectAll(b, `
    typeof bn === 'object' && bn instanceof Number && Object.is(bn.valueOf(), -0)
    bs instanceof String && bs.valueOf() === 'abc' && bs.length === 3
    bb instanceof Boolean && bb.valueOf() === false
    typeof bi === 'object' && bi.valueOf() === 7n
    Number.isNaN(bnan.valueOf())
  `);
});

test('cycles and shared references, across globals', () => {
  const { b } = roundTrip(`
    var a = {name: 'a'}; var bb = {name: 'b', a}; a.b = bb; a.self = a;
    var arr = [a, a, bb]; arr.push(arr);
    var m = new Map(); m.set(m, m); m.set('a', a);
    var alias = a; var sharedLeaf = {leaf: true}; var holder1 = {x: sharedLeaf}; var holder2 = [sharedLeaf];
  `, ['a', 'bb', 'arr', 'm', 'alias', 'holder1', 'holder2']);
  expectAll(b, `
    a.self === a && a.b === bb && bb.a === a && alias === a
    arr[0] === a && arr[1] === a && arr[2] === bb && arr[3] === arr
    m.get(m) === m && m.get('a') === a
    holder1.x === holder2[0] && holder1.x.leaf === true
  `);
});

test('functions and classes survive and call each other', () => {
  const { b } = roundTrip(`
    function double(x) { return x * 2; }
    function quad(x) { return double(double(x)); }
    var arrow = (a, b = 2) => a + b + double(0);
    var asyncFn = async function (x) { return x + 1; };
    var asyncArrow = async (x) => x * 3;
    function* gen(n) { for (let i = 0; i < n; i++) yield i; }
    async function* agen() { yield 1; }
    var anon = function () { return 'anon'; };
    var made = new Function('a', 'b', 'return a * b');
    double.cache = {hits: 3};
    class Animal {
      static kind = 'animal';
      #secret = 1;
      constructor(name) { this.name = name; }
      speak() { return this.name + ' makes ' + this.sound(); }
      sound() { return '...'; }
      get upper() { return this.name.toUpperCase(); }
      static create(n) { return new this(n); }
    }
    class Dog extends Animal { sound() { return 'woof'; } speak() { return super.speak() + '!'; } }
    Animal.count = 2;
    var rex = new Dog('rex'); var generic = Animal.create('thing');
    function Legacy(v) { this.v = v; }
    Legacy.prototype.get = function () { return this.v; };
    var old = new Legacy(9);
    Object.assign(globalThis, {Animal, Dog});
  `, ['double', 'quad', 'arrow', 'asyncFn', 'asyncArrow', 'gen', 'agen', 'anon', 'made', 'Animal', 'Dog', 'rex',
    'generic', 'Legacy', 'old']);
  expectAll(b, `
    quad(3) === 12 && double.name === 'double' && double.cache.hits === 3
    arrow(1) === 3 && arrow.name === 'arrow'
    asyncFn.constructor.name === 'AsyncFunction' && asyncArrow.name === 'asyncArrow'
    JSON.stringify([...gen(3)]) === '[0,1,2]' && Object.getPrototypeOf(agen).constructor.name === 'AsyncGeneratorFunction'
    anon() === 'anon' && anon.name === 'anon' && made(6, 7) === 42 && made.name === 'anonymous'
    rex instanceof Dog && rex instanceof Animal && rex.speak() === 'rex makes woof!' && rex.upper === 'REX'
    Object.getPrototypeOf(Dog) === Animal && Dog.kind === 'animal' && Animal.count === 2
    generic instanceof Animal && generic.speak() === 'thing makes ...'
    new Dog('fido').speak() === 'fido makes woof!'
    old instanceof Legacy && old.get() === 9 && new Legacy(4).get() === 4
    JSON.stringify(Object.keys(rex)) === '["name"]'
  `);
});

test('asynchronous functions still work after restore', async () => {
  const { b } = roundTrip('var later = async (x) => { await null; return x + 1; };', ['later']);
  assert.equal(await b.run('later(41)'), 42);
});

test('functions nested in data, method shorthand, and class declared only in data', () => {
  const { b } = roundTrip(`
    var api = {
      name: 'api',
      hello() { return 'hi from ' + this.name; },
      arrow: (x) => x + 1,
      async later() { return 1; },
      *items() { yield 'a'; },
      ['computed' + 'Key']() { return 'ck'; },
      get when() { return 'now'; },
    };
    var Hidden = null;
    var box = { Cls: class Point { constructor(x) { this.x = x; } norm() { return Math.abs(this.x); } } };
    var pt = new box.Cls(-3);
    var handlers = [function named() { return 1; }, () => 2];
  `, ['api', 'box', 'pt', 'handlers']);
  expectAll(b, `
    api.hello() === 'hi from api' && api.arrow(1) === 2 && api.hello.name === 'hello'
    typeof api.later === 'function' && [...api.items()][0] === 'a' && api.computedKey() === 'ck' && api.when === 'now'
    pt instanceof box.Cls && pt.norm() === 3 && box.Cls.name === 'Point'
    handlers[0]() === 1 && handlers[0].name === 'named' && handlers[1]() === 2
  `);
});

test('intrinsics and well-known or registered symbols keep their identity', () => {
  const { b } = roundTrip(`
    var m = Math; var push = Array.prototype.push; var proto = Map.prototype; var g = globalThis;
    var it = Symbol.iterator; var reg = Symbol.for('app.key'); var keys = new Map([[Symbol.asyncIterator, 1]]);
    var withIntrinsicProto = Object.create(Array.prototype); withIntrinsicProto.x = 1;
  `, ['m', 'push', 'proto', 'g', 'it', 'reg', 'keys', 'withIntrinsicProto']);
  expectAll(b, `
    m === Math && push === Array.prototype.push && proto === Map.prototype && g === globalThis
    it === Symbol.iterator && reg === Symbol.for('app.key') && keys.get(Symbol.asyncIterator) === 1
    Object.getPrototypeOf(withIntrinsicProto) === Array.prototype && !Array.isArray(withIntrinsicProto) && withIntrinsicProto.x === 1
  `);
});

test('residues at global level: exact message, type words, assignment replaces them', () => {
  const { b, restored } = roundTrip(`
    var sym = Symbol('local'); var prom = Promise.resolve(1); var wm = new WeakMap(); var ws = new WeakSet();
    var wr = new WeakRef({}); var fr = new FinalizationRegistry(() => {});
    var genObj = (function* () { yield 1; })(); var agenObj = (async function* () {})();
    var bound = function () {}.bind(null); var native = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
    var iter = [1, 2][Symbol.iterator](); var boxedSym = Object(Symbol('boxed'));
    var sab = new SharedArrayBuffer(8);
  `, ['sym', 'prom', 'wm', 'ws', 'wr', 'fr', 'genObj', 'agenObj', 'bound', 'native', 'iter', 'boxedSym', 'sab']);
  assert.equal(restored.length, 13);
  const expected = {
    sym: 'symbol', prom: 'promise', wm: 'WeakMap', ws: 'WeakSet', wr: 'WeakRef', fr: 'FinalizationRegistry',
    genObj: 'generator', agenObj: 'async generator', bound: 'bound function', native: 'native function',
    iter: 'iterator', boxedSym: 'symbol', sab: 'SharedArrayBuffer',
  };
  for (const [name, type] of Object.entries(expected)) {
    assert.deepEqual(throwsIn(b, name), { name: 'ReferenceError', message: residueMessage(name, type) }, name);
  }
  // typeof and reads through globalThis hit the getter too
  assert.equal(throwsIn(b, 'globalThis.sym').message, residueMessage('sym', 'symbol'));
  // assigning replaces the residue with a plain data property
  expectAll(b, `
    (sym = 5, sym === 5)
    JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, 'sym')) === '{"value":5,"writable":true,"enumerable":true,"configurable":true}'
    (globalThis.prom = 'p', prom === 'p')
    (function () { 'use strict'; wm = 1; return wm === 1; })()
  `);
});

test('detached buffers and functions whose source cannot be re-parsed are residues', () => {
  const a = realm();
  a.run(`
    var buf = new ArrayBuffer(8); var view = new Uint8Array(buf); var holder = {view};
    var f = function () { return 'real'; }; f.toString = () => 'ignored: Function.prototype.toString is captured';
  `);
  structuredClone(a.run('buf'), { transfer: [a.run('buf')] }); // detach it (vm contexts have no structuredClone)
  const text = a.api.encode(['buf', 'view', 'holder', 'f']);
  const b = realm();
  b.api.decode(text);
  assert.equal(throwsIn(b, 'buf').message, residueMessage('buf', 'detached ArrayBuffer'));
  assert.equal(throwsIn(b, 'view').message, residueMessage('view', 'detached ArrayBuffer'));
  assert.equal(throwsIn(b, 'holder.view').message, residueMessage('holder.view', 'detached ArrayBuffer'));
  assert.equal(b.run('f()'), 'real');
  // a hand-made payload with an unparseable source becomes a residue without being evaluated
  const bad = '{"v":1,"g":["g",[0]],"h":[["F","function (",0,"g",0,"g"]],"s":[]}';
  const c = realm();
  assert.deepEqual([...c.api.decode(bad)], ['g']);
  assert.equal(throwsIn(c, 'g').message, residueMessage('g', 'function'));
});

test('residues nested in data become throwing accessors named by their path', () => {
  const { b } = roundTrip(`
    var obj = {a: Symbol('x'), ok: 1, deep: {list: [1, Promise.resolve()], 'odd key': new WeakMap()}};
    var m = new Map([['k', Symbol('v')], [Symbol('key'), 1]]); var s = new Set([Symbol('e')]);
  `, ['obj', 'm', 's']);
  assert.deepEqual(throwsIn(b, 'obj.a'), { name: 'ReferenceError', message: residueMessage('obj.a', 'symbol') });
  assert.equal(throwsIn(b, 'obj.deep.list[1]').message, residueMessage('obj.deep.list[1]', 'promise'));
  assert.equal(throwsIn(b, 'obj.deep["odd key"]').message, residueMessage('obj.deep["odd key"]', 'WeakMap'));
  expectAll(b, `
    obj.ok === 1 && Object.keys(obj).join() === 'a,ok,deep' && obj.deep.list.length === 2
    (obj.a = 'replaced', obj.a === 'replaced' && Object.getOwnPropertyDescriptor(obj, 'a').writable)
    m.get('k') instanceof ReferenceError && m.get('k').message === "Value for 'm.<map value 0>' was not restored because it is not serializable (type: symbol)."
    m.size === 2 && [...m.keys()][1] instanceof ReferenceError
    [...s][0] instanceof ReferenceError && s.size === 1
  `);
});

test('proxies whose traps throw become residues without breaking the snapshot', () => {
  const { b, text } = roundTrip(`
    var holder = {
      ok: 1,
      keysThrow: new Proxy({}, { ownKeys() { throw new Error('ownKeys trap'); } }),
      protoThrows: new Proxy({}, { getPrototypeOf() { throw new Error('getPrototypeOf trap'); } }),
      plainProxy: new Proxy({a: 1}, {}),
      after: [1, 2],
    };
  `, ['holder']);
  assert.match(text, /\["R","object","holder\.keysThrow"\]/);
  assert.equal(throwsIn(b, 'holder.keysThrow').message, residueMessage('holder.keysThrow', 'object'));
  assert.equal(throwsIn(b, 'holder.protoThrows').message, residueMessage('holder.protoThrows', 'object'));
  expectAll(b, `
    holder.ok === 1 && holder.plainProxy.a === 1 && holder.after.join() === '1,2'
  `);
});

test('restored residues stay residues when saved again', () => {
  const first = roundTrip('var sym = Symbol(); var obj = {w: new WeakSet()}; var m = new Map([[1, Symbol()]]);',
    ['sym', 'obj', 'm']);
  const text = first.b.api.encode(['sym', 'obj', 'm']);
  const c = realm();
  c.api.decode(text);
  assert.equal(throwsIn(c, 'sym').message, residueMessage('sym', 'symbol'));
  assert.equal(throwsIn(c, 'obj.w').message, residueMessage('obj.w', 'WeakSet'));
  assert.equal(c.run('m.get(1) instanceof ReferenceError'), true);
});

test('a snapshot of a restored context restores the same state (idempotent)', () => {
  const setup = `
    class Counter { constructor() { this.n = 0; } inc() { return ++this.n; } }
    var c = new Counter(); c.inc(); var data = {list: [1, , 3], when: new Date(5), c};
    function helper() { return data.list.length; }
    globalThis.Counter = Counter;
  `;
  const names = ['Counter', 'c', 'data', 'helper'];
  const first = roundTrip(setup, names);
  const second = first.b.api.encode(names);
  assert.equal(second, first.text);
  const c = realm();
  c.api.decode(second);
  expectAll(c, `
    c instanceof Counter && c.inc() === 2 && data.c === c && helper() === 3 && !(1 in data.list) && data.when.getTime() === 5
  `);
});

test('getters are never invoked while encoding', () => {
  const a = realm();
  a.run(`
    var calls = 0;
    var trap = { get boom() { calls++; throw new Error('getter ran'); }, plain: 1 };
    Object.defineProperty(globalThis, 'globalGetter', { get() { calls++; return 1; }, enumerable: true, configurable: true });
    var arr = []; Object.defineProperty(arr, 0, { get() { calls++; return 1; }, enumerable: true });
    class K { get g() { calls++; return 1; } } var k = new K();
  `);
  const text = a.api.encode(['trap', 'globalGetter', 'arr', 'k']);
  assert.equal(a.run('calls'), 0);
  const b = realm();
  b.api.decode(text);
  b.run('var calls = 0');
  expectAll(b, `
    trap.plain === 1 && typeof Object.getOwnPropertyDescriptor(trap, 'boom').get === 'function'
    globalGetter === 1 && calls === 1 && arr[0] === 1 && calls === 2 && k.g === 1 && calls === 3
  `);
});

test('tampering with intrinsics in the guest after the factory ran does not affect encode', () => {
  const a = realm();
  a.run(`
    var data = {list: [1, 'two', {three: 3}], m: new Map([[1, 2]]), s: new Set([1]), d: new Date(7), re: /x/g,
      big: 5n, buf: new Uint8Array([1, 2, 3]), nested: [[[]]], e: new Error('err')};
    class Foo { bar() { return 'bar'; } } var foo = new Foo(); globalThis.Foo = Foo;
    function fn() { return 1; }
    JSON.stringify = () => { throw new Error('JSON.stringify tampered'); };
    JSON.parse = () => { throw new Error('JSON.parse tampered'); };
    Array.prototype.push = function () { throw new Error('push tampered'); };
    Array.prototype.join = function () { throw new Error('join tampered'); };
    Array.prototype[Symbol.iterator] = function () { throw new Error('iterator tampered'); };
    Map.prototype.entries = Map.prototype.get = Map.prototype.set = Map.prototype.has = function () { throw new Error('map tampered'); };
    Set.prototype.values = Set.prototype.add = Set.prototype.has = function () { throw new Error('set tampered'); };
    WeakMap.prototype.get = WeakMap.prototype.has = function () { throw new Error('weakmap tampered'); };
    Function.prototype.toString = function () { return 'function () { [native code] }'; };
    String.prototype.slice = String.prototype.charCodeAt = function () { throw new Error('string tampered'); };
    RegExp.prototype.exec = function () { throw new Error('exec tampered'); };
    Object.defineProperty(RegExp.prototype, 'flags', { get() { throw new Error('flags tampered'); } });
    Date.prototype.getTime = function () { return -1; };
    Object.defineProperty(Object.getPrototypeOf(Uint8Array.prototype), 'length', { get() { throw new Error('ta tampered'); } });
    data[Symbol.toPrimitive] = () => { throw new Error('toPrimitive'); };
    data.toString = data.valueOf = () => { throw new Error('toString'); };
    globalThis.eval = () => { throw new Error('eval tampered'); };
    globalThis.Function = function () { throw new Error('Function tampered'); };
    Symbol.keyFor = () => { throw new Error('keyFor tampered'); };
    Error.prepareStackTrace = () => { throw new Error('prepare'); };
    Object.defineProperty(Array.prototype, '0', { set(v) { throw new Error('index setter tampered'); }, get() { return 'polluted'; }, configurable: true });
    Object.defineProperty(Array.prototype, '5', { set(v) { throw new Error('index setter tampered'); }, configurable: true });
    // (Object.prototype.get/set pollution is covered by the child-process test below: Node's vm global
    // interceptor itself aborts the process when asked for a descriptor while Object.prototype.get is set.)
    Object.prototype.value = 'polluted'; Object.prototype.toJSON = function () { return 'polluted'; };
    Object.prototype.enumerable = false; Object.prototype.writable = false; Object.prototype.configurable = false;
    Object.getOwnPropertyNames = Object.getOwnPropertyDescriptor = Object.getPrototypeOf = () => { throw new Error('Object tampered'); };
    Reflect.apply = () => { throw new Error('Reflect tampered'); };
  `);
  const text = a.api.encode(['data', 'Foo', 'foo', 'fn']);
  const b = realm();
  b.api.decode(text);
  expectAll(b, `
    JSON.stringify(data.list) === '[1,"two",{"three":3}]' && data.m.get(1) === 2 && data.s.has(1) && data.d.getTime() === 7
    data.re.flags === 'g' && data.big === 5n && data.buf.join() === '1,2,3' && data.nested[0][0].length === 0
    data.e.message === 'err' && foo.bar() === 'bar' && foo instanceof Foo && fn() === 1
  `);
});

test('Object.prototype get/set/value pollution before encode (plain global object, child process)', () => {
  // Runs the factory with indirect eval in a pristine Node process (its global is an ordinary object, unlike a
  // vm context's), pollutes Object.prototype, encodes, undoes the pollution and prints the snapshot.
  const script = `
    const api = (0, eval)(require('fs').readFileSync(0, 'utf8'))();
    globalThis.data = {a: 1, list: [1, , {b: 2}], m: new Map([[{k: 1}, 'v']]), get acc() { return 1; }};
    globalThis.Thing = class Thing { constructor() { this.x = 1; } twice() { return this.x * 2; } };
    globalThis.thing = new Thing();
    Object.defineProperty(globalThis, 'globalAcc', { get() { return 'g'; }, enumerable: true, configurable: true });
    Object.defineProperty(Array.prototype, '1', { set(v) { throw new Error('setter'); }, get() { return 'hole'; }, configurable: true });
    Object.prototype.get = function () { throw new Error('get pollution'); };
    Object.prototype.set = function () { throw new Error('set pollution'); };
    Object.prototype.value = 'polluted';
    let text, error;
    try { text = api.encode(['data', 'Thing', 'thing', 'globalAcc']); } catch (e) { error = String(e && e.stack); }
    delete Object.prototype.get; delete Object.prototype.set; delete Object.prototype.value; delete Array.prototype[1];
    process.stdout.write(JSON.stringify({text, error}));
  `;
  const outcome = JSON.parse(execFileSync(process.execPath, ['-e', script], { input: SOURCE, encoding: 'utf8' }));
  assert.equal(outcome.error, undefined);
  const b = realm();
  b.api.decode(outcome.text);
  expectAll(b, `
    data.a === 1 && data.list.length === 3 && !(1 in data.list) && data.list[2].b === 2 && [...data.m][0][1] === 'v'
    data.acc === 1 && thing instanceof Thing && thing.twice() === 2 && globalAcc === 'g'
  `);
});

test('tampering in the restoring context before decode does not affect decode', () => {
  const a = realm();
  a.run('var obj = {a: [1, 2], m: new Map([[1, {x: 1}]])}; var arr = [1, , 3]; function f() { return obj.a.length; }');
  const text = a.api.encode(['obj', 'arr', 'f']);
  const b = realm();
  b.run(`
    JSON.parse = () => ({v: 1, g: ['evil', 1], h: [], s: []});
    Object.defineProperty(Array.prototype, '1', { set(v) { throw new Error('setter'); }, get() { return 'hole'; }, configurable: true });
    Object.prototype.value = 'polluted'; Object.prototype.get = function () {}; Object.prototype.v = 2;
    Array.prototype.push = () => { throw new Error('push'); };
    Map.prototype.set = () => { throw new Error('set'); };
    Object.defineProperty = Reflect.defineProperty = () => { throw new Error('define'); };
    globalThis.eval = () => { throw new Error('eval tampered'); };
  `);
  const restored = b.api.decode(text);
  assert.deepEqual(Array.from(restored), ['obj', 'arr', 'f']);
  b.run('delete Object.prototype.value; delete Object.prototype.get; delete Array.prototype[1]');
  expectAll(b, `
    obj.a[1] === 2 && obj.m.get(1).x === 1 && f() === 2 && !(1 in arr) && arr.length === 3 && !('evil' in globalThis)
  `);
});

test('malformed, truncated or foreign payloads throw and change nothing', () => {
  const a = realm();
  a.run(`
    var marker = {x: 1};
    class Sneaky { static { globalThis.sideEffect = 'ran'; } }
    var S = Sneaky; var list = [marker, new Uint8Array([1, 2])];
  `);
  const good = a.api.encode(['marker', 'S', 'list']);
  const cases = {
    notString: 42,
    notJson: 'not json',
    truncated: good.slice(0, good.length - 5),
    emptyObject: '{}',
    array: '[]',
    wrongVersion: good.replace('"v":1', '"v":2'),
    extraField: good.replace('"v":1', '"v":1,"x":0'),
    badRef: '{"v":1,"g":["a",[5]],"h":[],"s":[]}',
    negativeRef: '{"v":1,"g":["a",[-1]],"h":[],"s":[]}',
    unknownTag: '{"v":1,"g":["a",["zz"]],"h":[],"s":[]}',
    unknownKind: '{"v":1,"g":["a",[0]],"h":[["Q"]],"s":[]}',
    unknownIntrinsic: '{"v":1,"g":["a",["i","NoSuchThing"]],"h":[],"s":[]}',
    badShape: '{"v":1,"g":["a",[0]],"h":[["o",0,1,2]],"s":[[0,"x"]]}',
    badBase64: '{"v":1,"g":["a",[0]],"h":[["B","@@@@",-1]],"s":[]}',
    viewOutOfRange: '{"v":1,"g":["a",[1]],"h":[["B","AAAA",-1],["T","Uint16Array",0,2,4]],"s":[]}',
    misalignedView: '{"v":1,"g":["a",[1]],"h":[["B","AAAA",-1],["T","Uint16Array",0,1,1]],"s":[]}',
    viewOnNonBuffer: '{"v":1,"g":["a",[1]],"h":[["o",0],["T","Uint8Array",0,0,0]],"s":[[0]]}',
    badRegExp: '{"v":1,"g":["a",[0]],"h":[["X",0,"(",""]],"s":[]}',
    badRegExpFlags: '{"v":1,"g":["a",[0]],"h":[["X",0,"a","qq",0]],"s":[]}',
    badBigInt: '{"v":1,"g":["a",["n","12x"]],"h":[],"s":[]}',
    holeOutsideArray: '{"v":1,"g":["a",["h"]],"h":[],"s":[]}',
    accessorInMap: '{"v":1,"g":["a",[0]],"h":[["M",0,[1,["g",["u"],["u"]]]]],"s":[]}',
    duplicateGlobal: '{"v":1,"g":["a",1,"a",2],"h":[],"s":[]}',
    oddGlobals: '{"v":1,"g":["a"],"h":[],"s":[]}',
    arrayLengthProp: '{"v":1,"g":["a",[0]],"h":[["A",0,[],0,"length",5]],"s":[]}',
    lengthMismatch: '{"v":1,"g":["a",[0]],"h":[["A",3,[1],0]],"s":[]}',
    protoOfNonFunction: '{"v":1,"g":["a",[1]],"h":[["o",0],["P",0,0]],"s":[[0]]}',
    badFunctionForm: '{"v":1,"g":["a",[0]],"h":[["F","() => 1",7,null,0,"a"]],"s":[]}',
    badErrorField: '{"v":1,"g":["a",[0]],"h":[["E",0,["name","x"]]],"s":[]}',
    goodThenBad: good.replace(/\]\],"s"/, '],["Q"]],"s"'),
    duplicateShapeKey: '{"v":1,"g":["a",[0]],"h":[["o",0,1,2]],"s":[[0,"x","x"]]}',
  };
  for (const [label, payload] of Object.entries(cases)) {
    const b = realm();
    const before = b.run('Object.getOwnPropertyNames(globalThis).length');
    assert.throws(() => b.api.decode(payload), (e) => e instanceof b.run('Error') && /^invalid snapshot: /.test(e.message),
      `${label} should be rejected`);
    assert.equal(b.run('Object.getOwnPropertyNames(globalThis).length'), before, `${label} changed globals`);
    assert.equal(b.run('typeof sideEffect'), 'undefined', `${label} ran saved code`);
  }
  // the untouched payload still works, and runs the class's static block once
  const b = realm();
  b.api.decode(good);
  expectAll(b, 'sideEffect === "ran" && list[0] === marker && list[1][1] === 2');
});

test('100k-element array and 100k-deep linked list encode and decode without stack overflow', () => {
  const { b, text } = roundTrip(`
    var big = Array.from({length: 100000}, (_, i) => i % 7 === 0 ? {i} : i);
    var list = null; for (let i = 0; i < 100000; i++) list = {value: i, next: list};
    var nested = []; for (let i = 0, cur = nested; i < 100000; i++) { const next = []; cur.push(next); cur = next; }
  `, ['big', 'list', 'nested']);
  assert.ok(text.length > 100000);
  expectAll(b, `
    big.length === 100000 && big[1] === 1 && big[7].i === 7 && big[99995].i === 99995
    (() => { let n = 0, p = list; while (p) { if (p.value !== 99999 - n) return false; n++; p = p.next; } return n === 100000; })()
    (() => { let n = 0, p = nested; while (p.length) { n++; p = p[0]; } return n === 100000; })()
  `);
});

test('residue paths deep in a long list are shortened', () => {
  const { b } = roundTrip(`
    var list = {sym: Symbol()}; for (let i = 0; i < 100; i++) list = {next: list};
  `, ['list']);
  const message = throwsIn(b, 'let p = list; while (p.next) p = p.next; p.sym').message;
  assert.match(message, /^Value for 'list\.….*\.next\.sym' was not restored because it is not serializable \(type: symbol\)\.$/);
});

test('maxBytes: exceeding it throws RangeError, within it works', () => {
  const setup = 'var data = Array.from({length: 1000}, (_, i) => ({i, s: "x".repeat(20)})); var buf = new ArrayBuffer(100000);';
  const small = realm({ maxBytes: 1000 });
  small.run(setup);
  assert.throws(() => small.api.encode(['data']), (e) => e instanceof small.run('RangeError') && e.message === 'snapshot exceeds maxBytes');
  assert.throws(() => small.api.encode(['buf']), /snapshot exceeds maxBytes/);
  assert.equal(small.api.encode([]), '{"v":1,"g":[],"h":[],"s":[]}');
  // {"v":1,"g":["s","é…"],"h":[],"s":[]}: 34 ASCII bytes plus 2 bytes per é
  const multibyte = realm({ maxBytes: 54 });
  multibyte.run('var s = "é".repeat(10);');
  assert.equal(Buffer.byteLength(multibyte.api.encode(['s'])), 54);
  multibyte.run('s = "é".repeat(11);'); // 45 UTF-16 units, but 56 UTF-8 bytes
  assert.throws(() => multibyte.api.encode(['s']), /snapshot exceeds maxBytes/);
  const roomy = realm({ maxBytes: 10_000_000 });
  roomy.run(setup);
  const text = roomy.api.encode(['data', 'buf']);
  assert.ok(Buffer.byteLength(text) <= 10_000_000);
});

test('decode refuses non-functions in function entries and extra code around sources', () => {
  const payloads = [
    // a comma expression: rejected by the single-expression check, never evaluated
    '{"v":1,"g":["a",[0]],"h":[["F","function () {}, globalThis.sideEffect = 1",0,null,0,"a"]],"s":[]}',
    // escaping the wrapper
    '{"v":1,"g":["a",[0]],"h":[["F","function () {}), (globalThis.sideEffect = 1), (0",0,null,0,"a"]],"s":[]}',
    // a plain call
    '{"v":1,"g":["a",[0]],"h":[["F","globalThis.sideEffect = 1",0,null,0,"a"]],"s":[]}',
    // two methods
    '{"v":1,"g":["a",[0]],"h":[["F","m() {}, n: globalThis.sideEffect = 1",1,null,0,"a"]],"s":[]}',
    // method escaping the wrapper
    '{"v":1,"g":["a",[0]],"h":[["F","m() {} }), (globalThis.sideEffect = 1), ({ n() {}",1,null,0,"a"]],"s":[]}',
  ];
  for (const payload of payloads) {
    const b = realm();
    const names = b.api.decode(payload);
    assert.deepEqual(Array.from(names), ['a']);
    assert.equal(b.run('typeof sideEffect'), 'undefined', payload);
    assert.equal(throwsIn(b, 'a').message, residueMessage('a', 'function'));
  }
});

test('class extending another global class restores in any order; unresolvable extends becomes a residue', () => {
  const a = realm();
  a.run(`
    class Base { hi() { return 'base'; } }
    class Child extends Base { hi() { return 'child<' + super.hi() + '>'; } }
    var lib = { Inner: class {} };
    class FromData extends lib.Inner {}
    var kid = new Child();
    Object.assign(globalThis, {Base, Child, FromData});
  `);
  // Child listed before Base: the first evaluation fails with a ReferenceError and is retried.
  const text = a.api.encode(['kid', 'Child', 'Base', 'lib', 'FromData']);
  const b = realm();
  const names = b.api.decode(text);
  assert.deepEqual(Array.from(names), ['kid', 'Child', 'Base', 'lib', 'FromData']);
  expectAll(b, `
    kid instanceof Child && kid.hi() === 'child<base>' && Object.getPrototypeOf(Child) === Base
    JSON.stringify(Object.keys(globalThis).filter((k) => ['kid', 'Child', 'Base', 'lib', 'FromData'].includes(k))) === '["kid","Child","Base","lib","FromData"]'
  `);
  assert.equal(throwsIn(b, 'FromData').message, residueMessage('FromData', 'function'));
});

test('size report: 10k small objects', (t) => {
  const a = realm();
  a.run("var items = []; for (let i = 0; i < 10000; i++) items.push({id: i, name: 'item' + i, tags: ['a', 'b']});");
  const started = process.hrtime.bigint();
  const text = a.api.encode(['items']);
  const encodeMs = Number(process.hrtime.bigint() - started) / 1e6;
  const b = realm();
  const started2 = process.hrtime.bigint();
  b.api.decode(text);
  const decodeMs = Number(process.hrtime.bigint() - started2) / 1e6;
  expectAll(b, `
    items.length === 10000 && items[9999].id === 9999 && items[9999].name === 'item9999' && items[5].tags.join() === 'a,b'
    items[0].tags !== items[1].tags
  `);
  const bytes = Buffer.byteLength(text);
  t.diagnostic(`encoded size for 10k small objects: ${bytes} bytes (encode ${encodeMs.toFixed(0)} ms, decode ${decodeMs.toFixed(0)} ms)`);
  console.log(`snapshot size, 10k objects {id, name, tags: ['a','b']}: ${bytes} bytes`);
});

test('ids are depth-first: what an element reaches comes right after it, so appending one changes little', () => {
  const a = realm();
  a.run(`var items = []; for (let i = 0; i < 5; i++) items.push({ id: i, tags: ['t' + i] }); var other = { n: 1 };`);
  const before = a.api.encode(['items', 'other']);
  const parsed = JSON.parse(before);
  // items, then each record followed by its tags, then other
  assert.deepEqual(parsed.h[0], ['a', [1], [3], [5], [7], [9]]);
  assert.deepEqual(parsed.h[1], ['o', 0, 0, [2]]);
  assert.deepEqual(parsed.h[2], ['a', 't0']);
  assert.deepEqual(parsed.h[9], ['o', 0, 4, [10]]);
  assert.deepEqual(parsed.h[11], ['o', 1, 1]);
  a.run(`items.push({ id: 5, tags: ['t5'] })`);
  const after = a.api.encode(['items', 'other']);
  // Every record and its tags keep their ids and their text; the new record and its tags come after the last
  // ones, before other; only items' own entry and other's id changed.
  const next = JSON.parse(after);
  assert.deepEqual(next.h.slice(1, 11), parsed.h.slice(1, 11));
  assert.deepEqual(next.h[0], ['a', [1], [3], [5], [7], [9], [11]]);
  assert.deepEqual(next.h[11], ['o', 0, 5, [12]]);
  assert.deepEqual(next.h[13], parsed.h[11]);
  const b = realm();
  b.api.decode(after);
  expectAll(b, `
    items.length === 6 && items[5].tags[0] === 't5' && items[2].tags[0] === 't2' && other.n === 1
  `);
});

test('a shared object and a cycle found before their turn get one id each', () => {
  const { b, text } = roundTrip(`
    var shared = { s: 1 };
    var a = [{ x: shared }, { y: shared }, shared];
    var ring = { name: 'r' }; ring.self = ring; ring.list = [ring, shared];
  `, ['a', 'ring']);
  assert.equal(JSON.parse(text).h.length, 6);
  expectAll(b, `
    a[0].x === a[1].y && a[2] === a[0].x && a[2].s === 1
    ring.self === ring && ring.list[0] === ring && ring.list[1] === a[2]
  `);
});

test('restored objects and arrays meet no setter that a restored class body put on a prototype', () => {
  const a = realm();
  a.run(`
    var Marker = class { static { } };
    var data = { id: 7, list: [1, 2], inner: { id: 8 } };
  `);
  // A class whose static block, run by decode, puts setters on the prototypes the plain values get.
  const text = a.api.encode(['data']).replace('"g":[', '"g":["Trap",[100],')
    .replace(/\]\],"s"/, '],["F","class { static { Object.defineProperty(Object.prototype, \'id\', { set() { globalThis.hit = 1; } }); Object.defineProperty(Array.prototype, 0, { set() { globalThis.hit = 2; } }); } }",0,"Trap",0,"Trap"]],"s"');
  const fixed = text.replace('[100]', '[' + JSON.parse(a.api.encode(['data'])).h.length + ']');
  const b = realm();
  b.api.decode(fixed);
  expectAll(b, `
    typeof Trap === 'function' && typeof hit === 'undefined'
    data.id === 7 && data.inner.id === 8 && data.list[0] === 1 && data.list.length === 2
    Object.getPrototypeOf(data) === Object.prototype && Array.isArray(data.list) && Object.getPrototypeOf(data.list) === Array.prototype
    Object.getOwnPropertyDescriptor(data, 'id').writable && Object.keys(data).join() === 'id,list,inner'
  `);
});
