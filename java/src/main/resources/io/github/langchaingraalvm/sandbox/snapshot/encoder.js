// encode: walks the graph from the saved globals breadth first and writes the snapshot text.
/* global IDENT_RE, NATIVE_RE, TypeErrorCtor, Uint8ArrayCtor, VERSION, apply, array, arrayBufferByteLength,
          arrayJoin, bigintValueOf, booleanValueOf, boxed, brand, buffer, dataView, dataViewBuffer, date,
          dateGetTime, error, func, functionToString, getOwnPropertyDescriptor, getPrototypeOf, globalObject,
          hasOwn, internal, intrinsicByValue, isArray, list, mGet, mHas, mSet, map, mapSize, numberValueOf, options,
          ownValue, plainObject, privateMap, privateSet, protoKinds, protoOfFunction, quote, regexp, regexpSource,
          set, setSize, sharedArrayBufferByteLength, slice, sourceForm, stringValueOf, symbolKeyFor, symbolValueOf,
          test, tooBig, typed, typedArrayBuffer, typedArrayTag, utf8Length, weakMapHas, weakRefDeref, weakSetHas,
          wmGet, wmHas */
/* exported encode */
const maxBytes = options !== undefined && options !== null ? options.maxBytes : undefined;
const DEFAULT_LIMIT = typeof maxBytes === 'number' && maxBytes >= 0 ? maxBytes : Infinity;
let LIMIT = DEFAULT_LIMIT;

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
  // eslint-disable-next-line no-unused-vars -- read and filled by the entry writers (encoder_entries.js)
  const shapes = privateMap(); // shape text -> index
  const shapeTexts = list();
  // eslint-disable-next-line prefer-const -- counted up by the entry writers (encoder_entries.js)
  let shapeCount = 0;
  const parts = list();
  let np = 0;
  let size = 0;

  let exceeded = false;
  // The error to throw once the text has grown past the limit; it is never turned into a residue.
  function limitExceeded() {
    exceeded = true;
    return tooBig();
  }
  function out(s) {
    parts[np++] = s;
    size += s.length;
    if (size > LIMIT) throw limitExceeded();
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
        src = apply(functionToString, fn, []);
      } catch (e) {
        src = undefined;
      }
      if (typeof src === 'string') {
        if (test(NATIVE_RE, src)) {
          const name = ownValue(fn, 'name');
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
    if (!brand(arrayBufferByteLength, buffer)) return 'SharedArrayBuffer';
    try {
      new Uint8ArrayCtor(buffer, 0, 0);
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
      if (ownValue(fn, 'prototype') === o && !mHas(intrinsicByValue, fn) && classifyFunction(fn) === 'F') {
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
        if (!brand(arrayBufferByteLength, o)) return 'o';
        return bufferProblem(o) || 'B';
      case 'sab': return brand(sharedArrayBufferByteLength, o) ? 'SharedArrayBuffer' : 'o';
      case 'V':
        if (!brand(dataViewBuffer, o)) return 'o';
        return bufferProblem(apply(dataViewBuffer, o, [])) || 'V';
      case 'T':
        if (apply(typedArrayTag, o, []) === undefined) return 'o';
        return bufferProblem(apply(typedArrayBuffer, o, [])) || 'T';
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

  // @include snapshot/encoder_entries.js

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
    const d = getOwnPropertyDescriptor(globalObject, name);
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
