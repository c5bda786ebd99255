// encode: walks the graph from the saved globals depth first and writes the snapshot text.
/* global IDENT_RE, NATIVE_RE, TypeErrorCtor, Uint8ArrayCtor, VERSION, apply, array, arrayBufferByteLength,
          arrayJoin, bigintValueOf, booleanValueOf, boxed, brand, buffer, dataView, dataViewBuffer, date,
          dateGetTime, error, func, functionToString, getOwnPropertyDescriptor, getPrototypeOf, globalObject,
          hasOwn, internal, intrinsicByValue, isArray, jsonStringify, list, map, mapSize, numberValueOf,
          ObjectPrototype, options, ownValue, plainObject, privateMap, privateSet, protoKinds, protoOfFunction,
          regexp, regexpSource, set, setSize, sharedArrayBufferByteLength, slice, sourceForm, stringValueOf,
          symbolKeyFor, symbolValueOf, test, tooBig, typed, typedArrayBuffer, typedArrayTag, utf8Length, weakMapHas,
          weakRefDeref, weakSetHas */
/* exported encode, protoTokens, protoTokenCount, scratch -- the last three for the entry writers */
const maxBytes = options !== undefined && options !== null ? options.maxBytes : undefined;
const DEFAULT_LIMIT = typeof maxBytes === 'number' && maxBytes >= 0 ? maxBytes : Infinity;
let LIMIT = DEFAULT_LIMIT;

// ------------------------------------------------------------------------------------------------------------
// encode
// maxBytes, when given, overrides the factory's limit for this one call.
function encode(names, maxBytes) {
  LIMIT = typeof maxBytes === 'number' && maxBytes >= 0 ? maxBytes : DEFAULT_LIMIT;
  begin();
  try {
    return encodeNames(names);
  } finally {
    end();
    LIMIT = DEFAULT_LIMIT;
  }
}

// Object ids are handed out in depth-first pre-order: an object's id is given when its entry is written, right
// after the entry of the object that first referred to it and before that object's later children. So the ids
// of what an array's first elements reach do not depend on the elements after them, and a snapshot that gains
// an element (or a global) differs from the previous one only where it changed: a byte delta between the two
// stays small. An entry is written before the ids of the objects it finds first are known; such a reference is
// left open in the parts and filled in once all ids are given.
//
// The walk's functions below, and the entry writers (encoder_entries.js), are made once, with the factory; the
// state they share is set up by begin() for each encode and dropped by end(), so the codec holds no guest object
// between calls. (Made in one function per call, the fifty closures and the walk were one body that the Truffle
// compiler worked on for seconds before giving it up as too large, and that then ran interpreted.)

// Every object the walk finds gets q, the order in which it was found, and its id once its entry is written.
let index; // object -> q
let objects; // q -> object, until its entry is written
let kinds; // q -> kind letter
let parent; // q -> q of the object it was first found in, -1 for a global
let pkey; // q -> key (or index) it was found under
let pkind; // q -> what pkey means (see segment)
let root; // q -> name of the global it was found from
let extra; // q -> the function of a "P" entry, or the prototype of an "o" entry
let ids; // q -> its id, -1 until its entry is written
let found;
let count;
// References written before their object's id was known: the part they end, the object's q, and whether the
// id goes in bare (a buffer or function id) or as a reference [id].
let fixPart;
let fixQ;
let fixBare;
let fixCount;
// The objects the entry being written found first, in order; the q of the last unwritten object ref() met.
let fresh;
let nFresh;
let pendingRef;
let extraFn;
let hints; // prototype -> hint
let fnClass; // function -> 'F' or a residue type
let fnSource;
let fnForm;
// Shapes of plain objects, by a key made of the proto and the raw keys: the proto field (null while the proto
// waits to be written), the proto's q then, and the quoted keys. The "s" section is written last, when every
// proto's id is known.
let shapes;
let shapeKey;
let shapeProto;
let shapeProtoQ;
let shapeKeys;
let shapeCount;
let protoTokens; // a proto other than Object.prototype and null -> its token in shape keys
let protoTokenCount;
let scratch; // the descriptors of the object being written, by key index (see encoder_entries.js)
let parts;
let np;
let size;
let exceeded;
// Text is gathered in buf and cut into parts only where a reference is left open (and between entries).
let buf;
let classifiedProto;
let stack; // objects still to write, the next on top
let top;

