// The entry writers of the encoder, one per kind of object-table entry (see format.js). This part is put in
// encoder.js, whose entry() calls them; they write through its out() and emit*(), into the walk's state.
// An object is named by q, the order in which the encoder found it (its id in the text is given later).
// Entries never nest (objects found while writing one wait for their own turn), so the scratch lists are shared.
/* eslint no-unused-vars: ["error", { "caughtErrors": "none", "varsIgnorePattern":
   "^(plainObject|array|func|protoOfFunction|map|set|date|regexp|error|buffer|typed|dataView|boxed)$" }] */
/* global ArrayPrototype, AsyncGeneratorPrototype, DatePrototype, ErrorPrototype, FLAG_GETTERS, GeneratorPrototype,
          LIMIT, MapPrototype, ObjectPrototype, RegExpPrototype, SetPrototype, Uint8ArrayCtor, apply,
          arrayBufferByteLength, arrayBufferMaxByteLength, arrayBufferResizable, base64Encode, bigintValueOf,
          booleanValueOf, brand, dataViewBuffer, dataViewByteLength, dataViewByteOffset, dateGetTime, emit,
          emitAccessor, emitId, emitProp, emitProto, extra, fnForm, fnSource, getOwnPropertyDescriptor,
          getOwnPropertyNames, getPrototypeOf, hasOwn, isIndexKey, isResidue, jsonStringify, limitExceeded, list,
          mapEntries, mapIterNext, numberValueOf, out, ownStackGetter, ownValue, pathOf, pendingRef:writable,
          protoStackGetter, protoText, protoTokenCount:writable, protoTokens, put, reflectSetPrototypeOf,
          regexpSource, scratch, setIterNext, setValues, shapeCount:writable, shapeKey, shapeKeys, shapeProto,
          shapeProtoQ, shapes, size:writable, slice, stringValueOf, typedArrayBuffer, typedArrayByteOffset,
          typedArrayLength, typedArrayTag, val */
function descriptor(o, k) {
  try {
    return getOwnPropertyDescriptor(o, k);
  } catch (e) {
    return undefined; // a Proxy trap or V8's lazy Error.stack formatting threw: skip the property
  }
}
function prop(o, q, k, kd, enumerableOnly) {
  const d = descriptor(o, k);
  if (d === undefined || (enumerableOnly && !d.enumerable)) return;
  emitProp(',' + jsonStringify(k) + ',', d, q, k, kd);
}
function props(o, q) {
  const keys = getOwnPropertyNames(o);
  for (let i = 0; i < keys.length; i++) prop(o, q, keys[i], 0, true);
}

// The shape of a plain object: its proto and its enumerable own string keys, looked up by a key that is the
// JSON text of those keys (exact, and made by the engine in one call) after a number for the proto.
function shapeOf(proto, keys, q) {
  let pk;
  if (proto === ObjectPrototype) {
    pk = '0';
  } else if (proto === null) {
    pk = 'n';
  } else {
    pk = protoTokens.get(proto);
    if (pk === undefined) {
      pk = 't' + protoTokenCount++;
      protoTokens.set(proto, pk);
    }
  }
  reflectSetPrototypeOf(keys, null); // JSON.stringify then asks no guest-modifiable prototype for toJSON
  const quoted = jsonStringify(keys);
  const key = pk + quoted;
  let si = shapes.get(key);
  if (si === undefined) {
    si = shapeCount++;
    shapes.set(key, si);
    shapeKey[si] = key;
    const field = protoText(proto, ObjectPrototype, q);
    shapeProto[si] = field;
    shapeProtoQ[si] = field === null ? pendingRef : -1;
    shapeKeys[si] = keys.length === 0 ? '' : ',' + slice(quoted, 1, quoted.length - 1);
    size += quoted.length + 12;
    if (size > LIMIT) throw limitExceeded();
  }
  return si;
}

function plainObject(o, q) {
  const proto = extra[q]; // read when the object was found
  let keys = getOwnPropertyNames(o);
  const nk = keys.length;
  let kept = 0;
  for (let i = 0; i < nk; i++) {
    let d;
    try {
      d = getOwnPropertyDescriptor(o, keys[i]);
    } catch (e) {
      d = undefined; // a Proxy trap threw: skip the property
    }
    if (d !== undefined && d.enumerable) kept++;
    else d = undefined;
    scratch[i] = d;
  }
  if (kept !== nk) {
    const enumerable = list();
    for (let i = 0; i < nk; i++) if (scratch[i] !== undefined) enumerable[enumerable.length] = keys[i];
    for (let i = 0, j = 0; i < nk; i++) if (scratch[i] !== undefined) scratch[j++] = scratch[i];
    keys = enumerable;
  }
  values('["o",' + shapeOf(proto, keys, q), q, keys, kept, 0);
}

