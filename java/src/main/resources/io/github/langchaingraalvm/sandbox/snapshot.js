// Trusted snapshot codec for a guest context: it saves the model's globals between turns and restores them
// into a fresh context. The host evaluates this file once per fresh context, before any untrusted code runs,
// calls the factory and keeps { encode, decode } to itself; guest code can never reach them. Every intrinsic the
// codec uses is captured below, at factory time, so later tampering by guest code (replacing JSON, polluting
// Object.prototype, replacing Array.prototype.push or Map.prototype.entries, ...) cannot change what it does.
// Guest getters are never invoked: properties are read with getOwnPropertyDescriptor. Only guest Proxies (their
// traps) and, on V8, a guest Error.prepareStackTrace (V8 formats Error.stack lazily, on first read) can run guest
// code during encode; a failure there turns the value into a residue. No recursion is used
// anywhere, so deep structures cannot overflow the stack, and encoding is linear in the size of the graph.
//
// Format (version 1), a compact JSON text:
//   {"v":1,"g":[name, V, name, V, ...],"h":[entry, ...],"s":[shape, ...]}
// "g" lists the saved globals in order; "h" is the object table (an entry's index is its id, so shared references
// and cycles survive); "s" lists object shapes: [proto, key, key, ...] shared by plain objects with the same keys.
// A value V is one of:
//   null, true, false, a finite number, a string      itself (JSON keeps lone surrogates as \uXXXX escapes)
//   [id]                                              reference to entry h[id]
//   ["u"] ["NaN"] ["Infinity"] ["-Infinity"] ["-0"]   undefined and the numbers JSON cannot spell
//   ["n","-123"]                                      BigInt
//   ["y","key"]                                       registered symbol, Symbol.for(key)
//   ["i","Math.max"]                                  intrinsic: a value reachable from the pristine global object
//                                                     (globals, their properties, X.prototype and its properties)
//   ["r",type,path]                                   residue: a value that cannot be restored (see below)
//   ["h"]                                             an array hole (array element lists only)
//   ["g",getV,setV]                                   an accessor property (property values only; functions)
// A "proto" field is 0 (the kind's usual prototype), null, or a V naming an object.
// Entries (props = flat key/V pairs of own enumerable string-keyed properties, in order):
//   ["o",shape,V,...]              plain object or class instance; one V per key of the shape
//   ["a",V,...]                    dense array, Array.prototype, no holes, no extra properties
//   ["A",length,elems|0,proto,props...]  any other array; elems 0 = sparse: index keys are in props
//   ["P",fnId,proto,props...]      the .prototype object of the function entry h[fnId]
//   ["F",source,form,name,protoV,path,props...]  function restored from its source text. form 0: a function,
//                                  arrow or class expression; form 1: method syntax (foo() {}, get x() {}).
//                                  name: the original .name (or null); protoV: 0 or its replaced/extended
//                                  .prototype; path: where it was first found (for residue messages)
//   ["M",proto,[k,V,k,V...],props...]   Map        ["S",proto,[V,...],props...]   Set
//   ["D",proto,timeV,props...]          Date       ["X",proto,source,flags,lastIndex,props...]  RegExp
//   ["E",proto,[key,V,...],props...]    Error; the list holds own non-enumerable message/stack/cause/errors
//   ["B",base64,maxByteLength|-1]       ArrayBuffer (resizable when maxByteLength >= 0)
//   ["T",type,bufferId,byteOffset,length]   typed array view on the buffer entry h[bufferId]
//   ["V",bufferId,byteOffset,byteLength]    DataView   ["W",V]   boxed primitive (Number, String, Boolean, BigInt)
//   ["R",type,path]                     an object that failed while being read (a Proxy trap threw); a residue
//
// Functions are saved by source text and re-created with indirect eval in the global scope, so they see the
// restored globals. Closures over local variables, private fields (#x), bound `this` and any state that is not
// reachable through own enumerable string-keyed properties is lost; that is accepted. Classes whose `extends`
// clause needs something other than an already restored global function fail to restore and become residues.
// Instances of a saved class get the restored class's prototype back. What is not kept: symbol-keyed and
// non-enumerable properties (except the Error fields above), property attributes (restored properties are
// writable, enumerable, configurable), frozen/sealed state, extra properties of typed arrays, DataViews and boxed
// primitives, length tracking of typed arrays over resizable buffers, and the internal state of exotic objects
// whose prototype was replaced by a non-builtin one (they restore as plain objects).
//
// Residues: bound and native functions, functions whose source does not re-parse, symbols (other than well-known
// and registered ones), promises, WeakMap, WeakSet, WeakRef, FinalizationRegistry, generators, iterators,
// SharedArrayBuffer and detached buffers. A residue saved as global NAME is restored as an accessor on globalThis
// whose getter throws ReferenceError("Value for 'NAME' was not restored because it is not serializable (type:
// TYPE).") and whose setter replaces it with a plain data property. A residue stored in an object or array
// property becomes the same kind of accessor on that property, NAME being its path (e.g. obj.a, list[3]). A
// residue that is a Map key or value or a Set element is replaced by a (not thrown) ReferenceError object
// carrying that message. Re-encoding a restored residue keeps it a residue of the same type.
//
// decode validates the whole payload before changing anything; a malformed or foreign payload throws
// Error('invalid snapshot: ...'). Only function sources that pass a syntax check (a single function/class
// expression, or a single method) are evaluated; class bodies (static blocks, computed keys) run as usual.
(function (options) {
  'use strict';

  const VERSION = 1;

  // ------------------------------------------------------------------------------------------------------------
  // Captured intrinsics
  const G = globalThis;
  const ObjectCtor = Object;
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const FunctionProto = Function.prototype;
  const getOwnPropertyNames = Object.getOwnPropertyNames;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const getPrototypeOf = Object.getPrototypeOf;
  const hasOwn = Object.hasOwn;
  const apply = Reflect.apply;
  const defineProp = Reflect.defineProperty;
  const deleteProp = Reflect.deleteProperty;
  const setProto = Reflect.setPrototypeOf;
  const ownKeys = Reflect.ownKeys;
  const isArray = Array.isArray;
  const arrayJoin = Array.prototype.join;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  const fnToString = Function.prototype.toString;
  const FunctionCtor = Function;
  const globalEval = eval;
  const isInteger = Number.isInteger;
  const charCodeAt = String.prototype.charCodeAt;
  const stringSlice = String.prototype.slice;
  const BigIntCtor = BigInt;
  const symbolFor = Symbol.for;
  const symbolKeyFor = Symbol.keyFor;
  const ErrorCtor = Error;
  const ReferenceErrorCtor = ReferenceError;
  const ReferenceErrorProto = ReferenceError.prototype;
  const RangeErrorCtor = RangeError;
  const TypeErrorCtor = TypeError;
  const ErrorProto = Error.prototype;
  const isPrototypeOf = Object.prototype.isPrototypeOf;
  const DateCtor = Date;
  const DateProto = Date.prototype;
  const dateGetTime = Date.prototype.getTime;
  const RegExpCtor = RegExp;
  const RegExpProto = RegExp.prototype;
  const regexpExec = RegExp.prototype.exec;

  function getterOf(proto, name) {
    if (proto === undefined || proto === null) return undefined;
    const d = getOwnPropertyDescriptor(proto, name);
    return d !== undefined && !hasOwn(d, 'value') ? d.get : undefined;
  }
  function valueOf(obj, name) {
    if (obj === undefined || obj === null) return undefined;
    const d = getOwnPropertyDescriptor(obj, name);
    return d !== undefined && hasOwn(d, 'value') ? d.value : undefined;
  }

  const regexpSource = getterOf(RegExpProto, 'source');
  const FLAG_GETTERS = [];
  setProto(FLAG_GETTERS, null);
  {
    const flagNames = [['d', 'hasIndices'], ['g', 'global'], ['i', 'ignoreCase'], ['m', 'multiline'],
      ['s', 'dotAll'], ['u', 'unicode'], ['v', 'unicodeSets'], ['y', 'sticky']];
    let n = 0;
    for (let i = 0; i < flagNames.length; i++) {
      const get = getterOf(RegExpProto, flagNames[i][1]);
      if (get !== undefined) FLAG_GETTERS[n++] = [flagNames[i][0], get];
    }
  }

  const MapCtor = Map;
  const MapProto = Map.prototype;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapHas = Map.prototype.has;
  const mapSize = getterOf(MapProto, 'size');
  const mapEntries = Map.prototype.entries;
  const mapIterNext = getPrototypeOf(new Map().entries()).next;
  const SetCtor = Set;
  const SetProto = Set.prototype;
  const setAdd = Set.prototype.add;
  const setHas = Set.prototype.has;
  const setSize = getterOf(SetProto, 'size');
  const setValues = Set.prototype.values;
  const setIterNext = getPrototypeOf(new Set().values()).next;
  const WeakMapCtor = WeakMap;
  const weakMapGet = WeakMap.prototype.get;
  const weakMapSet = WeakMap.prototype.set;
  const weakMapHas = WeakMap.prototype.has;
  const WeakSetCtor = WeakSet;
  const weakSetAdd = WeakSet.prototype.add;
  const weakSetHas = WeakSet.prototype.has;
  const WeakRefProto = typeof WeakRef === 'function' ? WeakRef.prototype : undefined;
  const weakRefDeref = WeakRefProto !== undefined ? WeakRefProto.deref : undefined;
  const FinalizationRegistryProto = typeof FinalizationRegistry === 'function' ? FinalizationRegistry.prototype
    : undefined;
  const PromiseProto = Promise.prototype;

  const ArrayBufferCtor = ArrayBuffer;
  const ArrayBufferProto = ArrayBuffer.prototype;
  const abByteLength = getterOf(ArrayBufferProto, 'byteLength');
  const abResizable = getterOf(ArrayBufferProto, 'resizable');
  const abMaxByteLength = getterOf(ArrayBufferProto, 'maxByteLength');
  const SharedArrayBufferProto = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer.prototype : undefined;
  const sabByteLength = getterOf(SharedArrayBufferProto, 'byteLength');
  const DataViewCtor = DataView;
  const DataViewProto = DataView.prototype;
  const dvBuffer = getterOf(DataViewProto, 'buffer');
  const dvByteOffset = getterOf(DataViewProto, 'byteOffset');
  const dvByteLength = getterOf(DataViewProto, 'byteLength');
  const U8 = Uint8Array;
  const TypedArray = getPrototypeOf(Int8Array);
  const TypedArrayProto = TypedArray.prototype;
  const taTag = getterOf(TypedArrayProto, Symbol.toStringTag);
  const taBuffer = getterOf(TypedArrayProto, 'buffer');
  const taByteOffset = getterOf(TypedArrayProto, 'byteOffset');
  const taLength = getterOf(TypedArrayProto, 'length');
  const TYPED = { __proto__: null };
  {
    const typedNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
      'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
    for (let i = 0; i < typedNames.length; i++) {
      const ctor = valueOf(G, typedNames[i]);
      if (typeof ctor === 'function') TYPED[typedNames[i]] = [ctor, valueOf(ctor, 'BYTES_PER_ELEMENT')];
    }
  }

  const numberValueOf = Number.prototype.valueOf;
  const stringValueOf = String.prototype.valueOf;
  const booleanValueOf = Boolean.prototype.valueOf;
  const bigintValueOf = BigInt.prototype.valueOf;
  const symbolValueOf = Symbol.prototype.valueOf;

  const GeneratorFunctionProto = getPrototypeOf(function* () {});
  const GeneratorProto = valueOf(GeneratorFunctionProto, 'prototype');
  const AsyncGeneratorFunctionProto = getPrototypeOf(async function* () {});
  const AsyncGeneratorProto = valueOf(AsyncGeneratorFunctionProto, 'prototype');
  const AsyncFunctionProto = getPrototypeOf(async function () {});
  const IteratorProto = getPrototypeOf(GeneratorProto);
  const AsyncIteratorProto = getPrototypeOf(AsyncGeneratorProto);

  // Error.stack may be an own data property (V8), an own accessor or an inherited accessor; only the engine's own
  // getter is ever called.
  const ownStackGetter = getterOf(new ErrorCtor('probe'), 'stack');
  const protoStackGetter = getterOf(ErrorProto, 'stack');

  const maxBytes = options !== undefined && options !== null ? options.maxBytes : undefined;
  const DEFAULT_LIMIT = typeof maxBytes === 'number' && maxBytes >= 0 ? maxBytes : Infinity;
  let LIMIT = DEFAULT_LIMIT;

  // ------------------------------------------------------------------------------------------------------------
  // Small safe helpers (no guest-reachable prototype lookups)
  function list() {
    const a = [];
    setProto(a, null);
    return a;
  }
  // The codec's own collections and regexps carry the captured methods as own, read-only properties: calls
  // never reach the (guest-modifiable) prototypes, and are cheaper than Reflect.apply with an argument list.
  function withOwn(target, methods) {
    for (let i = 0; i < methods.length; i += 2) {
      defineProp(target, methods[i], { __proto__: null, value: methods[i + 1] });
    }
    return target;
  }
  const privateMap = () => withOwn(new MapCtor(), ['get', mapGet, 'set', mapSet, 'has', mapHas]);
  const privateSet = () => withOwn(new SetCtor(), ['add', setAdd, 'has', setHas]);
  const privateWeakMap = () => withOwn(new WeakMapCtor(), ['get', weakMapGet, 'set', weakMapSet, 'has', weakMapHas]);
  const privateWeakSet = () => withOwn(new WeakSetCtor(), ['add', weakSetAdd, 'has', weakSetHas]);
  const mGet = (m, k) => m.get(k);
  const mSet = (m, k, v) => m.set(k, v);
  const mHas = (m, k) => m.has(k);
  const wmGet = (m, k) => m.get(k);
  const wmSet = (m, k, v) => m.set(k, v);
  const wmHas = (m, k) => m.has(k);
  const wsAdd = (s, v) => s.add(v);
  const wsHas = (s, v) => s.has(v);
  const quote = (s) => jsonStringify(s);
  const code = (s, i) => apply(charCodeAt, s, [i]);
  const slice = (s, a, b) => apply(stringSlice, s, [a, b]);
  const regex = (source, flags) => withOwn(new RegExpCtor(source, flags), ['exec', regexpExec]);
  const test = (re, s) => re.exec(s) !== null;
  function brand(fn, value, arg) {
    if (fn === undefined) return false;
    try {
      apply(fn, value, [arg]);
      return true;
    } catch (e) {
      return false;
    }
  }
  const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
  const dataDescriptor = (value, enumerable) =>
    ({ __proto__: null, value, writable: true, enumerable, configurable: true });

  const IDENT_RE = regex('^[A-Za-z_$][A-Za-z0-9_$]*$', '');
  const INDEX_RE = regex('^(?:0|[1-9][0-9]*)$', '');
  const BIGINT_RE = regex('^-?(?:0|[1-9][0-9]*)$', '');
  const NATIVE_RE = regex('\\{\\s*\\[native code\\]\\s*\\}\\s*$', '');
  const BASE64_RE = regex('^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$', '');
  const EXPR_START_RE = regex('^(?:async(?![\\p{ID_Continue}$])|function(?![\\p{ID_Continue}$])|' +
    'class(?![\\p{ID_Continue}$])|\\(|[\\p{ID_Start}$_][\\p{ID_Continue}$\\u200C\\u200D]*\\s*=>)', 'u');

  const isIndexKey = (k) => test(INDEX_RE, k) && +k < 4294967295;

  // ------------------------------------------------------------------------------------------------------------
  // Intrinsics: values reachable from the pristine global object, saved by name instead of by value.
  const intrinsicByValue = privateMap();
  const intrinsicByName = privateMap();
  function addIntrinsic(name, value) {
    const t = typeof value;
    if (!((t === 'object' && value !== null) || t === 'function' || t === 'symbol')) return false;
    if (mHas(intrinsicByName, name)) return false;
    mSet(intrinsicByName, name, value);
    if (mHas(intrinsicByValue, value)) return false; // an alias: resolvable by this name, not scanned again
    mSet(intrinsicByValue, value, name);
    return true;
  }
  // Breadth first, so that the shortest name wins: globals, then their properties (and F.prototype of function
  // properties), then the properties of every X.prototype found.
  function scanIntrinsics(items) {
    for (let qi = 0; qi < items.length; qi++) {
      const prefix = items[qi][0];
      const obj = items[qi][1];
      const level = items[qi][2];
      let keys;
      try {
        keys = getOwnPropertyNames(obj);
      } catch (e) {
        continue;
      }
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        let d;
        try {
          d = getOwnPropertyDescriptor(obj, k);
        } catch (e) {
          continue;
        }
        if (d === undefined || !hasOwn(d, 'value')) continue;
        const v = d.value;
        const name = prefix + k;
        if (!addIntrinsic(name, v) || !isObject(v)) continue;
        if (level === 0 || (k === 'prototype' && level === 1)) {
          items[items.length] = [name + '.', v, level + 1];
        } else if (level === 1 && typeof v === 'function') {
          const p = valueOf(v, 'prototype');
          if (isObject(p) && addIntrinsic(name + '.prototype', p)) items[items.length] = [name + '.prototype.', p, 2];
        }
      }
    }
  }
  {
    const items = list();
    items[0] = ['', G, 0];
    scanIntrinsics(items);
    const hidden = [['%TypedArray%', TypedArray], ['%GeneratorFunction.prototype%', GeneratorFunctionProto],
      ['%GeneratorPrototype%', GeneratorProto], ['%AsyncGeneratorFunction.prototype%', AsyncGeneratorFunctionProto],
      ['%AsyncGeneratorPrototype%', AsyncGeneratorProto], ['%AsyncFunction.prototype%', AsyncFunctionProto],
      ['%IteratorPrototype%', IteratorProto], ['%AsyncIteratorPrototype%', AsyncIteratorProto],
      ['%ArrayIteratorPrototype%', getPrototypeOf([].values())],
      ['%MapIteratorPrototype%', getPrototypeOf(new Map().entries())],
      ['%SetIteratorPrototype%', getPrototypeOf(new Set().values())],
      ['%StringIteratorPrototype%', getPrototypeOf(''[Symbol.iterator]())]];
    const more = list();
    for (let i = 0; i < hidden.length; i++) {
      if (addIntrinsic(hidden[i][0], hidden[i][1])) more[more.length] = [hidden[i][0] + '.', hidden[i][1], 1];
    }
    scanIntrinsics(more);
  }

  // Builtin prototypes, to tell which brand check (if any) an object needs.
  const protoKinds = privateMap();
  {
    const kinds = [[ObjectProto, 'o'], [ArrayProto, 'o'], [FunctionProto, 'o'], [MapProto, 'M'], [SetProto, 'S'],
      [DateProto, 'D'], [RegExpProto, 'X'], [ErrorProto, 'E'], [ArrayBufferProto, 'B'],
      [SharedArrayBufferProto, 'sab'], [DataViewProto, 'V'], [TypedArrayProto, 'T'],
      [Number.prototype, 'wn'], [String.prototype, 'ws'], [Boolean.prototype, 'wb'], [BigInt.prototype, 'wi'],
      [Symbol.prototype, 'wy'], [PromiseProto, 'promise'], [WeakMap.prototype, 'wm'], [WeakSet.prototype, 'wset'],
      [WeakRefProto, 'wr'], [FinalizationRegistryProto, 'FinalizationRegistry'], [GeneratorProto, 'generator'],
      [AsyncGeneratorProto, 'async generator'], [IteratorProto, 'iterator'], [AsyncIteratorProto, 'async iterator']];
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i][0] !== undefined && !mHas(protoKinds, kinds[i][0])) mSet(protoKinds, kinds[i][0], kinds[i][1]);
    }
  }

  // Functions made by this codec (residue accessors) and placeholders standing for residues in Maps and Sets,
  // mapped to their residue type, so that saving them again keeps them residues.
  const internal = privateWeakMap();
  // Internal records used while decoding.
  const residueRecords = privateWeakSet();
  const accessorRecords = privateWeakSet();
  const HOLE = { __proto__: null };

  function residueMessage(path, type) {
    return "Value for '" + path + "' was not restored because it is not serializable (type: " + type + ').';
  }

  function defineResidue(obj, key, type, path, enumerable) {
    const message = residueMessage(path, type);
    const get = function () {
      throw new ReferenceErrorCtor(message);
    };
    const set = function (value) {
      const target = isObject(this) ? this : obj;
      defineProp(target, key, dataDescriptor(value, true));
    };
    wmSet(internal, get, type);
    wmSet(internal, set, 'function');
    return defineProp(obj, key, { __proto__: null, get, set, enumerable, configurable: true });
  }

  function residuePlaceholder(type, path) {
    const e = new ReferenceErrorCtor(residueMessage(path, type));
    wmSet(internal, e, type);
    return e;
  }

  // Whether a function's source can be evaluated back, and how: 0 as an expression, 1 as a method, -1 not at all.
  // Each check compiles (never runs) the text inside a wrapper whose closing bracket differs from the one used by
  // decode, so that only a balanced, single function/class expression or a single method passes both.
  function parses(body) {
    try {
      FunctionCtor(body);
      return true;
    } catch (e) {
      return false;
    }
  }
  function expressionSourceOk(src) {
    return test(EXPR_START_RE, src) && parses('return ({[' + src + '\n]: 0});');
  }
  function methodSourceOk(src) {
    return parses('return [class {' + src + '\n}];');
  }
  function sourceForm(src) {
    if (expressionSourceOk(src)) return 0;
    if (methodSourceOk(src) && parses('return ({' + src + '\n});')) return 1;
    return -1;
  }

  function base64Encode(bytes, n) {
    const chunks = list();
    let nc = 0;
    let s = '';
    for (let i = 0; i < n; i += 3) {
      const rest = n - i;
      const t = (bytes[i] << 16) | (rest > 1 ? bytes[i + 1] << 8 : 0) | (rest > 2 ? bytes[i + 2] : 0);
      s += B64[t >>> 18] + B64[(t >>> 12) & 63] + (rest > 1 ? B64[(t >>> 6) & 63] : '=') +
        (rest > 2 ? B64[t & 63] : '=');
      if (s.length >= 16384) {
        chunks[nc++] = s;
        s = '';
      }
    }
    chunks[nc++] = s;
    return apply(arrayJoin, chunks, ['']);
  }
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const B64_INDEX = new U8(128);
  for (let i = 0; i < 64; i++) B64_INDEX[code(B64, i)] = i;
  function base64Length(s) {
    const n = s.length;
    if (n === 0) return 0;
    return (n / 4) * 3 - (s[n - 1] === '=' ? 1 : 0) - (s[n - 2] === '=' ? 1 : 0);
  }
  function base64Decode(s, bytes) {
    const n = s.length;
    let o = 0;
    for (let i = 0; i < n; i += 4) {
      const c2 = code(s, i + 2);
      const c3 = code(s, i + 3);
      const t = (B64_INDEX[code(s, i)] << 18) | (B64_INDEX[code(s, i + 1)] << 12) |
        (c2 === 61 ? 0 : B64_INDEX[c2] << 6) | (c3 === 61 ? 0 : B64_INDEX[c3]);
      bytes[o++] = t >>> 16;
      if (c2 !== 61) bytes[o++] = (t >>> 8) & 255;
      if (c3 !== 61) bytes[o++] = t & 255;
    }
  }

  function utf8Length(s) {
    let bytes = 0;
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = code(s, i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && code(s, i + 1) >= 0xdc00 && code(s, i + 1) < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    }
    return bytes;
  }

  function tooBig() {
    return new RangeErrorCtor('snapshot exceeds maxBytes');
  }

  // ------------------------------------------------------------------------------------------------------------
  // encode
  // maxBytes, when given, overrides the factory's limit for this one call.
  function encode(names, maxBytes) {
    LIMIT = typeof maxBytes === 'number' && maxBytes >= 0 ? maxBytes : DEFAULT_LIMIT;
    try {
      return encodeNames(names);
    } finally {
      LIMIT = DEFAULT_LIMIT;
    }
  }

  function encodeNames(names) {
    const ids = privateMap(); // object -> id
    const objects = list(); // id -> object
    const kinds = list(); // id -> kind letter
    const extra = list(); // id -> the function of a "P" entry
    const parent = list(); // id -> id it was found in, -1 for a global
    const pkey = list(); // id -> key (or index) it was found under
    const pkind = list(); // id -> what pkey means (see segment)
    const root = list(); // id -> name of the global it was found from
    let count = 0;
    const hints = privateMap(); // prototype -> hint
    const fnClass = privateMap(); // function -> 'F' or a residue type
    const fnSource = privateMap();
    const fnForm = privateMap();
    const shapes = privateMap(); // shape text -> index
    const shapeTexts = list();
    let shapeCount = 0;
    const parts = list();
    let np = 0;
    let size = 0;

    let exceeded = false;
    function out(s) {
      parts[np++] = s;
      size += s.length;
      if (size > LIMIT) {
        exceeded = true;
        throw tooBig();
      }
    }

    function segment(k, kd) {
      switch (kd) {
        case 0: return test(IDENT_RE, k) ? '.' + k : '[' + quote(k) + ']';
        case 1: return '[' + k + ']';
        case 2: return '.<map key ' + k + '>';
        case 3: return '.<map value ' + k + '>';
        case 4: return '.<set element ' + k + '>';
        default: return '.<prototype>';
      }
    }
    function pathOf(id) {
      const segs = list();
      let n = 0;
      let cur = id;
      while (parent[cur] >= 0 && n < 32) {
        segs[n++] = segment(pkey[cur], pkind[cur]);
        cur = parent[cur];
      }
      let s = root[id];
      if (parent[cur] >= 0) s += '.…';
      for (let i = n - 1; i >= 0; i--) s += segs[i];
      return s;
    }
    function pathTo(p, k, kd) {
      return p < 0 ? k : pathOf(p) + segment(k, kd);
    }
    function residue(type, p, k, kd) {
      return '["r",' + quote(type) + ',' + quote(pathTo(p, k, kd)) + ']';
    }
    const isResidue = (s) => s[0] === '[' && s[1] === '"' && s[2] === 'r' && s[3] === '"';

    function classifyFunction(fn) {
      let c = mGet(fnClass, fn);
      if (c !== undefined) return c;
      c = 'function';
      if (!wmHas(internal, fn)) {
        let src;
        try {
          src = apply(fnToString, fn, []);
        } catch (e) {
          src = undefined;
        }
        if (typeof src === 'string') {
          if (test(NATIVE_RE, src)) {
            const name = valueOf(fn, 'name');
            c = typeof name === 'string' && slice(name, 0, 6) === 'bound ' ? 'bound function' : 'native function';
          } else {
            const form = sourceForm(src);
            if (form >= 0) {
              c = 'F';
              mSet(fnSource, fn, src);
              mSet(fnForm, fn, form);
            }
          }
        }
      }
      mSet(fnClass, fn, c);
      return c;
    }

    function bufferProblem(buffer) {
      if (!brand(abByteLength, buffer)) return 'SharedArrayBuffer';
      try {
        new U8(buffer, 0, 0);
        return null;
      } catch (e) {
        return 'detached ArrayBuffer';
      }
    }

    function hintFor(proto) {
      let h = mGet(hints, proto);
      if (h !== undefined) return h;
      h = 'o';
      for (let q = proto, steps = 0; q !== null && steps < 10000; q = getPrototypeOf(q), steps++) {
        const k = mGet(protoKinds, q);
        if (k !== undefined) {
          h = k;
          break;
        }
      }
      mSet(hints, proto, h);
      return h;
    }

    // Returns a kind letter, or a residue type (always longer than one character).
    function classify(o) {
      if (typeof o === 'function') return classifyFunction(o);
      if (isArray(o)) return 'A';
      const placeholder = wmGet(internal, o);
      if (placeholder !== undefined) return placeholder;
      const cd = getOwnPropertyDescriptor(o, 'constructor');
      if (cd !== undefined && hasOwn(cd, 'value') && typeof cd.value === 'function') {
        const fn = cd.value;
        if (valueOf(fn, 'prototype') === o && !mHas(intrinsicByValue, fn) && classifyFunction(fn) === 'F') {
          extra[count] = fn;
          return 'P';
        }
      }
      const hint = hintFor(getPrototypeOf(o));
      switch (hint) {
        case 'o': return 'o';
        case 'E': return 'E';
        case 'M': return brand(mapSize, o) ? 'M' : 'o';
        case 'S': return brand(setSize, o) ? 'S' : 'o';
        case 'D': return brand(dateGetTime, o) ? 'D' : 'o';
        case 'X': return brand(regexpSource, o) ? 'X' : 'o';
        case 'B':
          if (!brand(abByteLength, o)) return 'o';
          return bufferProblem(o) || 'B';
        case 'sab': return brand(sabByteLength, o) ? 'SharedArrayBuffer' : 'o';
        case 'V':
          if (!brand(dvBuffer, o)) return 'o';
          return bufferProblem(apply(dvBuffer, o, [])) || 'V';
        case 'T':
          if (apply(taTag, o, []) === undefined) return 'o';
          return bufferProblem(apply(taBuffer, o, [])) || 'T';
        case 'wn': return brand(numberValueOf, o) ? 'W' : 'o';
        case 'ws': return brand(stringValueOf, o) ? 'W' : 'o';
        case 'wb': return brand(booleanValueOf, o) ? 'W' : 'o';
        case 'wi': return brand(bigintValueOf, o) ? 'W' : 'o';
        case 'wy': return brand(symbolValueOf, o) ? 'symbol' : 'o';
        case 'wm': return brand(weakMapHas, o, {}) ? 'WeakMap' : 'o';
        case 'wset': return brand(weakSetHas, o, {}) ? 'WeakSet' : 'o';
        case 'wr': return brand(weakRefDeref, o) ? 'WeakRef' : 'o';
        default: return hint; // promise, generator, iterator, ...: recognised by prototype alone
      }
    }

    function ref(o, p, k, kd) {
      const known = mGet(ids, o);
      if (known !== undefined) return '[' + known + ']';
      const iname = mGet(intrinsicByValue, o);
      if (iname !== undefined) return '["i",' + quote(iname) + ']';
      let c;
      try {
        c = classify(o);
      } catch (e) {
        c = 'object'; // e.g. a Proxy trap threw
      }
      if (c.length > 1) return residue(c, p, k, kd);
      const id = count++;
      mSet(ids, o, id);
      objects[id] = o;
      kinds[id] = c;
      parent[id] = p;
      pkey[id] = k;
      pkind[id] = kd;
      root[id] = p < 0 ? k : root[p];
      return '[' + id + ']';
    }

    function val(v, p, k, kd) {
      switch (typeof v) {
        case 'string': return quote(v);
        case 'number':
          if (v !== v) return '["NaN"]';
          if (v === Infinity) return '["Infinity"]';
          if (v === -Infinity) return '["-Infinity"]';
          if (v === 0 && 1 / v < 0) return '["-0"]';
          return '' + v;
        case 'boolean': return v ? 'true' : 'false';
        case 'undefined': return '["u"]';
        case 'bigint': return '["n","' + v + '"]';
        case 'symbol': {
          const iname = mGet(intrinsicByValue, v);
          if (iname !== undefined) return '["i",' + quote(iname) + ']';
          const key = symbolKeyFor(v);
          if (key !== undefined) return '["y",' + quote(key) + ']';
          return residue('symbol', p, k, kd);
        }
        default:
          return v === null ? 'null' : ref(v, p, k, kd);
      }
    }

    function accessor(d, p, k, kd) {
      const type = wmGet(internal, d.get);
      if (type !== undefined) return residue(type, p, k, kd);
      const g = d.get === undefined ? '["u"]' : val(d.get, p, k, kd);
      const s = d.set === undefined ? '["u"]' : val(d.set, p, k, kd);
      if (isResidue(g) || isResidue(s)) return residue('accessor', p, k, kd);
      return '["g",' + g + ',' + s + ']';
    }

    function descriptor(o, k) {
      try {
        return getOwnPropertyDescriptor(o, k);
      } catch (e) {
        return undefined; // a Proxy trap or V8's lazy Error.stack formatting threw: skip the property
      }
    }
    function prop(o, id, k, kd, enumerableOnly) {
      const d = descriptor(o, k);
      if (d === undefined || (enumerableOnly && !d.enumerable)) return;
      out(',' + quote(k) + ',' + (hasOwn(d, 'value') ? val(d.value, id, k, kd) : accessor(d, id, k, kd)));
    }
    function props(o, id) {
      const keys = getOwnPropertyNames(o);
      for (let i = 0; i < keys.length; i++) prop(o, id, keys[i], 0, true);
    }
    function protoField(proto, usual, id) {
      if (proto === usual) return '0';
      if (proto === null) return 'null';
      const s = val(proto, id, '', 5);
      return isResidue(s) ? '0' : s;
    }

    function plainObject(o, id) {
      const proto = protoField(getPrototypeOf(o), ObjectProto, id);
      const keys = getOwnPropertyNames(o);
      let shape = proto;
      let values = '';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const d = descriptor(o, k);
        if (d === undefined || !d.enumerable) continue;
        shape += ',' + quote(k);
        values += ',' + (hasOwn(d, 'value') ? val(d.value, id, k, 0) : accessor(d, id, k, 0));
      }
      let si = mGet(shapes, shape);
      if (si === undefined) {
        si = shapeCount++;
        mSet(shapes, shape, si);
        shapeTexts[si] = shape;
        size += shape.length + 3;
        if (size > LIMIT) {
          exceeded = true;
          throw tooBig();
        }
      }
      out('["o",' + si + values + ']');
    }

    function array(o, id) {
      const keys = getOwnPropertyNames(o);
      const len = valueOf(o, 'length');
      let nIdx = 0;
      while (nIdx < keys.length && (keys[nIdx] === '' + nIdx || isIndexKey(keys[nIdx]))) nIdx++;
      const proto = getPrototypeOf(o);
      let extraKeys = false;
      for (let i = nIdx; i < keys.length && !extraKeys; i++) {
        if (keys[i] === 'length') continue;
        const d = getOwnPropertyDescriptor(o, keys[i]);
        extraKeys = d !== undefined && d.enumerable;
      }
      if (nIdx === len && proto === ArrayProto && !extraKeys) {
        out('["a"');
        for (let i = 0; i < len; i++) prop1(o, id, i);
        out(']');
        return;
      }
      const dense = nIdx * 2 >= len;
      out('["A",' + len + ',');
      if (dense) {
        out('[');
        for (let i = 0; i < len; i++) {
          const d = getOwnPropertyDescriptor(o, i);
          out((i === 0 ? '' : ',') + (d === undefined ? '["h"]'
            : hasOwn(d, 'value') ? val(d.value, id, i, 1) : accessor(d, id, i, 1)));
        }
        out(']');
      } else {
        out('0');
      }
      out(',' + protoField(proto, ArrayProto, id));
      for (let i = dense ? nIdx : 0; i < keys.length; i++) {
        if (keys[i] !== 'length') prop(o, id, keys[i], i < nIdx ? 1 : 0, true);
      }
      out(']');
    }
    function prop1(o, id, i) {
      const d = getOwnPropertyDescriptor(o, i);
      out(',' + (d === undefined ? '["u"]' : hasOwn(d, 'value') ? val(d.value, id, i, 1) : accessor(d, id, i, 1)));
    }

    function hasEnumerableKeys(o) {
      const keys = getOwnPropertyNames(o);
      for (let i = 0; i < keys.length; i++) {
        const d = getOwnPropertyDescriptor(o, keys[i]);
        if (d !== undefined && d.enumerable) return true;
      }
      return false;
    }

    function func(o, id) {
      const name = valueOf(o, 'name');
      let protoV = '0';
      const p = valueOf(o, 'prototype');
      if (typeof p === 'object' && p !== null) {
        const pp = getPrototypeOf(p);
        const natural = valueOf(p, 'constructor') === o ||
          ((pp === GeneratorProto || pp === AsyncGeneratorProto) && getOwnPropertyNames(p).length === 0);
        if (!natural || hasEnumerableKeys(p)) {
          protoV = val(p, id, 'prototype', 0);
          if (isResidue(protoV)) protoV = '0';
        }
      }
      out('["F",' + quote(mGet(fnSource, o)) + ',' + mGet(fnForm, o) + ',' +
        (typeof name === 'string' ? quote(name) : 'null') + ',' + protoV + ',' + quote(pathOf(id)));
      props(o, id);
      out(']');
    }

    function protoOfFunction(o, id) {
      const fn = extra[id];
      val(fn, id, 'constructor', 0);
      out('["P",' + mGet(ids, fn) + ',' + protoField(getPrototypeOf(o), ObjectProto, id));
      props(o, id);
      out(']');
    }

    function map(o, id) {
      out('["M",' + protoField(getPrototypeOf(o), MapProto, id) + ',[');
      const it = apply(mapEntries, o, []);
      for (let i = 0; ; i++) {
        const r = apply(mapIterNext, it, []);
        if (r.done) break;
        const e = r.value;
        out((i === 0 ? '' : ',') + val(e[0], id, i, 2) + ',' + val(e[1], id, i, 3));
      }
      out(']');
      props(o, id);
      out(']');
    }

    function set(o, id) {
      out('["S",' + protoField(getPrototypeOf(o), SetProto, id) + ',[');
      const it = apply(setValues, o, []);
      for (let i = 0; ; i++) {
        const r = apply(setIterNext, it, []);
        if (r.done) break;
        out((i === 0 ? '' : ',') + val(r.value, id, i, 4));
      }
      out(']');
      props(o, id);
      out(']');
    }

    function date(o, id) {
      out('["D",' + protoField(getPrototypeOf(o), DateProto, id) + ',' + val(apply(dateGetTime, o, []), id, '', 0));
      props(o, id);
      out(']');
    }

    function regexp(o, id) {
      let flags = '';
      for (let i = 0; i < FLAG_GETTERS.length; i++) {
        if (apply(FLAG_GETTERS[i][1], o, [])) flags += FLAG_GETTERS[i][0];
      }
      const li = valueOf(o, 'lastIndex');
      out('["X",' + protoField(getPrototypeOf(o), RegExpProto, id) + ',' + quote(apply(regexpSource, o, [])) + ',' +
        quote(flags) + ',' + (typeof li === 'number' && li >= 0 && li <= 9007199254740991 ? '' + li : '0'));
      props(o, id);
      out(']');
    }

    function error(o, id) {
      out('["E",' + protoField(getPrototypeOf(o), ErrorProto, id) + ',[');
      const hidden = ['message', 'stack', 'cause', 'errors'];
      let first = true;
      for (let i = 0; i < hidden.length; i++) {
        const k = hidden[i];
        const d = descriptor(o, k); // V8 formats stack lazily, possibly via a guest Error.prepareStackTrace
        let s;
        if (d === undefined) {
          if (k === 'stack' && protoStackGetter !== undefined) {
            let stack;
            try {
              stack = apply(protoStackGetter, o, []);
            } catch (e) {
              stack = undefined;
            }
            if (typeof stack === 'string') s = quote(stack);
          }
        } else if (!d.enumerable) {
          if (hasOwn(d, 'value')) {
            if (k !== 'stack' || typeof d.value === 'string') s = val(d.value, id, k, 0);
          } else if (k === 'stack' && d.get !== undefined && d.get === ownStackGetter) {
            let stack;
            try {
              stack = apply(ownStackGetter, o, []);
            } catch (e) {
              stack = undefined;
            }
            if (typeof stack === 'string') s = quote(stack);
          } else {
            s = accessor(d, id, k, 0);
          }
        }
        if (s !== undefined) {
          out((first ? '' : ',') + '"' + k + '",' + s);
          first = false;
        }
      }
      out(']');
      props(o, id);
      out(']');
    }

    function buffer(o) {
      const n = apply(abByteLength, o, []);
      const encodedLength = 4 * ((n + 2 - ((n + 2) % 3)) / 3);
      if (size + encodedLength > LIMIT) {
        exceeded = true;
        throw tooBig();
      }
      let max = -1;
      if (abResizable !== undefined && apply(abResizable, o, [])) max = apply(abMaxByteLength, o, []);
      out('["B","' + base64Encode(new U8(o), n) + '",' + max + ']');
    }

    function typed(o, id) {
      const b = apply(taBuffer, o, []);
      val(b, id, 'buffer', 0);
      out('["T",' + quote(apply(taTag, o, [])) + ',' + mGet(ids, b) + ',' + apply(taByteOffset, o, []) + ',' +
        apply(taLength, o, []) + ']');
    }

    function dataView(o, id) {
      const b = apply(dvBuffer, o, []);
      val(b, id, 'buffer', 0);
      out('["V",' + mGet(ids, b) + ',' + apply(dvByteOffset, o, []) + ',' + apply(dvByteLength, o, []) + ']');
    }

    function boxed(o, id) {
      let v;
      if (brand(numberValueOf, o)) v = apply(numberValueOf, o, []);
      else if (brand(stringValueOf, o)) v = apply(stringValueOf, o, []);
      else if (brand(booleanValueOf, o)) v = apply(booleanValueOf, o, []);
      else v = apply(bigintValueOf, o, []);
      out('["W",' + val(v, id, '', 0) + ']');
    }

    // Globals.
    out('{"v":' + VERSION + ',"g":[');
    const seen = privateSet();
    const n = names.length;
    let first = true;
    for (let i = 0; i < n; i++) {
      const name = names[i];
      if (typeof name !== 'string') throw new TypeErrorCtor('encode expects an array of global names');
      if (seen.has(name)) continue;
      seen.add(name);
      const d = getOwnPropertyDescriptor(G, name);
      if (d === undefined) continue;
      out((first ? '' : ',') + quote(name) + ',' + (hasOwn(d, 'value') ? val(d.value, -1, name, 0)
        : accessor(d, -1, name, 0)));
      first = false;
    }
    out('],"h":[');

    // The object table, breadth first: ids are handed out in discovery order and entries written in id order.
    // If reading an object fails half way (a Proxy trap or a guest Error.prepareStackTrace threw), its entry is
    // rewound and written as a residue entry instead.
    for (let id = 0; id < count; id++) {
      if (id > 0) out(',');
      const o = objects[id];
      objects[id] = undefined;
      const mark = np;
      const markSize = size;
      try {
        entry(o, id);
      } catch (e) {
        if (exceeded) throw e;
        np = mark;
        parts.length = mark;
        size = markSize;
        out('["R","object",' + quote(pathOf(id)) + ']');
      }
    }
    function entry(o, id) {
      switch (kinds[id]) {
        case 'o': plainObject(o, id); break;
        case 'A': array(o, id); break;
        case 'F': func(o, id); break;
        case 'P': protoOfFunction(o, id); break;
        case 'M': map(o, id); break;
        case 'S': set(o, id); break;
        case 'D': date(o, id); break;
        case 'X': regexp(o, id); break;
        case 'E': error(o, id); break;
        case 'B': buffer(o); break;
        case 'T': typed(o, id); break;
        case 'V': dataView(o, id); break;
        default: boxed(o, id); break;
      }
    }
    out('],"s":[');
    for (let i = 0; i < shapeCount; i++) parts[np++] = (i === 0 ? '[' : ',[') + shapeTexts[i] + ']';
    parts[np++] = ']}';
    const text = apply(arrayJoin, parts, ['']);
    if (LIMIT !== Infinity && (text.length > LIMIT || (text.length * 3 > LIMIT && utf8Length(text) > LIMIT))) {
      throw tooBig();
    }
    return text;
  }

  // ------------------------------------------------------------------------------------------------------------
  // decode
  const FIXED = { __proto__: null, P: 3, A: 4, F: 6, M: 3, S: 3, D: 3, X: 5, E: 3, B: 3, T: 5, V: 4, W: 2, R: 3 };
  const EXACT = { __proto__: null, B: true, T: true, V: true, W: true, R: true };
  const HIDDEN_ERROR_KEYS = { __proto__: null, message: true, stack: true, cause: true, errors: true };

  function bad(message) {
    throw new ErrorCtor('invalid snapshot: ' + message);
  }

  function decode(text) {
    if (typeof text !== 'string') bad('expected a string');
    let rootValue;
    try {
      rootValue = jsonParse(text);
    } catch (e) {
      bad('not valid JSON');
    }
    if (typeof rootValue !== 'object' || rootValue === null || isArray(rootValue)) bad('expected a JSON object');
    if (getOwnPropertyNames(rootValue).length !== 4 || !hasOwn(rootValue, 'v') || !hasOwn(rootValue, 'g') ||
      !hasOwn(rootValue, 'h') || !hasOwn(rootValue, 's')) bad('unexpected top-level fields');
    if (rootValue.v !== VERSION) bad('unsupported version');
    const globals = rootValue.g;
    const heap = rootValue.h;
    const shapes = rootValue.s;
    if (!isArray(globals) || (globals.length & 1) !== 0) bad('"g" must be a list of name/value pairs');
    if (!isArray(heap)) bad('"h" must be a list');
    if (!isArray(shapes)) bad('"s" must be a list');
    const n = heap.length;

    // ---- validation (no side effects) ----
    const kinds = list();
    const ready = list(); // regexps, buffers and views built during validation

    function isRef(x) {
      return isArray(x) && x.length === 1 && typeof x[0] === 'number' && isInteger(x[0]) && x[0] >= 0 && x[0] < n;
    }
    function checkValue(x, where, allowHole, allowAccessor) {
      const t = typeof x;
      if (t === 'string' || t === 'boolean' || t === 'number' || x === null) return;
      if (!isArray(x) || x.length === 0) bad('malformed value in ' + where);
      const tag = x[0];
      if (typeof tag === 'number') {
        if (!isRef(x)) bad('bad reference in ' + where);
        return;
      }
      const len = x.length;
      switch (tag) {
        case 'u': case 'NaN': case 'Infinity': case '-Infinity': case '-0':
          if (len === 1) return;
          break;
        case 'h':
          if (allowHole && len === 1) return;
          break;
        case 'n':
          if (len === 2 && typeof x[1] === 'string' && test(BIGINT_RE, x[1])) return;
          break;
        case 'y':
          if (len === 2 && typeof x[1] === 'string') return;
          break;
        case 'i':
          if (len === 2 && typeof x[1] === 'string') {
            if (!mHas(intrinsicByName, x[1])) bad('unknown intrinsic ' + quote(x[1]) + ' in ' + where);
            return;
          }
          break;
        case 'r':
          if (len === 3 && typeof x[1] === 'string' && typeof x[2] === 'string') return;
          break;
        case 'g':
          if (allowAccessor && len === 3) {
            checkFunctionValue(x[1], where);
            checkFunctionValue(x[2], where);
            return;
          }
          break;
      }
      bad('malformed value in ' + where);
    }
    function checkFunctionValue(x, where) {
      if (isArray(x) && x.length === 1 && x[0] === 'u') return;
      if (isRef(x) && (kinds[x[0]] === 'F' || kinds[x[0]] === 'R')) return;
      if (isArray(x) && x.length === 2 && x[0] === 'i' && typeof x[1] === 'string' &&
        typeof mGet(intrinsicByName, x[1]) === 'function') return;
      bad('accessor functions must be functions in ' + where);
    }
    function checkObject(x, where, allowZero, allowNull) {
      if ((x === 0 && allowZero) || (x === null && allowNull) || isRef(x)) return;
      if (isArray(x) && x.length === 2 && x[0] === 'i' && typeof x[1] === 'string' &&
        isObject(mGet(intrinsicByName, x[1]))) return;
      bad('expected an object reference in ' + where);
    }
    function checkProps(e, start, where, noLength) {
      for (let j = start; j < e.length; j += 2) {
        if (typeof e[j] !== 'string') bad('property keys must be strings in ' + where);
        if (noLength && e[j] === 'length') bad('arrays cannot restore "length" as a property in ' + where);
        checkValue(e[j + 1], where, false, true);
      }
    }
    function checkCount(x, where, max) {
      if (typeof x !== 'number' || !isInteger(x) || x < 0 || x > max) bad('bad size or offset in ' + where);
    }

    for (let i = 0; i < shapes.length; i++) {
      const sh = shapes[i];
      if (!isArray(sh) || sh.length === 0) bad('malformed shape ' + i);
      for (let j = 1; j < sh.length; j++) if (typeof sh[j] !== 'string') bad('malformed shape ' + i);
    }
    for (let i = 0; i < n; i++) {
      const e = heap[i];
      if (!isArray(e) || e.length === 0 || typeof e[0] !== 'string') bad('malformed entry ' + i);
      const k = e[0];
      if (k === 'o') {
        if (e.length < 2 || typeof e[1] !== 'number' || !isInteger(e[1]) || e[1] < 0 || e[1] >= shapes.length ||
          e.length !== shapes[e[1]].length + 1) bad('malformed entry ' + i);
      } else if (k !== 'a') {
        const fixed = FIXED[k];
        if (fixed === undefined) bad('unknown entry kind in entry ' + i);
        if (EXACT[k] ? e.length !== fixed : e.length < fixed || ((e.length - fixed) & 1) !== 0) {
          bad('wrong length of entry ' + i);
        }
      }
      kinds[i] = k;
    }
    for (let i = 0; i < shapes.length; i++) checkObject(shapes[i][0], 'shape ' + i, true, true);
    for (let i = 0; i < n; i++) {
      const e = heap[i];
      const where = 'entry ' + i;
      switch (kinds[i]) {
        case 'o':
          for (let j = 2; j < e.length; j++) checkValue(e[j], where, false, true);
          break;
        case 'a':
          for (let j = 1; j < e.length; j++) checkValue(e[j], where, false, true);
          break;
        case 'A': {
          checkCount(e[1], where, 4294967295);
          if (e[2] !== 0) {
            if (!isArray(e[2]) || e[2].length !== e[1]) bad('array elements do not match length in ' + where);
            for (let j = 0; j < e[2].length; j++) checkValue(e[2][j], where, true, true);
          }
          checkObject(e[3], where, true, true);
          checkProps(e, 4, where, true);
          break;
        }
        case 'P':
          if (!isInteger(e[1]) || e[1] < 0 || e[1] >= n || kinds[e[1]] !== 'F') bad('bad function in ' + where);
          checkObject(e[2], where, true, true);
          checkProps(e, 3, where, false);
          break;
        case 'F':
          if (typeof e[1] !== 'string' || (e[2] !== 0 && e[2] !== 1) || (typeof e[3] !== 'string' && e[3] !== null) ||
            typeof e[5] !== 'string') bad('malformed function in ' + where);
          checkObject(e[4], where, true, false);
          checkProps(e, 6, where, false);
          break;
        case 'M': {
          checkObject(e[1], where, true, true);
          const entries = e[2];
          if (!isArray(entries) || (entries.length & 1) !== 0) bad('malformed map entries in ' + where);
          for (let j = 0; j < entries.length; j++) checkValue(entries[j], where, false, false);
          checkProps(e, 3, where, false);
          break;
        }
        case 'S': {
          checkObject(e[1], where, true, true);
          if (!isArray(e[2])) bad('malformed set elements in ' + where);
          for (let j = 0; j < e[2].length; j++) checkValue(e[2][j], where, false, false);
          checkProps(e, 3, where, false);
          break;
        }
        case 'D': {
          checkObject(e[1], where, true, true);
          const t = e[2];
          if (!(typeof t === 'number' || (isArray(t) && t.length === 1 && t[0] === 'NaN'))) bad('bad time in ' + where);
          checkProps(e, 3, where, false);
          break;
        }
        case 'X': {
          checkObject(e[1], where, true, true);
          if (typeof e[2] !== 'string' || typeof e[3] !== 'string') bad('malformed regexp in ' + where);
          checkCount(e[4], where, 9007199254740991);
          let re;
          try {
            re = new RegExpCtor(e[2], e[3]);
          } catch (err) {
            bad('invalid regular expression in ' + where);
          }
          ready[i] = re;
          checkProps(e, 5, where, false);
          break;
        }
        case 'E': {
          checkObject(e[1], where, true, true);
          const hidden = e[2];
          if (!isArray(hidden) || (hidden.length & 1) !== 0) bad('malformed error fields in ' + where);
          for (let j = 0; j < hidden.length; j += 2) {
            if (typeof hidden[j] !== 'string' || HIDDEN_ERROR_KEYS[hidden[j]] !== true) {
              bad('bad error field in ' + where);
            }
            checkValue(hidden[j + 1], where, false, true);
          }
          checkProps(e, 3, where, false);
          break;
        }
        case 'B': {
          if (typeof e[1] !== 'string' || !test(BASE64_RE, e[1])) bad('bad base64 in ' + where);
          const len = base64Length(e[1]);
          if (e[2] !== -1) checkCount(e[2], where, 9007199254740991);
          if (e[2] !== -1 && e[2] < len) bad('maxByteLength below byteLength in ' + where);
          let b;
          try {
            b = e[2] >= 0 && abResizable !== undefined
              ? new ArrayBufferCtor(len, { __proto__: null, maxByteLength: e[2] })
              : new ArrayBufferCtor(len);
          } catch (err) {
            bad('cannot allocate the buffer of ' + where);
          }
          base64Decode(e[1], new U8(b));
          ready[i] = b;
          break;
        }
        case 'R':
          if (typeof e[1] !== 'string' || typeof e[2] !== 'string') bad('malformed residue in ' + where);
          break;
        default:
          break;
      }
    }
    // Views after all buffers exist (a view on a buffer that could not be saved is a residue too).
    for (let i = 0; i < n; i++) {
      const e = heap[i];
      const where = 'entry ' + i;
      if (kinds[i] === 'T') {
        const info = typeof e[1] === 'string' ? TYPED[e[1]] : undefined;
        if (info === undefined) bad('unknown typed array type in ' + where);
        if (!isInteger(e[2]) || e[2] < 0 || e[2] >= n || (kinds[e[2]] !== 'B' && kinds[e[2]] !== 'R')) {
          bad('bad buffer in ' + where);
        }
        checkCount(e[3], where, 9007199254740991);
        checkCount(e[4], where, 9007199254740991);
        if (kinds[e[2]] === 'R') continue;
        const bytes = apply(abByteLength, ready[e[2]], []);
        if (e[3] % info[1] !== 0 || e[3] + e[4] * info[1] > bytes) bad('view out of range in ' + where);
        ready[i] = new info[0](ready[e[2]], e[3], e[4]);
      } else if (kinds[i] === 'V') {
        if (!isInteger(e[1]) || e[1] < 0 || e[1] >= n || (kinds[e[1]] !== 'B' && kinds[e[1]] !== 'R')) {
          bad('bad buffer in ' + where);
        }
        checkCount(e[2], where, 9007199254740991);
        checkCount(e[3], where, 9007199254740991);
        if (kinds[e[1]] === 'R') continue;
        if (e[2] + e[3] > apply(abByteLength, ready[e[1]], [])) bad('view out of range in ' + where);
        ready[i] = new DataViewCtor(ready[e[1]], e[2], e[3]);
      } else if (kinds[i] === 'W') {
        const x = e[1];
        const t = typeof x;
        if (!(t === 'string' || t === 'number' || t === 'boolean' || (isArray(x) && (x.length === 1 &&
          (x[0] === 'NaN' || x[0] === 'Infinity' || x[0] === '-Infinity' || x[0] === '-0') ||
          (x.length === 2 && x[0] === 'n' && typeof x[1] === 'string' && test(BIGINT_RE, x[1])))))) {
          bad('bad boxed primitive in ' + where);
        }
      }
    }
    const nameSet = privateSet();
    for (let j = 0; j < globals.length; j += 2) {
      const name = globals[j];
      if (typeof name !== 'string') bad('global names must be strings');
      if (nameSet.has(name)) bad('duplicate global ' + quote(name));
      nameSet.add(name);
      checkValue(globals[j + 1], 'global ' + quote(name), false, true);
    }

    // ---- apply ----
    const objects = list();

    function residueRecord(type, path) {
      const r = { __proto__: null, type, path };
      wsAdd(residueRecords, r);
      return r;
    }
    const isResidueRecord = (v) => typeof v === 'object' && v !== null && wsHas(residueRecords, v);

    function value(x) {
      if (typeof x !== 'object' || x === null) return x;
      const tag = x[0];
      if (typeof tag === 'number') return objects[tag];
      switch (tag) {
        case 'u': return undefined;
        case 'NaN': return NaN;
        case 'Infinity': return Infinity;
        case '-Infinity': return -Infinity;
        case '-0': return -0;
        case 'n': return BigIntCtor(x[1]);
        case 'y': return symbolFor(x[1]);
        case 'i': return mGet(intrinsicByName, x[1]);
        case 'r': return residueRecord(x[1], x[2]);
        case 'h': return HOLE;
        default: {
          const r = { __proto__: null, get: value(x[1]), set: value(x[2]) };
          wsAdd(accessorRecords, r);
          return r;
        }
      }
    }

    function put(obj, key, v, enumerable) {
      if (typeof v === 'object' && v !== null) {
        if (wsHas(residueRecords, v)) return defineResidue(obj, key, v.type, v.path, enumerable);
        if (wsHas(accessorRecords, v)) {
          if (isResidueRecord(v.get)) return defineResidue(obj, key, 'accessor', v.get.path, enumerable);
          if (isResidueRecord(v.set)) return defineResidue(obj, key, 'accessor', v.set.path, enumerable);
          return defineProp(obj, key, { __proto__: null, get: v.get, set: v.set, enumerable, configurable: true });
        }
        if (v === HOLE) return true;
      }
      return defineProp(obj, key, dataDescriptor(v, enumerable));
    }
    function putProps(obj, e, start) {
      for (let j = start; j < e.length; j += 2) put(obj, e[j], value(e[j + 1]), true);
    }
    function inCollection(v) {
      return isResidueRecord(v) ? residuePlaceholder(v.type, v.path) : v;
    }
    function fixProto(obj, field, usual) {
      const target = field === 0 ? usual : value(field);
      if (isResidueRecord(target)) return;
      if (getPrototypeOf(obj) !== target) setProto(obj, target);
    }

    // 1. Functions and classes first (instances need their prototypes). Global functions are defined as soon as
    // they exist, so a later class can extend them; a class that needs a global not yet restored is retried.
    const functionGlobals = privateMap();
    for (let j = 0; j < globals.length; j += 2) {
      const x = globals[j + 1];
      if (isRef(x) && kinds[x[0]] === 'F') {
        let l = mGet(functionGlobals, x[0]);
        if (l === undefined) mSet(functionGlobals, x[0], l = list());
        l[l.length] = globals[j];
      }
    }
    let pending = list();
    for (let i = 0; i < n; i++) if (kinds[i] === 'F') pending[pending.length] = i;
    const definedEarly = privateSet();
    for (let progress = true; pending.length > 0 && progress;) {
      progress = false;
      const next = list();
      for (let j = 0; j < pending.length; j++) {
        const i = pending[j];
        const e = heap[i];
        const ok = e[2] === 0 ? expressionSourceOk(e[1]) : methodSourceOk(e[1]);
        let fn;
        let retry = false;
        if (ok) {
          try {
            fn = evaluate(e[1], e[2]);
          } catch (err) {
            fn = undefined;
            retry = isObject(err) && apply(isPrototypeOf, ReferenceErrorProto, [err]);
          }
        }
        if (fn !== undefined) {
          objects[i] = fn;
          progress = true;
          const l = mGet(functionGlobals, i);
          if (l !== undefined) {
            for (let m = 0; m < l.length; m++) {
              if (defineProp(G, l[m], dataDescriptor(fn, true))) definedEarly.add(l[m]);
            }
          }
        } else if (retry) {
          next[next.length] = i;
        } else {
          objects[i] = residueRecord('function', e[5]);
        }
      }
      pending = next;
    }
    for (let j = 0; j < pending.length; j++) objects[pending[j]] = residueRecord('function', heap[pending[j]][5]);

    // 2. Empty shells for everything else, so references can be wired in any order.
    for (let i = 0; i < n; i++) {
      const e = heap[i];
      switch (kinds[i]) {
        case 'o': objects[i] = {}; break;
        case 'a': case 'A': objects[i] = []; break;
        case 'P': {
          const fn = objects[e[1]];
          const p = typeof fn === 'function' ? valueOf(fn, 'prototype') : undefined;
          objects[i] = typeof p === 'object' && p !== null ? p : {};
          break;
        }
        case 'M': objects[i] = new MapCtor(); break;
        case 'S': objects[i] = new SetCtor(); break;
        case 'D': objects[i] = new DateCtor(typeof e[2] === 'number' ? e[2] : NaN); break;
        case 'E': objects[i] = new ErrorCtor(); break;
        case 'W': objects[i] = ObjectCtor(value(e[1])); break;
        case 'F': break;
        case 'R': objects[i] = residueRecord(e[1], e[2]); break;
        default: // X, B, T, V
          if (ready[i] !== undefined) objects[i] = ready[i];
          else objects[i] = residueRecord('object', heap[kinds[i] === 'T' ? e[2] : e[1]][2]); // view on an "R"
          break;
      }
    }

    // 3. Fill them in.
    for (let i = 0; i < n; i++) {
      const e = heap[i];
      const obj = objects[i];
      switch (kinds[i]) {
        case 'o': {
          const shape = shapes[e[1]];
          fixProto(obj, shape[0], ObjectProto);
          for (let j = 1; j < shape.length; j++) put(obj, shape[j], value(e[j + 1]), true);
          break;
        }
        case 'a':
          for (let j = 1; j < e.length; j++) put(obj, j - 1, value(e[j]), true);
          break;
        case 'A': {
          defineProp(obj, 'length', { __proto__: null, value: e[1] });
          if (e[2] !== 0) for (let j = 0; j < e[2].length; j++) put(obj, j, value(e[2][j]), true);
          fixProto(obj, e[3], ArrayProto);
          putProps(obj, e, 4);
          break;
        }
        case 'P':
          fixProto(obj, e[2], ObjectProto);
          putProps(obj, e, 3);
          break;
        case 'F': {
          if (typeof obj !== 'function') break;
          if (e[3] !== null && valueOf(obj, 'name') !== e[3]) {
            defineProp(obj, 'name',
              { __proto__: null, value: e[3], writable: false, enumerable: false, configurable: true });
          }
          if (e[4] !== 0) {
            const p = value(e[4]);
            if (isObject(p) && !isResidueRecord(p) && valueOf(obj, 'prototype') !== p) {
              defineProp(obj, 'prototype', { __proto__: null, value: p });
            }
          }
          putProps(obj, e, 6);
          break;
        }
        case 'M': {
          fixProto(obj, e[1], MapProto);
          const entries = e[2];
          for (let j = 0; j < entries.length; j += 2) {
            apply(mapSet, obj, [inCollection(value(entries[j])), inCollection(value(entries[j + 1]))]);
          }
          putProps(obj, e, 3);
          break;
        }
        case 'S':
          fixProto(obj, e[1], SetProto);
          for (let j = 0; j < e[2].length; j++) apply(setAdd, obj, [inCollection(value(e[2][j]))]);
          putProps(obj, e, 3);
          break;
        case 'D':
          fixProto(obj, e[1], DateProto);
          putProps(obj, e, 3);
          break;
        case 'X':
          fixProto(obj, e[1], RegExpProto);
          defineProp(obj, 'lastIndex', { __proto__: null, value: e[4] });
          putProps(obj, e, 5);
          break;
        case 'E': {
          const hidden = e[2];
          let hasStack = false;
          for (let j = 0; j < hidden.length; j += 2) {
            if (hidden[j] === 'stack') hasStack = true;
            put(obj, hidden[j], value(hidden[j + 1]), false);
          }
          if (!hasStack) deleteProp(obj, 'stack');
          fixProto(obj, e[1], ErrorProto);
          putProps(obj, e, 3);
          break;
        }
        default:
          break;
      }
    }

    // 4. Globals, in their original order.
    const restored = [];
    let count = 0;
    for (let j = 0; j < globals.length; j += 2) {
      const name = globals[j];
      if (definedEarly.has(name)) deleteProp(G, name);
      const v = value(globals[j + 1]);
      const ok = isResidueRecord(v) ? defineResidue(G, name, v.type, name, true) : put(G, name, v, true);
      if (ok) defineProp(restored, count++, dataDescriptor(name, true));
    }
    return restored;
  }

  function evaluate(src, form) {
    if (form === 0) {
      const fn = globalEval('(' + src + '\n)');
      if (typeof fn !== 'function') throw new TypeErrorCtor('not a function');
      return fn;
    }
    const holder = globalEval('({' + src + '\n})');
    const keys = ownKeys(holder);
    if (keys.length !== 1) throw new TypeErrorCtor('not a single method');
    const d = getOwnPropertyDescriptor(holder, keys[0]);
    const fn = hasOwn(d, 'value') ? d.value : d.get !== undefined ? d.get : d.set;
    if (typeof fn !== 'function') throw new TypeErrorCtor('not a function');
    return fn;
  }

  return { encode, decode };
})