function begin() {
  index = privateMap();
  objects = list();
  kinds = list();
  parent = list();
  pkey = list();
  pkind = list();
  root = list();
  extra = list();
  ids = list();
  found = 0;
  count = 0;
  fixPart = list();
  fixQ = list();
  fixBare = list();
  fixCount = 0;
  fresh = list();
  nFresh = 0;
  pendingRef = -1;
  extraFn = undefined;
  hints = privateMap();
  fnClass = privateMap();
  fnSource = privateMap();
  fnForm = privateMap();
  shapes = privateMap();
  shapeKey = list();
  shapeProto = list();
  shapeProtoQ = list();
  shapeKeys = list();
  shapeCount = 0;
  protoTokens = privateMap();
  protoTokenCount = 0;
  scratch = list();
  parts = list();
  np = 0;
  size = 0;
  exceeded = false;
  buf = '';
  classifiedProto = undefined;
  stack = list();
  top = 0;
}
function end() {
  index = objects = kinds = parent = pkey = pkind = root = extra = ids = undefined;
  fixPart = fixQ = fixBare = fresh = hints = fnClass = fnSource = fnForm = undefined;
  shapes = shapeKey = shapeProto = shapeProtoQ = shapeKeys = protoTokens = scratch = parts = stack = undefined;
  extraFn = classifiedProto = undefined;
  buf = '';
}

// The error to throw once the text has grown past the limit; it is never turned into a residue.
function limitExceeded() {
  exceeded = true;
  return tooBig();
}
function out(s) {
  buf += s;
  size += s.length;
  if (size > LIMIT) throw limitExceeded();
}
function cut() {
  if (buf !== '') {
    parts[np++] = buf;
    buf = '';
  }
}

function segment(k, kd) {
  switch (kd) {
    case 0: return test(IDENT_RE, k) ? '.' + k : '[' + jsonStringify(k) + ']';
    case 1: return '[' + k + ']';
    case 2: return '.<map key ' + k + '>';
    case 3: return '.<map value ' + k + '>';
    case 4: return '.<set element ' + k + '>';
    default: return '.<prototype>';
  }
}
function pathOf(q) {
  const segs = list();
  let n = 0;
  let cur = q;
  while (parent[cur] >= 0 && n < 32) {
    segs[n++] = segment(pkey[cur], pkind[cur]);
    cur = parent[cur];
  }
  let s = root[q];
  if (parent[cur] >= 0) s += '.…';
  for (let i = n - 1; i >= 0; i--) s += segs[i];
  return s;
}
function pathTo(p, k, kd) {
  return p < 0 ? k : pathOf(p) + segment(k, kd);
}
function residue(type, p, k, kd) {
  return '["r",' + jsonStringify(type) + ',' + jsonStringify(pathTo(p, k, kd)) + ']';
}
const isResidue = (s) => s !== null && s[0] === '[' && s[1] === '"' && s[2] === 'r' && s[3] === '"';

function classifyFunction(fn) {
  let c = fnClass.get(fn);
  if (c !== undefined) return c;
  c = 'function';
  if (!internal.has(fn)) {
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
          fnSource.set(fn, src);
          fnForm.set(fn, form);
        }
      }
    }
  }
  fnClass.set(fn, c);
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
  let h = hints.get(proto);
  if (h !== undefined) return h;
  h = 'o';
  for (let q = proto, steps = 0; q !== null && steps < 10000; q = getPrototypeOf(q), steps++) {
    const k = protoKinds.get(q);
    if (k !== undefined) {
      h = k;
      break;
    }
  }
  hints.set(proto, h);
  return h;
}

