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
    const FrozenDate = new Proxy(RealDate, {
      construct(target, args, newTarget) {
        return construct(target, args.length === 0 ? [fixed] : args, newTarget === FrozenDate ? target : newTarget);
      },
      apply() {
        return new RealDate(fixed).toString();
      },
      get(target, key) {
        if (key === 'now') return frozenNow;
        return target[key];
      },
    });
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

  const builtins = getOwnPropertyNames(g);
  const builtinSet = new Set(builtins);
  const setHas = Set.prototype.has;

  return {
    render(value, budget) {
      return render(value, true, budget);
    },
    describeError,
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