// Writes head, then the values whose descriptors are scratch[0..n) (keys[i] their keys, or their indices when
// keys is null; a missing descriptor is undefined), then the closing bracket. Strings and plain numbers, most of
// the values, are written in line: the text is gathered here and handed to out() once, or before a value that
// needs more.
function values(head, q, keys, n, kd) {
  let text = head;
  for (let i = 0; i < n; i++) {
    const d = scratch[i];
    scratch[i] = undefined;
    if (d !== undefined && hasOwn(d, 'value')) {
      const v = d.value;
      if (typeof v === 'string') {
        text += ',' + jsonStringify(v);
        continue;
      }
      if (typeof v === 'number' && v === v && v !== Infinity && v !== -Infinity && (v !== 0 || 1 / v > 0)) {
        text += ',' + v;
        continue;
      }
    }
    out(text);
    text = '';
    const k = keys === null ? i : keys[i];
    if (d === undefined) out(',["u"]');
    else if (hasOwn(d, 'value')) emit(',', d.value, q, k, kd);
    else emitAccessor(',', d, q, k, kd);
  }
  out(text + ']');
}

function array(o, q) {
  const keys = getOwnPropertyNames(o);
  const len = o.length; // an array's own data property (or a Proxy's get trap: guest code, as its other traps)
  const proto = getPrototypeOf(o);
  // Index keys come first, in order, then "length" (an array's first string key): exactly len index keys and
  // "length" alone after them is a dense array without extra properties.
  if (proto === ArrayPrototype && keys.length === len + 1 && keys[len] === 'length') {
    for (let i = 0; i < len; i++) scratch[i] = getOwnPropertyDescriptor(o, i);
    values('["a"', q, null, len, 1);
    return;
  }
  let nIdx = 0;
  while (nIdx < keys.length && (keys[nIdx] === '' + nIdx || isIndexKey(keys[nIdx]))) nIdx++;
  let extraKeys = false;
  for (let i = nIdx; i < keys.length && !extraKeys; i++) {
    if (keys[i] === 'length') continue;
    const d = getOwnPropertyDescriptor(o, keys[i]);
    extraKeys = d !== undefined && d.enumerable;
  }
  if (nIdx === len && proto === ArrayPrototype && !extraKeys) {
    out('["a"');
    for (let i = 0; i < len; i++) prop1(o, q, i);
    out(']');
    return;
  }
  const dense = nIdx * 2 >= len;
  out('["A",' + len + ',');
  if (dense) {
    out('[');
    for (let i = 0; i < len; i++) {
      const d = getOwnPropertyDescriptor(o, i);
      const prefix = i === 0 ? '' : ',';
      if (d === undefined) out(prefix + '["h"]');
      else emitProp(prefix, d, q, i, 1);
    }
    out(']');
  } else {
    out('0');
  }
  emitProto(',', proto, ArrayPrototype, q);
  for (let i = dense ? nIdx : 0; i < keys.length; i++) {
    if (keys[i] !== 'length') prop(o, q, keys[i], i < nIdx ? 1 : 0, true);
  }
  out(']');
}
function prop1(o, q, i) {
  const d = getOwnPropertyDescriptor(o, i);
  if (d === undefined) out(',["u"]');
  else emitProp(',', d, q, i, 1);
}

function hasEnumerableKeys(o) {
  const keys = getOwnPropertyNames(o);
  for (let i = 0; i < keys.length; i++) {
    const d = getOwnPropertyDescriptor(o, keys[i]);
    if (d !== undefined && d.enumerable) return true;
  }
  return false;
}

function func(o, q) {
  const name = ownValue(o, 'name');
  let protoV = '0';
  let protoQ = -1;
  const p = ownValue(o, 'prototype');
  if (typeof p === 'object' && p !== null) {
    const pp = getPrototypeOf(p);
    const natural = ownValue(p, 'constructor') === o ||
      ((pp === GeneratorPrototype || pp === AsyncGeneratorPrototype) && getOwnPropertyNames(p).length === 0);
    if (!natural || hasEnumerableKeys(p)) {
      protoV = val(p, q, 'prototype', 0);
      if (protoV === null) protoQ = pendingRef;
      else if (isResidue(protoV)) protoV = '0';
    }
  }
  out('["F",' + jsonStringify(fnSource.get(o)) + ',' + fnForm.get(o) + ',' +
    (typeof name === 'string' ? jsonStringify(name) : 'null'));
  pendingRef = protoQ;
  put(',', protoV);
  out(',' + jsonStringify(pathOf(q)));
  props(o, q);
  out(']');
}

function protoOfFunction(o, q) {
  const fn = extra[q];
  val(fn, q, 'constructor', 0);
  emitId('["P",', fn);
  emitProto(',', getPrototypeOf(o), ObjectPrototype, q);
  props(o, q);
  out(']');
}