// Returns a kind letter, or a residue type (always longer than one character). A "P" sets extraFn; an object
// that is neither a function nor an array sets classifiedProto (a plain object's entry needs it again).
function classify(o) {
  if (typeof o === 'function') return classifyFunction(o);
  if (isArray(o)) return 'A';
  const placeholder = internal.get(o);
  if (placeholder !== undefined) return placeholder;
  const proto = getPrototypeOf(o);
  classifiedProto = proto;
  // Most objects are plain and own no "constructor": one check, no descriptor.
  if (proto === ObjectPrototype && !hasOwn(o, 'constructor')) return 'o';
  const cd = getOwnPropertyDescriptor(o, 'constructor');
  if (cd !== undefined && hasOwn(cd, 'value') && typeof cd.value === 'function') {
    const fn = cd.value;
    if (ownValue(fn, 'prototype') === o && !intrinsicByValue.has(fn) && classifyFunction(fn) === 'F') {
      extraFn = fn;
      return 'P';
    }
  }
  const hint = hintFor(proto);
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

// The reference text of object o, found under key k of object p (its q); null when o waits to be written (it
// is then pendingRef, and the caller leaves the reference open).
function ref(o, p, k, kd) {
  const known = index.get(o);
  if (known !== undefined) {
    if (ids[known] >= 0) return '[' + ids[known] + ']';
    pendingRef = known;
    return null;
  }
  const iname = intrinsicByValue.get(o);
  if (iname !== undefined) return '["i",' + jsonStringify(iname) + ']';
  let c;
  try {
    c = classify(o);
  } catch (e) {
    c = 'object'; // e.g. a Proxy trap threw
  }
  if (c.length > 1) return residue(c, p, k, kd);
  const q = found++;
  index.set(o, q);
  objects[q] = o;
  kinds[q] = c;
  parent[q] = p;
  pkey[q] = k;
  pkind[q] = kd;
  root[q] = p < 0 ? k : root[p];
  extra[q] = c === 'P' ? extraFn : c === 'o' ? classifiedProto : undefined;
  ids[q] = -1;
  fresh[nFresh++] = q;
  pendingRef = q;
  return null;
}

// The text of value v, or null for an object that waits to be written (see ref).
function val(v, p, k, kd) {
  switch (typeof v) {
    case 'string': return jsonStringify(v);
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
      const iname = intrinsicByValue.get(v);
      if (iname !== undefined) return '["i",' + jsonStringify(iname) + ']';
      const key = symbolKeyFor(v);
      if (key !== undefined) return '["y",' + jsonStringify(key) + ']';
      return residue('symbol', p, k, kd);
    }
    default:
      return v === null ? 'null' : ref(v, p, k, kd);
  }
}

// Leaves the reference to unwritten object q open at the end of the text written so far.
function openRef(q, bare) {
  fixPart[fixCount] = np;
  fixQ[fixCount] = q;
  fixBare[fixCount++] = bare;
  parts[np++] = buf;
  buf = '';
  size += 9; // room for the id; the text's real size is checked at the end
}
// Writes prefix and the text s of a value (see val); s null: the reference to pendingRef, left open.
function put(prefix, s) {
  if (s === null) {
    out(prefix);
    openRef(pendingRef, false);
  } else {
    out(prefix + s);
  }
}
// Writes prefix and value v: what put(prefix, val(v, ...)) does, with the common cases in line (in a cold
// process this runs interpreted, where every call counts).
function emit(prefix, v, p, k, kd) {
  let t;
  if (typeof v === 'string') {
    t = prefix + jsonStringify(v);
  } else if (typeof v === 'number' && v === v && v !== Infinity && v !== -Infinity && (v !== 0 || 1 / v > 0)) {
    t = prefix + v;
  } else if (typeof v === 'object' && v !== null) {
    const q = index.get(v);
    if (q === undefined || ids[q] < 0) {
      put(prefix, ref(v, p, k, kd));
      return;
    }
    t = prefix + '[' + ids[q] + ']';
  } else {
    put(prefix, val(v, p, k, kd));
    return;
  }
  buf += t;
  size += t.length;
  if (size > LIMIT) throw limitExceeded();
}
// Writes prefix and the id of object o, bare (it was just found, or known before).
// eslint-disable-next-line no-unused-vars -- used by the entry writers (encoder_entries.js)
function emitId(prefix, o) {
  const q = index.get(o);
  out(prefix);
  if (ids[q] >= 0) out('' + ids[q]);
  else openRef(q, true);
}

