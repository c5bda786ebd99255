// The polyfill groups of the guest: built-ins GraalJS 25.0.3 lacks under SandboxPolicy.CONSTRAINED (ECMAScript
// 2025 is the newest level it accepts), from core-js. build.mjs bundles this file into
// src/main/resources/io/github/langchaingraalvm/sandbox/polyfills.js. Each group is a function: requiring a
// core-js module installs its built-ins, so nothing runs until the host calls a group, once per context, before
// the first cell that names one of the group's trigger words (Polyfills.java holds the triggers). Only modules
// for built-ins the engine does not have are listed; core-js leaves a native built-in in place. Error.isError is
// not here: it needs a brand check only the host can make (prelude/is_error.js).
'use strict';

// core-js defines methods as ordinary functions, which are constructors and have a `prototype`; the
// specification's built-in methods are neither. Each own method (and accessor) of the objects a group extends
// is replaced by a method-definition function that calls it, with the same name, length and descriptor.
const apply = Reflect.apply;
const construct = Reflect.construct;
const defineProperty = Object.defineProperty;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;
// One method per function, so aliases (DisposableStack.prototype.dispose and [Symbol.dispose]) stay one value.
const wrappers = new WeakMap();

function isConstructor(fn) {
  try {
    construct(String, [], fn);
    return true;
  } catch {
    return false;
  }
}

// A native method (not a constructor) is left as it is.
function asMethod(fn) {
  if (!isConstructor(fn)) return fn;
  let method = wrappers.get(fn);
  if (method === undefined) {
    method = {
      method(...args) {
        return apply(fn, this, args);
      },
    }.method;
    defineProperty(method, 'length', getOwnPropertyDescriptor(fn, 'length'));
    defineProperty(method, 'name', getOwnPropertyDescriptor(fn, 'name'));
    wrappers.set(fn, method);
  }
  return method;
}

function methods(object, keys) {
  for (const key of keys || ownKeys(object)) {
    const d = getOwnPropertyDescriptor(object, key);
    if (d === undefined || key === 'constructor') continue;
    if ('value' in d) {
      if (!isConstructor(d.value)) continue;
      d.value = asMethod(d.value);
    } else {
      d.get = asMethod(d.get);
      d.set = asMethod(d.set);
    }
    defineProperty(object, key, d);
  }
}

const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);

module.exports = {
  // Explicit resource management, also the runtime of `using` and `await using` declarations.
  disposable() {
    require('core-js/modules/es.symbol.dispose.js');
    require('core-js/modules/es.symbol.async-dispose.js');
    require('core-js/modules/es.suppressed-error.constructor.js');
    require('core-js/modules/es.disposable-stack.constructor.js');
    require('core-js/modules/es.async-disposable-stack.constructor.js');
    require('core-js/modules/es.iterator.dispose.js');
    require('core-js/modules/es.async-iterator.async-dispose.js');
    methods(globalThis.DisposableStack.prototype);
    methods(globalThis.AsyncDisposableStack.prototype);
    methods(IteratorPrototype, [Symbol.dispose]);
    methods(AsyncIteratorPrototype, [Symbol.asyncDispose]);
  },
  fromAsync() {
    require('core-js/modules/es.array.from-async.js');
    methods(Array, ['fromAsync']);
  },
  iteratorSequencing() {
    require('core-js/modules/es.iterator.concat.js');
    require('core-js/modules/es.iterator.zip.js');
    require('core-js/modules/es.iterator.zip-keyed.js');
    methods(globalThis.Iterator, ['concat', 'zip', 'zipKeyed']);
  },
  base64() {
    require('core-js/modules/es.uint8-array.from-base64.js');
    require('core-js/modules/es.uint8-array.from-hex.js');
    require('core-js/modules/es.uint8-array.set-from-base64.js');
    require('core-js/modules/es.uint8-array.set-from-hex.js');
    require('core-js/modules/es.uint8-array.to-base64.js');
    require('core-js/modules/es.uint8-array.to-hex.js');
    methods(Uint8Array, ['fromBase64', 'fromHex']);
    methods(Uint8Array.prototype, ['setFromBase64', 'setFromHex', 'toBase64', 'toHex']);
  },
  getOrInsert() {
    require('core-js/modules/es.map.get-or-insert.js');
    require('core-js/modules/es.map.get-or-insert-computed.js');
    require('core-js/modules/es.weak-map.get-or-insert.js');
    require('core-js/modules/es.weak-map.get-or-insert-computed.js');
    methods(Map.prototype, ['getOrInsert', 'getOrInsertComputed']);
    methods(WeakMap.prototype, ['getOrInsert', 'getOrInsertComputed']);
  },
  // JSON.parse (whose reviver gets the source text, the same proposal) and JSON.stringify are replaced too: only
  // core-js's own stringify knows its raw JSON objects.
  rawJSON() {
    require('core-js/modules/es.json.raw-json.js');
    require('core-js/modules/es.json.is-raw-json.js');
    require('core-js/modules/es.json.parse.js');
    require('core-js/modules/es.json.stringify.js');
    methods(JSON, ['rawJSON', 'isRawJSON', 'parse', 'stringify']);
  },
  sumPrecise() {
    require('core-js/modules/es.math.sum-precise.js');
    methods(Math, ['sumPrecise']);
  },
};