function map(o, q) {
  emitProto('["M",', getPrototypeOf(o), MapPrototype, q);
  out(',[');
  const it = apply(mapEntries, o, []);
  for (let i = 0; ; i++) {
    const r = apply(mapIterNext, it, []);
    if (r.done) break;
    const e = r.value;
    emit(i === 0 ? '' : ',', e[0], q, i, 2);
    emit(',', e[1], q, i, 3);
  }
  out(']');
  props(o, q);
  out(']');
}

function set(o, q) {
  emitProto('["S",', getPrototypeOf(o), SetPrototype, q);
  out(',[');
  const it = apply(setValues, o, []);
  for (let i = 0; ; i++) {
    const r = apply(setIterNext, it, []);
    if (r.done) break;
    emit(i === 0 ? '' : ',', r.value, q, i, 4);
  }
  out(']');
  props(o, q);
  out(']');
}

function date(o, q) {
  emitProto('["D",', getPrototypeOf(o), DatePrototype, q);
  out(',' + val(apply(dateGetTime, o, []), q, '', 0));
  props(o, q);
  out(']');
}

function regexp(o, q) {
  let flags = '';
  for (let i = 0; i < FLAG_GETTERS.length; i++) {
    if (apply(FLAG_GETTERS[i][1], o, [])) flags += FLAG_GETTERS[i][0];
  }
  const li = ownValue(o, 'lastIndex');
  emitProto('["X",', getPrototypeOf(o), RegExpPrototype, q);
  out(',' + jsonStringify(apply(regexpSource, o, [])) + ',' + jsonStringify(flags) + ',' +
    (typeof li === 'number' && li >= 0 && li <= 9007199254740991 ? '' + li : '0'));
  props(o, q);
  out(']');
}

function error(o, q) {
  emitProto('["E",', getPrototypeOf(o), ErrorPrototype, q);
  out(',[');
  const hidden = ['message', 'stack', 'cause', 'errors', 'error', 'suppressed'];
  let first = true;
  for (let i = 0; i < hidden.length; i++) {
    const k = hidden[i];
    const d = descriptor(o, k); // V8 formats stack lazily, possibly via a guest Error.prepareStackTrace
    const prefix = (first ? '' : ',') + '"' + k + '",';
    let stack;
    let written = true;
    if (d === undefined) {
      written = false;
      if (k === 'stack' && protoStackGetter !== undefined) {
        try {
          stack = apply(protoStackGetter, o, []);
        } catch (e) {
          stack = undefined;
        }
        if (typeof stack === 'string') {
          out(prefix + jsonStringify(stack));
          written = true;
        }
      }
    } else if (!d.enumerable) {
      if (hasOwn(d, 'value')) {
        if (k !== 'stack' || typeof d.value === 'string') emit(prefix, d.value, q, k, 0);
        else written = false;
      } else if (k === 'stack' && d.get !== undefined && d.get === ownStackGetter) {
        try {
          stack = apply(ownStackGetter, o, []);
        } catch (e) {
          stack = undefined;
        }
        if (typeof stack === 'string') out(prefix + jsonStringify(stack));
        else written = false;
      } else {
        emitAccessor(prefix, d, q, k, 0);
      }
    } else {
      written = false;
    }
    if (written) first = false;
  }
  out(']');
  props(o, q);
  out(']');
}

function buffer(o) {
  const n = apply(arrayBufferByteLength, o, []);
  const encodedLength = 4 * ((n + 2 - ((n + 2) % 3)) / 3);
  if (size + encodedLength > LIMIT) throw limitExceeded();
  let max = -1;
  if (arrayBufferResizable !== undefined && apply(arrayBufferResizable, o, [])) max = apply(arrayBufferMaxByteLength, o, []);
  out('["B","' + base64Encode(new Uint8ArrayCtor(o), n) + '",' + max + ']');
}

function typed(o, q) {
  const b = apply(typedArrayBuffer, o, []);
  val(b, q, 'buffer', 0);
  emitId('["T",' + jsonStringify(apply(typedArrayTag, o, [])) + ',', b);
  out(',' + apply(typedArrayByteOffset, o, []) + ',' + apply(typedArrayLength, o, []) + ']');
}

function dataView(o, q) {
  const b = apply(dataViewBuffer, o, []);
  val(b, q, 'buffer', 0);
  emitId('["V",', b);
  out(',' + apply(dataViewByteOffset, o, []) + ',' + apply(dataViewByteLength, o, []) + ']');
}

function boxed(o, q) {
  let v;
  if (brand(numberValueOf, o)) v = apply(numberValueOf, o, []);
  else if (brand(stringValueOf, o)) v = apply(stringValueOf, o, []);
  else if (brand(booleanValueOf, o)) v = apply(booleanValueOf, o, []);
  else v = apply(bigintValueOf, o, []);
  out('["W",' + val(v, q, '', 0) + ']');
}
