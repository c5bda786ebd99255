// Trusted set-up of a fresh guest context. It runs before any model code, captures the intrinsics it needs so
// later tampering with globals cannot change how results are rendered, installs console and the clock, and
// returns its helpers to the host only: nothing here is reachable from guest code.
(function (emit, options) {
  'use strict';
  const O = Object;
  const getOwnPropertyNames = O.getOwnPropertyNames;
  const getOwnPropertySymbols = O.getOwnPropertySymbols;
  const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor;
  const getPrototypeOf = O.getPrototypeOf;
  const defineProperty = O.defineProperty;
  const objectProto = O.prototype;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const stringify = JSON.stringify;
  const StringCtor = String;
  const NumberIsInteger = Number.isInteger;
  const call = (fn, self, ...args) => apply(fn, self, args);
  const fnToString = Function.prototype.toString;
  const symToString = Symbol.prototype.toString;
  const errorToString = Error.prototype.toString;
  const regexpToString = RegExp.prototype.toString;
  const dateProto = Date.prototype;
  const dateGetTime = Date.prototype.getTime;
  const dateToISOString = Date.prototype.toISOString;
  const dateToString = Date.prototype.toString;
  const mapProto = Map.prototype;
  const mapSize = getOwnPropertyDescriptor(Map.prototype, 'size').get;
  const mapEntries = Map.prototype.entries;
  const setProto = Set.prototype;
  const setSize = getOwnPropertyDescriptor(Set.prototype, 'size').get;
  const setValues = Set.prototype.values;
  const iterNext = getPrototypeOf(new Map().entries()).next;
  const setIterNext = getPrototypeOf(new Set().values()).next;
  const regexpProto = RegExp.prototype;
  const errorProto = Error.prototype;
  const promiseProto = Promise.prototype;
  const promiseThen = Promise.prototype.then;
  const PromiseCtor = Promise;
  const weakMapProto = WeakMap.prototype;
  const weakSetProto = WeakSet.prototype;
  const arrayBufferProto = ArrayBuffer.prototype;
  const arrayBufferByteLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  const typedArrayProto = getPrototypeOf(Uint8Array.prototype);
  const typedArrayTag = getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
  const typedArrayLength = getOwnPropertyDescriptor(typedArrayProto, 'length').get;
  const dataViewProto = DataView.prototype;
  const isPrototypeOf = Object.prototype.isPrototypeOf;
  const arrayJoin = Array.prototype.join;
  const arrayPush = Array.prototype.push;
  const stringSplit = String.prototype.split;
  const stringIndexOf = String.prototype.indexOf;
  const stringSlice = String.prototype.slice;
  const stringReplace = String.prototype.replace;
  const regexpTest = RegExp.prototype.test;
  const IDENT = /^(?:[A-Za-z_$][A-Za-z0-9_$]*|0|[1-9][0-9]*)$/;
  const DEFAULT_BUDGET = 100000;
  // The most characters of one string that ever cross to the host: a top-level result string, an error's name,
  // message or stack, a console line. Longer ones are cut here, in the guest, so a 500-million-character string
  // costs the host a bounded copy instead of gigabytes of Java and Python memory.
  const HOST_STRING_CAP = 1 << 20;
  // Lists the helpers build and push to: without a prototype, so index getters or setters the guest adds to
  // Array.prototype or Object.prototype (Object.defineProperty(Object.prototype, '0', {set() {...}})) never run.
  const setPrototypeOf = O.setPrototypeOf;
  const list = () => setPrototypeOf([], null);
  const clip = (s) => (s.length > HOST_STRING_CAP ? call(stringSlice, s, 0, HOST_STRING_CAP) : s);

  function protoChainHas(value, proto) {
    try {
      return call(isPrototypeOf, proto, value);
    } catch (e) {
      return false;
    }
  }

  function hasInternal(value, probe) {
    try {
      call(probe, value);
      return true;
    } catch (e) {
      return false;
    }
  }

  function functionLabel(fn) {
    let src = '';
    try {
      src = call(fnToString, fn);
    } catch (e) {
      src = '';
    }
    let name = '';
    try {
      const d = getOwnPropertyDescriptor(fn, 'name');
      if (d && typeof d.value === 'string') name = d.value;
    } catch (e) {
      name = '';
    }
    if (call(stringIndexOf, src, 'class') === 0) return name ? '[class ' + name + ']' : '[class (anonymous)]';
    let kind = 'Function';
    if (call(stringIndexOf, src, 'async') === 0) kind = 'AsyncFunction';
    if (call(regexpTest, /^(async\s*)?function\s*\*/, src)) kind = kind === 'AsyncFunction' ? 'AsyncGeneratorFunction' : 'GeneratorFunction';
    return name ? '[' + kind + ': ' + name + ']' : '[' + kind + ' (anonymous)]';
  }

  function keyLabel(key) {
    if (typeof key === 'symbol') return '[' + call(symToString, key) + ']';
    return call(regexpTest, IDENT, key) ? key : stringify(key);
  }

  function constructorName(value) {
    let proto;
    try {
      proto = getPrototypeOf(value);
    } catch (e) {
      return '';
    }
    if (proto === null) return null;
    if (proto === objectProto) return '';
    try {
      const d = getOwnPropertyDescriptor(proto, 'constructor');
      if (d && typeof d.value === 'function') {
        const n = getOwnPropertyDescriptor(d.value, 'name');
        if (n && typeof n.value === 'string') return n.value;
      }
    } catch (e) {
      return '';
    }
    return '';
  }

  // Renders any value as readable text without calling guest getters. Stops adding text past BUDGET.
  function render(value, top, budget) {
    const BUDGET = typeof budget === 'number' && budget > 0 ? budget : DEFAULT_BUDGET;
    if (top && typeof value === 'string') {
      // Kept whole up to the cap so the host's truncation marker counts exactly; beyond it, a prefix marked cut.
      const limit = BUDGET > HOST_STRING_CAP ? BUDGET : HOST_STRING_CAP;
      return value.length > limit ? [call(stringSlice, value, 0, limit), true] : [value, false];
    }
    const out = list();
    let size = 0;
    let cut = false;
    const seen = list();
    const put = (s) => {
      if (cut) return;
      if (size + s.length > BUDGET) {
        cut = true;
        call(arrayPush, out, call(stringSlice, s, 0, BUDGET - size));
        size = BUDGET;
        return;
      }
      size += s.length;
      call(arrayPush, out, s);
    };

    function props(obj, skipIndices) {
      let names;
      try {
        names = list();
        const strs = getOwnPropertyNames(obj);
        for (let i = 0; i < strs.length; i++) call(arrayPush, names, strs[i]);
        const syms = getOwnPropertySymbols(obj);
        for (let i = 0; i < syms.length; i++) call(arrayPush, names, syms[i]);
      } catch (e) {
        put('<unreadable>');
        return 0;
      }
      let count = 0;
      for (let i = 0; i < names.length && !cut; i++) {
        const k = names[i];
        if (skipIndices && typeof k === 'string' && skipIndices(k)) continue;
        let d;
        try {
          d = getOwnPropertyDescriptor(obj, k);
        } catch (e) {
          d = undefined;
        }
        if (!d || !d.enumerable) continue;
        if (count++ > 0) put(', ');
        put(keyLabel(k));
        put(': ');
        if ('value' in d) {
          one(d.value, false);
        } else {
          put(d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]');
        }
      }
      return count;
    }

    function one(v, atTop) {
      if (cut) return;
      switch (typeof v) {
        case 'undefined':
          put('undefined');
          return;
        case 'string':
          put(atTop ? v : stringify(v));
          return;
        case 'number':
          put(v === 0 && 1 / v < 0 ? '-0' : StringCtor(v));
          return;
        case 'bigint':
          put(StringCtor(v) + 'n');
          return;
        case 'boolean':
          put(v ? 'true' : 'false');
          return;
        case 'symbol':
          put(call(symToString, v));
          return;
        case 'function':
          put(functionLabel(v));
          return;
        default:
          break;
      }
      if (v === null) {
        put('null');
        return;
      }
      for (let i = 0; i < seen.length; i++) {
        if (seen[i] === v) {
          put('[Circular]');
          return;
        }
      }
      try {
        isArray(v);
      } catch (e) {
        put('<Revoked Proxy>');
        return;
      }
      if (seen.length >= 64) {
        put(isArray(v) ? '[Array]' : '[Object]');
        return;
      }
      call(arrayPush, seen, v);
      try {
        composite(v);
      } finally {
        seen.length = seen.length - 1;
      }
    }

    function arrayExtraKeys(v) {
      const extra = list();
      try {
        const names = getOwnPropertyNames(v);
        for (let i = 0; i < names.length; i++) {
          const k = names[i];
          if (k !== 'length' && !(NumberIsInteger(+k) && +k >= 0 && StringCtor(+k) === k)) call(arrayPush, extra, k);
        }
      } catch (e) {
        // An exotic array without readable keys still renders its elements.
      }
      return extra;
    }

    function composite(v) {
      if (isArray(v)) {
        put('[');
        let n = 0;
        let holes = 0;
        const len = v.length;
        const flushHoles = () => {
          if (holes > 0) {
            if (n++ > 0) put(', ');
            put('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
            holes = 0;
          }
        };
        for (let i = 0; i < len && !cut; i++) {
          let d;
          try {
            d = getOwnPropertyDescriptor(v, i);
          } catch (e) {
            d = undefined;
          }
          if (!d) {
            holes++;
            continue;
          }
          flushHoles();
          if (n++ > 0) put(', ');
          if ('value' in d) one(d.value, false);
          else put('[Getter]');
        }
        flushHoles();
        // Named properties of an array; skipped once the budget is spent, since listing keys is linear in length.
        const extra = cut ? [] : arrayExtraKeys(v);
        for (let i = 0; i < extra.length && !cut; i++) {
          const d = getOwnPropertyDescriptor(v, extra[i]);
          if (!d || !d.enumerable) continue;
          if (n++ > 0) put(', ');
          put(keyLabel(extra[i]) + ': ');
          if ('value' in d) one(d.value, false);
          else put('[Getter]');
        }
        put(']');
        return;
      }
      if (protoChainHas(v, mapProto) && hasInternal(v, mapSize)) {
        put('Map(' + call(mapSize, v) + ') {');
        const it = call(mapEntries, v);
        let n = 0;
        for (let r = call(iterNext, it); !r.done && !cut; r = call(iterNext, it)) {
          if (n++ > 0) put(', ');
          one(r.value[0], false);
          put(' => ');
          one(r.value[1], false);
        }
        put('}');
        return;
      }
      if (protoChainHas(v, setProto) && hasInternal(v, setSize)) {
        put('Set(' + call(setSize, v) + ') {');
        const it = call(setValues, v);
        let n = 0;
        for (let r = call(setIterNext, it); !r.done && !cut; r = call(setIterNext, it)) {
          if (n++ > 0) put(', ');
          one(r.value, false);
        }
        put('}');
        return;
      }
      if (protoChainHas(v, dateProto) && hasInternal(v, dateGetTime)) {
        const t = call(dateGetTime, v);
        put(t === t ? call(dateToISOString, v) : 'Invalid Date');
        return;
      }
      if (protoChainHas(v, regexpProto) && hasInternal(v, getOwnPropertyDescriptor(regexpProto, 'source').get)) {
        put(call(regexpToString, v));
        return;
      }
      if (protoChainHas(v, errorProto)) {
        let text;
        try {
          text = call(errorToString, v);
        } catch (e) {
          text = 'Error';
        }
        put(text);
        return;
      }
      if (protoChainHas(v, promiseProto)) {
        put('Promise {}');
        return;
      }
      if (protoChainHas(v, weakMapProto) || protoChainHas(v, weakSetProto)) {
        put((protoChainHas(v, weakMapProto) ? 'WeakMap' : 'WeakSet') + ' { <items unknown> }');
        return;
      }
      if (hasInternal(v, typedArrayTag) && call(typedArrayTag, v) !== undefined) {
        const len = call(typedArrayLength, v);
        put(call(typedArrayTag, v) + '(' + len + ') [');
        for (let i = 0; i < len && !cut; i++) {
          if (i > 0) put(', ');
          one(v[i], false);
        }
        put(']');
        return;
      }
      if (protoChainHas(v, arrayBufferProto) && hasInternal(v, arrayBufferByteLength)) {
        put('ArrayBuffer { byteLength: ' + call(arrayBufferByteLength, v) + ' }');
        return;
      }
      if (protoChainHas(v, dataViewProto)) {
        put('DataView {}');
        return;
      }
      const name = constructorName(v);
      if (name === null) put('[Object: null prototype] ');
      else if (name && name !== 'Object') put(name + ' ');
      put('{');
      props(v, null);
      put('}');
    }

    one(value, top);
    return [call(arrayJoin, out, ''), cut];
  }

  function describeError(e) {
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      let name = '';
      let message = '';
      let stack = '';
      try {
        const n = e.name;
        if (typeof n === 'string' && n) name = n;
      } catch (x) {
        name = '';
      }
      try {
        const m = e.message;
        if (typeof m === 'string') message = m;
        else if (m !== undefined) message = render(m, true)[0];
      } catch (x) {
        message = '';
      }
      try {
        const s = e.stack;
        if (typeof s === 'string') stack = s;
      } catch (x) {
        stack = '';
      }
      if (!name) {
        if (protoChainHas(e, errorProto)) name = constructorName(e) || 'Error';
        else {
          name = 'Error';
          if (!message) message = render(e, true)[0];
        }
      }
      // The name becomes the envelope's type attribute, which is not truncated there: keep it short.
      if (name.length > 256) name = call(stringSlice, name, 0, 256);
      return [name, clip(message), cleanStack(clip(stack))];
    }
    return ['Error', render(e, true)[0], ''];
  }

  // Keeps only frames that point into the model's code.
  function cleanStack(stack) {
    if (!stack) return '';
    const lines = call(stringSplit, stack, '\n');
    const keep = list();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (call(regexpTest, /^\s+at /, line) && call(regexpTest, /\bcell:\d+:\d+/, line)) {
        call(arrayPush, keep, call(stringReplace, line, /^\s+/, '    '));
      }
    }
    return call(arrayJoin, keep, '\n');
  }

  function consoleLine(args) {
    const parts = list();
    for (let i = 0; i < args.length; i++) {
      // Strings are joined whole (the guest already holds them), so the host can count the line's full length.
      const a = args[i];
      call(arrayPush, parts, typeof a === 'string' ? a : render(a, true)[0]);
    }
    return call(arrayJoin, parts, ' ');
  }

  const g = globalThis;
  for (const name of ['print', 'printErr', 'console', 'quit', 'read', 'readline', 'readbuffer', 'load', 'loadWithNewGlobal', 'Graal', 'Polyglot', 'Java', 'Packages', 'java', 'javax', 'javafx', 'com', 'org', 'edu']) {
    try {
      delete g[name];
    } catch (e) {
      // A name that cannot be deleted is checked by the tests to be absent or harmless.
    }
  }

  if (options.captureConsole) {
    // A line is sent as its first HOST_STRING_CAP characters and its full length, which the host counts.
    const make = () =>
      function () {
        const line = consoleLine(arguments);
        emit(clip(line), line.length);
      };
    const c = {};
    for (const m of ['log', 'info', 'debug', 'warn', 'error', 'trace']) {
      defineProperty(c, m, { value: make(), writable: true, enumerable: true, configurable: true });
    }
    defineProperty(g, 'console', { value: c, writable: true, enumerable: false, configurable: true });
  }

  if (options.frozenClock) {
    const RealDate = Date;
    const fixed = options.epochMillis;
    const frozenNow = function now() { return fixed; };
    // The proxy below only answers `Date.now` reads; its target's own `now` is reachable through property
    // descriptors (Object.getOwnPropertyDescriptor(Date, 'now').value()), so it is replaced as well.
    defineProperty(RealDate, 'now', { value: frozenNow, writable: true, enumerable: false, configurable: true });
    // Intl.DateTimeFormat formats "now" when given no date: format() and formatToParts() get the frozen instant.
    const dtfProto = typeof Intl === 'object' && Intl !== null ? Intl.DateTimeFormat.prototype : undefined;
    if (dtfProto !== undefined) {
      const formatGetter = getOwnPropertyDescriptor(dtfProto, 'format').get;
      const realFormatToParts = dtfProto.formatToParts;
      const formats = new WeakMap();
      const weakGet = WeakMap.prototype.get;
      const weakSet = WeakMap.prototype.set;
      defineProperty(dtfProto, 'format', {
        get() {
          const bound = call(formatGetter, this);
          // One function per formatter, as the spec's cached bound format.
          let format = call(weakGet, formats, this);
          if (format === undefined) {
            format = function (date) {
              return bound(date === undefined ? fixed : date);
            };
            call(weakSet, formats, this, format);
          }
          return format;
        },
        enumerable: false,
        configurable: true,
      });
      defineProperty(dtfProto, 'formatToParts', {
        value: function formatToParts(date) {
          return call(realFormatToParts, this, date === undefined ? fixed : date);
        },
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
    // A plain function rather than a Proxy: `new Date(x)` is in the inner loop of much model code, and a construct
    // trap (with its arguments array) runs several times slower than a direct construction. The argument count
    // decides, as in Date itself: `new Date(2024, 1)` and `new Date(2024, 1, undefined)` differ.
    const FrozenDate = function Date(year, month, day, hours, minutes, seconds, millis) {
      if (new.target === undefined) return call(dateToString, new RealDate(fixed));
      const n = arguments.length;
      if (new.target !== FrozenDate) return construct(RealDate, n === 0 ? [fixed] : [...arguments], new.target);
      switch (n) {
        case 0: return new RealDate(fixed);
        case 1: return new RealDate(year);
        case 2: return new RealDate(year, month);
        case 3: return new RealDate(year, month, day);
        case 4: return new RealDate(year, month, day, hours);
        case 5: return new RealDate(year, month, day, hours, minutes);
        case 6: return new RealDate(year, month, day, hours, minutes, seconds);
        default: return new RealDate(year, month, day, hours, minutes, seconds, millis);
      }
    };
    defineProperty(FrozenDate, 'prototype', { value: dateProto, writable: false, enumerable: false, configurable: false });
    for (const key of ['UTC', 'parse']) {
      defineProperty(FrozenDate, key, { value: RealDate[key], writable: true, enumerable: false, configurable: true });
    }
    defineProperty(FrozenDate, 'now', { value: frozenNow, writable: true, enumerable: false, configurable: true });
    defineProperty(dateProto, 'constructor', { value: FrozenDate, writable: true, enumerable: false, configurable: true });
    defineProperty(g, 'Date', { value: FrozenDate, writable: true, enumerable: false, configurable: true });
  }

  if (typeof g.queueMicrotask !== 'function') {
    const queueMicrotask = function queueMicrotask(callback) {
      if (typeof callback !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
      call(promiseThen, new PromiseCtor((resolve) => resolve()), () => callback());
    };
    defineProperty(g, 'queueMicrotask', { value: queueMicrotask, writable: true, enumerable: false, configurable: true });
  }


  // Host calls: `tools.<name>(input)` and `task(spec)`. Each call hands its input to the host as JSON and returns
  // a pending Promise that the host settles later on this thread. Everything used here was captured above, before
  // any model code ran, so a guest that replaces JSON, Promise or prototype methods cannot change what is sent.
  const hostCall = options.hostCall;
  const pendingCalls = new Map();
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  const mapClear = Map.prototype.clear;
  const SetCtor = Set;
  const setAdd = Set.prototype.add;
  const setDelete = Set.prototype.delete;
  const jsonParse = JSON.parse;
  const keysOf = O.keys;
  const freeze = O.freeze;
  const createObject = O.create;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const BigIntCtor = BigInt;
  const bigintToString = BigInt.prototype.toString;
  const Uint8ArrayCtor = Uint8Array;
  const isView = ArrayBuffer.isView;
  const numberIsFinite = Number.isFinite;
  const numberToExponential = Number.prototype.toExponential;
  const MAX_INPUT_DEPTH = 64;
  const TAG_BIGINT = '\u0000bigint';
  const TAG_BYTES = '\u0000bytes';
  const TAG_NUMBER = '\u0000number';

  function hostError(type, message, detail) {
    const e = new ErrorCtor(message);
    defineProperty(e, 'name', { value: type, writable: true, enumerable: false, configurable: true });
    // fs errors carry Node's fields (code, path, syscall) as own properties, so `e.code === 'ENOENT'` works.
    if (detail !== null && typeof detail === 'object' && typeof detail.code === 'string') {
      defineProperty(e, 'code', { value: detail.code, writable: true, enumerable: true, configurable: true });
      if (typeof detail.path === 'string') defineProperty(e, 'path', { value: detail.path, writable: true, enumerable: true, configurable: true });
      if (typeof detail.syscall === 'string') defineProperty(e, 'syscall', { value: detail.syscall, writable: true, enumerable: true, configurable: true });
    }
    return e;
  }

  function rejectWith(error) {
    return new PromiseCtor((resolve, reject) => reject(error));
  }

  // JSON text of a guest value, following JSON.stringify's rules except that it never calls toJSON, BigInts and
  // bytes are kept (tagged), and undefined properties are dropped so the tool's defaults apply.
  function wire(value, label, inArray, seen) {
    switch (typeof value) {
      case 'string':
        return stringify(value);
      case 'number':
        if (!numberIsFinite(value)) return '{"\\u0000number":' + stringify(StringCtor(value)) + '}';
        // An integer beyond 2^53 is written in exponent form, so the host reads the same double, not an int.
        return NumberIsInteger(value) && (value >= 9007199254740992 || value <= -9007199254740992)
          ? call(numberToExponential, value)
          : stringify(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'bigint':
        return '{"\\u0000bigint":"' + call(bigintToString, value) + '"}';
      case 'undefined':
      case 'function':
      case 'symbol':
        return inArray ? 'null' : undefined;
    }
    if (value === null) return 'null';
    // Strings and a Set only: nothing here writes to an array, so index accessors on prototypes never run.
    if (call(setSize, seen) >= MAX_INPUT_DEPTH) {
      throw new TypeErrorCtor(label + ': the input is nested more than ' + MAX_INPUT_DEPTH + ' levels deep');
    }
    if (call(setHas, seen, value)) throw new TypeErrorCtor(label + ': the input contains a circular reference');
    if (protoChainHas(value, dateProto)) {
      const time = call(dateGetTime, value);
      return time === time ? stringify(call(dateToISOString, value)) : 'null';
    }
    call(setAdd, seen, value);
    try {
      let out = '';
      if (isView(value) && !protoChainHas(value, dataViewProto)) {
        const bytes = call(typedArrayTag, value) === 'Uint8Array';
        const n = call(typedArrayLength, value);
        for (let i = 0; i < n; i++) out += (i ? ',' : '') + (bytes ? StringCtor(value[i]) : wire(value[i], label, true, seen));
        return bytes ? '{"\\u0000bytes":[' + out + ']}' : '[' + out + ']';
      }
      if (isArray(value)) {
        const n = value.length;
        for (let i = 0; i < n; i++) out += (i ? ',' : '') + wire(value[i], label, true, seen);
        return '[' + out + ']';
      }
      const keys = keysOf(value);
      for (let i = 0; i < keys.length; i++) {
        const text = wire(value[keys[i]], label, false, seen);
        if (text !== undefined) out += (out ? ',' : '') + stringify(keys[i]) + ':' + text;
      }
      return '{' + out + '}';
    } finally {
      call(setDelete, seen, value);
    }
  }

  // A tool's input: an object is its arguments; nothing is {}; anything else is wrapped as {input: value}.
  function callInput(label, input) {
    if (input === undefined || input === null) return '{}';
    const plainObject = typeof input === 'object' && !isArray(input) && !isView(input) && !protoChainHas(input, dateProto);
    return plainObject ? wire(input, label, false, new SetCtor()) : '{"input":' + wire(input, label, true, new SetCtor()) + '}';
  }

  function revive(key, value) {
    if (value !== null && typeof value === 'object' && !isArray(value)) {
      const keys = keysOf(value);
      if (keys.length === 1) {
        const tag = keys[0];
        if (tag === TAG_BIGINT) return BigIntCtor(value[tag]);
        if (tag === TAG_NUMBER) return +value[tag];
        if (tag === TAG_BYTES) return new Uint8ArrayCtor(value[tag]);
      }
    }
    return value;
  }

  function startCall(kind, name, label, input) {
    let text;
    try {
      text = callInput(label, input);
    } catch (e) {
      return rejectWith(e);
    }
    if (text.length > MAX_INPUT_CHARS) {
      return rejectWith(new RangeErrorCtor(label + ': the input is ' + text.length + ' characters of JSON; at most '
        + MAX_INPUT_CHARS + ' may be sent to the host'));
    }
    const ticket = hostCall(kind, name, text);
    if (typeof ticket === 'string') {
      const cut = call(stringIndexOf, ticket, '\u0000');
      return rejectWith(hostError(call(stringSlice, ticket, 0, cut), call(stringSlice, ticket, cut + 1)));
    }
    return new PromiseCtor((resolve, reject) => {
      call(mapSet, pendingCalls, ticket, [resolve, reject]);
    });
  }

  function makeTool(name) {
    const label = 'tools.' + name;
    const fn = (input) => startCall('tool', name, label, input);
    defineProperty(fn, 'name', { value: name, writable: false, enumerable: false, configurable: false });
    return freeze(fn);
  }

  // `fs`: the agent's files (its Deep Agents backend), in Node's promise spelling. The host checks every path
  // against the allowed prefixes and mode; nothing here reaches the host file system.
  function fsPath(op, path) {
    if (typeof path !== 'string') throw new TypeErrorCtor('fs.' + op + ': the path must be a string, like "/data/input.json"');
    return path;
  }
  function fsEncoding(options) {
    const enc = typeof options === 'string' ? options : options !== null && typeof options === 'object' ? options.encoding : undefined;
    if (enc === undefined || enc === null) return null;
    if (enc === 'utf8' || enc === 'utf-8') return 'utf8';
    throw new TypeErrorCtor('fs.readFile: only the "utf8" encoding is supported; omit it to get the bytes as a Uint8Array');
  }
  function fsCall(op, build) {
    return function () {
      let input;
      try {
        input = apply(build, undefined, arguments);
      } catch (e) {
        return rejectWith(e);
      }
      return startCall('fs', op, 'fs.' + op, input);
    };
  }
  function makeStats(raw) {
    const file = !!raw.isFile;
    const dir = !!raw.isDirectory;
    // An object literal defines its properties, so setters the guest put on Object.prototype never run.
    return freeze({ size: raw.size, isFile: () => file, isDirectory: () => dir });
  }
  const fsStat = fsCall('stat', (path) => ({ path: fsPath('stat', path) }));
  const fsFunctions = {
    readFile: fsCall('readFile', (path, options) => ({ path: fsPath('readFile', path), encoding: fsEncoding(options) })),
    writeFile: fsCall('writeFile', (path, data) => {
      fsPath('writeFile', path);
      if (typeof data !== 'string' && !(isView(data) && call(typedArrayTag, data) === 'Uint8Array')) {
        throw new TypeErrorCtor('fs.writeFile: the data must be a string or a Uint8Array');
      }
      return { path, data };
    }),
    readdir: fsCall('readdir', (path) => ({ path: fsPath('readdir', path) })),
    stat: (path) => call(promiseThen, fsStat(path), makeStats),
    rm: fsCall('rm', (path, options) => ({ path: fsPath('rm', path), recursive: !!(options && options.recursive) })),
    glob: fsCall('glob', (pattern, options) => {
      if (typeof pattern !== 'string') throw new TypeErrorCtor('fs.glob: the pattern must be a string, like "/data/**/*.csv"');
      const cwd = options !== null && typeof options === 'object' ? options.cwd : undefined;
      return { pattern, path: typeof cwd === 'string' ? cwd : null };
    }),
  };
  const fsObject = createObject(null);
  const fnBind = Function.prototype.bind;
  for (const op of keysOf(fsFunctions)) {
    // Bound, so error messages that print the object show `[native code]` instead of this file's source.
    const fn = call(fnBind, fsFunctions[op], undefined);
    defineProperty(fn, 'name', { value: op, writable: false, enumerable: false, configurable: false });
    defineProperty(fsObject, op, { value: freeze(fn), writable: false, enumerable: true, configurable: false });
  }
  defineProperty(fsObject, 'promises', { value: fsObject, writable: false, enumerable: false, configurable: false });
  freeze(fsObject);

  let installedTools = null;
  let installedTask = false;
  let installedFs = false;
  const MAX_INPUT_CHARS = 8 * 1024 * 1024;
  const RangeErrorCtor = RangeError;
  const taskFunction = (...args) => startCall('task', 'task', 'task', args[0]);
  defineProperty(taskFunction, 'name', { value: 'task', writable: false, enumerable: false, configurable: false });
  freeze(taskFunction);

  const builtins = getOwnPropertyNames(g);
  const builtinSet = new Set(builtins);
  const setHas = Set.prototype.has;
  const initialNames = new Set(builtins);

  return {
    render(value, budget) {
      return render(value, true, budget);
    },
    describeError,
    // Defines the frozen `tools` object (names: comma-separated identifiers, or null for no `tools` at all) and
    // the `task` function, replacing what an earlier call defined. Neither is a model global.
    // Whether the globals installBridges defined are still in place (the guest may delete them).
    bridgesIntact() {
      const t = getOwnPropertyDescriptor(g, 'tools');
      const k = getOwnPropertyDescriptor(g, 'task');
      return (installedTools === null ? t === undefined || !call(setHas, builtinSet, 'tools') : t !== undefined && t.value === installedTools)
        && (installedTask ? k !== undefined && k.value === taskFunction : true)
        && (installedFs ? (getOwnPropertyDescriptor(g, 'fs') || {}).value === fsObject : true);
    },
    installBridges(names, withTask, withFs) {
      installedTools = null;
      installedTask = !!withTask;
      installedFs = !!withFs;
      if (withFs) {
        defineProperty(g, 'fs', { value: fsObject, writable: false, enumerable: false, configurable: true });
        call(setAdd, builtinSet, 'fs');
      } else if (call(setHas, builtinSet, 'fs') && !call(setHas, initialNames, 'fs')) {
        delete g.fs;
        call(setDelete, builtinSet, 'fs');
      }
      if (names === null) {
        if (call(setHas, builtinSet, 'tools') && !call(setHas, initialNames, 'tools')) {
          delete g.tools;
          call(setDelete, builtinSet, 'tools');
        }
      } else {
        const t = createObject(null);
        const list = names === '' ? [] : call(stringSplit, names, ',');
        for (let i = 0; i < list.length; i++) {
          defineProperty(t, list[i], { value: makeTool(list[i]), writable: false, enumerable: true, configurable: false });
        }
        installedTools = freeze(t);
        defineProperty(g, 'tools', { value: installedTools, writable: false, enumerable: false, configurable: true });
        call(setAdd, builtinSet, 'tools');
      }
      if (withTask) {
        defineProperty(g, 'task', { value: taskFunction, writable: false, enumerable: false, configurable: true });
        call(setAdd, builtinSet, 'task');
      } else if (call(setHas, builtinSet, 'task') && !call(setHas, initialNames, 'task')) {
        delete g.task;
        call(setDelete, builtinSet, 'task');
      }
    },
    // Settles a host call: resolves with the JSON value, or rejects with an error built from {type, message}.
    completeCall(id, ok, text) {
      const entry = call(mapGet, pendingCalls, id);
      if (entry === undefined) return;
      call(mapDelete, pendingCalls, id);
      let value;
      try {
        value = jsonParse(text, revive);
      } catch (e) {
        entry[1](hostError('HostError', 'The host sent a result that is not valid JSON.'));
        return;
      }
      if (ok) {
        entry[0](value);
      } else {
        const error = hostError(StringCtor(value.type), StringCtor(value.message), value);
        entry[1](error);
      }
    },
    // Settles a batch: a JSON array of [id, ok, value] entries, value as completeCall takes it (parsed).
    completeCalls(text) {
      let batch;
      try {
        batch = jsonParse(text, revive);
      } catch (e) {
        batch = null;
      }
      if (!isArray(batch)) return;
      for (let i = 0; i < batch.length; i++) {
        const item = batch[i];
        const entry = call(mapGet, pendingCalls, item[0]);
        if (entry === undefined) continue;
        call(mapDelete, pendingCalls, item[0]);
        const value = item[2];
        if (item[1] === true) entry[0](value);
        else entry[1](hostError(StringCtor(value && value.type), StringCtor(value && value.message), value));
      }
    },
    // Forgets calls of an earlier eval, whose completions will never come.
    dropCalls() {
      call(mapClear, pendingCalls);
    },
    isThenable(value) {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
      if (protoChainHas(value, promiseProto)) return true;
      try {
        return typeof value.then === 'function';
      } catch (e) {
        return false;
      }
    },
    settle(value, onValue, onError) {
      call(promiseThen, new PromiseCtor((resolve) => resolve(value)), onValue, onError);
    },
    // The names the model added to the global object, in creation order.
    modelGlobals() {
      const names = getOwnPropertyNames(g);
      const own = list();
      for (let i = 0; i < names.length; i++) {
        if (!call(setHas, builtinSet, names[i])) call(arrayPush, own, names[i]);
      }
      return own;
    },
  };
});