// Writes prefix and an accessor property's value.
function emitAccessor(prefix, d, p, k, kd) {
  const type = internal.get(d.get);
  if (type !== undefined) {
    out(prefix + residue(type, p, k, kd));
    return;
  }
  const g = d.get === undefined ? '["u"]' : val(d.get, p, k, kd);
  const gq = pendingRef;
  const s = d.set === undefined ? '["u"]' : val(d.set, p, k, kd);
  if (isResidue(g) || isResidue(s)) {
    out(prefix + residue('accessor', p, k, kd));
    return;
  }
  out(prefix + '["g",');
  if (g === null) openRef(gq, false);
  else out(g);
  put(',', s);
  out(']');
}
// Writes prefix and a property's value from its descriptor.
function emitProp(prefix, d, p, k, kd) {
  if (hasOwn(d, 'value')) emit(prefix, d.value, p, k, kd);
  else emitAccessor(prefix, d, p, k, kd);
}
// The proto field of an entry: 0 for `usual`, null, or the proto's reference (0 when it is a residue).
function protoText(proto, usual, q) {
  if (proto === usual) return '0';
  if (proto === null) return 'null';
  const s = val(proto, q, '', 5);
  return isResidue(s) ? '0' : s;
}
// eslint-disable-next-line no-unused-vars -- used by the entry writers (encoder_entries.js)
function emitProto(prefix, proto, usual, q) {
  put(prefix, protoText(proto, usual, q));
}

// @include snapshot/encoder_entries.js

function entry(o, q) {
  switch (kinds[q]) {
    case 'o': plainObject(o, q); break;
    case 'A': array(o, q); break;
    case 'F': func(o, q); break;
    case 'P': protoOfFunction(o, q); break;
    case 'M': map(o, q); break;
    case 'S': set(o, q); break;
    case 'D': date(o, q); break;
    case 'X': regexp(o, q); break;
    case 'E': error(o, q); break;
    case 'B': buffer(o); break;
    case 'T': typed(o, q); break;
    case 'V': dataView(o, q); break;
    default: boxed(o, q); break;
  }
}

function pushFresh() {
  for (let i = nFresh - 1; i >= 0; i--) stack[top++] = fresh[i];
  nFresh = 0;
}

function encodeNames(names) {
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
    emitProp((first ? '' : ',') + jsonStringify(name) + ',', d, -1, name, 0);
    first = false;
  }
  out('],"h":[');
  pushFresh();

  // The object table, in id order. If reading an object fails half way (a Proxy trap or a guest
  // Error.prepareStackTrace threw), its entry is rewound, with the objects it found first and the references it
  // left open, and written as a residue entry instead.
  while (top > 0) {
    const q = stack[--top];
    const o = objects[q];
    objects[q] = undefined;
    ids[q] = count++;
    if (ids[q] > 0) out(',');
    cut();
    const mark = np;
    const markSize = size;
    const markFound = found;
    const markFix = fixCount;
    const markShapes = shapeCount;
    try {
      entry(o, q);
    } catch (e) {
      if (exceeded) throw e;
      np = mark;
      parts.length = mark;
      buf = '';
      size = markSize;
      for (let r = markFound; r < found; r++) index.delete(objects[r]);
      found = markFound;
      fixCount = markFix;
      for (let r = markShapes; r < shapeCount; r++) shapes.delete(shapeKey[r]);
      shapeCount = markShapes;
      nFresh = 0;
      out('["R","object",' + jsonStringify(pathOf(q)) + ']');
    }
    pushFresh();
  }

  out('],"s":[');
  cut();
  for (let i = 0; i < shapeCount; i++) {
    const proto = shapeProtoQ[i] >= 0 ? '[' + ids[shapeProtoQ[i]] + ']' : shapeProto[i];
    parts[np++] = (i === 0 ? '[' : ',[') + proto + shapeKeys[i] + ']';
  }
  parts[np++] = ']}';
  for (let f = 0; f < fixCount; f++) {
    const id = ids[fixQ[f]];
    parts[fixPart[f]] += fixBare[f] ? '' + id : '[' + id + ']';
  }
  const text = apply(arrayJoin, parts, ['']);
  if (LIMIT !== Infinity && (text.length > LIMIT || (text.length * 3 > LIMIT && utf8Length(text) > LIMIT))) {
    throw tooBig();
  }
  return text;
}
