// encode: walks the graph from the saved globals breadth first, then writes the snapshot text with its entries in
// pre-order of the discovery tree.
/* global IDENT_RE, NATIVE_RE, TypeErrorCtor, Uint8ArrayCtor, VERSION, apply, array, arrayBufferByteLength,
          arrayJoin, bigintValueOf, booleanValueOf, boxed, brand, buffer, code, dataView, dataViewBuffer, date,
          dateGetTime, error, func, functionToString, getOwnPropertyDescriptor, getPrototypeOf, globalObject,
          hasOwn, internal, intrinsicByValue, isArray, list, mGet, mHas, mSet, map, mapSize, numberValueOf, options,
          ownValue, plainObject, privateMap, privateSet, protoKinds, protoOfFunction, quote, regexp, regexpSource,
          set, setSize, sharedArrayBufferByteLength, slice, sourceForm, stringIndexOf, stringValueOf, symbolKeyFor, symbolValueOf,
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
  // References are written as markers holding the discovery id: \u0001 id \u0002 for a value [id],
  // \u0001 \u0003 id \u0002 for a bare id and \u0001 \u0004 index \u0002 for a shape; they are replaced once the
  // final ids are known (see resolve). Shapes are numbered in order of first use in the final text.
  // slack: how much longer the markers are than the shortest text they can become ("[0]", "0"), so that
  // size - slack never exceeds the final size and stopping early at the limit stays exact.
  let slack = 0;

  let exceeded = false;
  // The error to throw once the text has grown past the limit; it is never turned into a residue.
  function limitExceeded() {
    exceeded = true;
    return tooBig();
  }
  function out(s) {
    parts[np++] = s;
    size += s.length;
    if (size - slack > LIMIT) throw limitExceeded();
  }
  function marker(id) {
    const s = '\u0001' + id + '\u0002';
    slack += s.length - 3;
    return s;
  }
  // eslint-disable-next-line no-unused-vars -- used by the entry writers (encoder_entries.js)
  function bareMarker(id) {
    const s = '\u0001\u0003' + id + '\u0002';
    slack += s.length - 1;
    return s;
  }
  // eslint-disable-next-line no-unused-vars -- used by the entry writers (encoder_entries.js)
  function shapeMarker(index) {
    const s = '\u0001\u0004' + index + '\u0002';
    slack += s.length - 1;
    return s;
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
    if (known !== undefined) return marker(known);
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
    return marker(id);
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
  const roots = count;
  const headEnd = np;

  // The object table, breadth first: discovery ids are handed out in discovery order and each object is read
  // once, when its entry is written, in discovery order. If reading an object fails half way (a Proxy trap or a
  // guest Error.prepareStackTrace threw), its entry is rewound and written as a residue entry instead.
  const start = list(); // discovery id -> index of its entry's first part
  for (let id = 0; id < count; id++) {
    if (id > 0) size++; // the comma before it, put in when the entries are joined
    const o = objects[id];
    objects[id] = undefined;
    const mark = np;
    const markSize = size;
    const markSlack = slack;
    start[id] = mark;
    try {
      entry(o, id);
    } catch (e) {
      if (exceeded) throw e;
      np = mark;
      parts.length = mark;
      size = markSize;
      slack = markSlack;
      out('["R","object",' + quote(pathOf(id)) + ']');
    }
  }
  start[count] = np;
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

  // Final ids: pre-order of the discovery tree (an object's children are the objects first found while its entry
  // was written, in that order). Every discovery id's parent was discovered before it, so the children of an
  // object are a run of consecutive discovery ids, and the roots (found from the globals) come first.
  const childEnd = list(); // discovery id -> one past its last child, or undefined
  const childStart = list();
  for (let id = roots; id < count; id++) {
    const p = parent[id];
    if (childEnd[p] === undefined) childStart[p] = id;
    childEnd[p] = id + 1;
  }
  const newId = list(); // discovery id -> final id
  const order = list(); // final id -> discovery id
  const stack = list();
  let sp = 0;
  for (let id = roots - 1; id >= 0; id--) stack[sp++] = id;
  for (let k = 0; sp > 0; k++) {
    const id = stack[--sp];
    newId[id] = k;
    order[k] = id;
    const end = childEnd[id];
    if (end !== undefined) for (let c = end - 1; c >= childStart[id]; c--) stack[sp++] = c;
  }

  // Replaces the markers in s: by the final id in "g" and "s" (base -1), by the offset from the entry's own
  // final id in the entry whose final id is base.
  const newShape = list(); // shape index while encoding -> final index
  const shapeOrder = list(); // final index -> shape index while encoding
  let shapesUsed = 0;
  function resolve(s, base) {
    let i = apply(stringIndexOf, s, ['\u0001', 0]);
    if (i < 0) return s;
    let r = '';
    let from = 0;
    while (i >= 0) {
      const c = code(s, i + 1);
      const end = apply(stringIndexOf, s, ['\u0002', i]);
      let t;
      if (c === 4) {
        const si = +slice(s, i + 2, end);
        t = newShape[si];
        if (t === undefined) {
          t = newShape[si] = shapesUsed++;
          shapeOrder[t] = si;
        }
        t = '' + t;
      } else {
        const id = newId[+slice(s, c === 3 ? i + 2 : i + 1, end)];
        const v = base < 0 ? id : id - base;
        t = c === 3 ? '' + v : '[' + v + ']';
      }
      r += slice(s, from, i) + t;
      from = end + 1;
      i = apply(stringIndexOf, s, ['\u0001', from]);
    }
    return r + slice(s, from, s.length);
  }
  const final = list();
  let nf = 0;
  for (let i = 0; i < headEnd; i++) final[nf++] = resolve(parts[i], -1);
  for (let k = 0; k < count; k++) {
    const id = order[k];
    if (k > 0) final[nf++] = ',';
    for (let i = start[id], end = start[id + 1]; i < end; i++) final[nf++] = resolve(parts[i], k);
  }
  for (let i = start[count]; i < np; i++) final[nf++] = resolve(parts[i], -1);
  for (let si = 0; si < shapeCount; si++) {
    if (newShape[si] === undefined) shapeOrder[newShape[si] = shapesUsed++] = si; // unused (never happens today)
  }
  for (let j = 0; j < shapesUsed; j++) final[nf++] = (j === 0 ? '[' : ',[') + resolve(shapeTexts[shapeOrder[j]], -1) + ']';
  final[nf++] = ']}';
  const text = apply(arrayJoin, final, ['']);
  if (LIMIT !== Infinity && (text.length > LIMIT || (text.length * 3 > LIMIT && utf8Length(text) > LIMIT))) {
    throw tooBig();
  }
  return text;
}
