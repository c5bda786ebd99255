// The entry writers of the encoder, one per kind of object-table entry (see format.js). This part is put in
// the body of encodeNames (encoder.js), which calls them from entry(); they write through its out().
/* eslint no-unused-vars: ["error", { "caughtErrors": "none", "varsIgnorePattern":
   "^(plainObject|array|func|protoOfFunction|map|set|date|regexp|error|buffer|typed|dataView|boxed)$" }] */
/* global ArrayPrototype, AsyncGeneratorPrototype, DatePrototype, ErrorPrototype, FLAG_GETTERS, GeneratorPrototype,
          LIMIT, MapPrototype, ObjectPrototype, RegExpPrototype, SetPrototype, Uint8ArrayCtor, accessor, apply,
          arrayBufferByteLength, arrayBufferMaxByteLength, arrayBufferResizable, base64Encode, bigintValueOf,
          booleanValueOf, brand, dataViewBuffer, dataViewByteLength, dataViewByteOffset, dateGetTime, limitExceeded,
          extra, fnForm, fnSource, getOwnPropertyDescriptor, getOwnPropertyNames, getPrototypeOf, hasOwn, ids,
          isIndexKey, isResidue, mGet, mSet, mapEntries, mapIterNext, numberValueOf, out, ownStackGetter, ownValue,
          pathOf, protoStackGetter, quote, regexpSource, setIterNext, setValues, shapeCount:writable, shapeTexts, shapes,
          size:writable, stringValueOf, typedArrayBuffer, typedArrayByteOffset, typedArrayLength, typedArrayTag, val */
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
  const proto = protoField(getPrototypeOf(o), ObjectPrototype, id);
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
    if (size > LIMIT) throw limitExceeded();
  }
  out('["o",' + si + values + ']');
}

function array(o, id) {
  const keys = getOwnPropertyNames(o);
  const len = ownValue(o, 'length');
  let nIdx = 0;
  while (nIdx < keys.length && (keys[nIdx] === '' + nIdx || isIndexKey(keys[nIdx]))) nIdx++;
  const proto = getPrototypeOf(o);
  let extraKeys = false;
  for (let i = nIdx; i < keys.length && !extraKeys; i++) {
    if (keys[i] === 'length') continue;
    const d = getOwnPropertyDescriptor(o, keys[i]);
    extraKeys = d !== undefined && d.enumerable;
  }
  if (nIdx === len && proto === ArrayPrototype && !extraKeys) {
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
  out(',' + protoField(proto, ArrayPrototype, id));
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
  const name = ownValue(o, 'name');
  let protoV = '0';
  const p = ownValue(o, 'prototype');
  if (typeof p === 'object' && p !== null) {
    const pp = getPrototypeOf(p);
    const natural = ownValue(p, 'constructor') === o ||
      ((pp === GeneratorPrototype || pp === AsyncGeneratorPrototype) && getOwnPropertyNames(p).length === 0);
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
  out('["P",' + mGet(ids, fn) + ',' + protoField(getPrototypeOf(o), ObjectPrototype, id));
  props(o, id);
  out(']');
}

function map(o, id) {
  out('["M",' + protoField(getPrototypeOf(o), MapPrototype, id) + ',[');
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
  out('["S",' + protoField(getPrototypeOf(o), SetPrototype, id) + ',[');
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
  out('["D",' + protoField(getPrototypeOf(o), DatePrototype, id) + ',' + val(apply(dateGetTime, o, []), id, '', 0));
  props(o, id);
  out(']');
}

function regexp(o, id) {
  let flags = '';
  for (let i = 0; i < FLAG_GETTERS.length; i++) {
    if (apply(FLAG_GETTERS[i][1], o, [])) flags += FLAG_GETTERS[i][0];
  }
  const li = ownValue(o, 'lastIndex');
  out('["X",' + protoField(getPrototypeOf(o), RegExpPrototype, id) + ',' + quote(apply(regexpSource, o, [])) + ',' +
    quote(flags) + ',' + (typeof li === 'number' && li >= 0 && li <= 9007199254740991 ? '' + li : '0'));
  props(o, id);
  out(']');
}

function error(o, id) {
  out('["E",' + protoField(getPrototypeOf(o), ErrorPrototype, id) + ',[');
  const hidden = ['message', 'stack', 'cause', 'errors', 'error', 'suppressed'];
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
  const n = apply(arrayBufferByteLength, o, []);
  const encodedLength = 4 * ((n + 2 - ((n + 2) % 3)) / 3);
  if (size + encodedLength > LIMIT) throw limitExceeded();
  let max = -1;
  if (arrayBufferResizable !== undefined && apply(arrayBufferResizable, o, [])) max = apply(arrayBufferMaxByteLength, o, []);
  out('["B","' + base64Encode(new Uint8ArrayCtor(o), n) + '",' + max + ']');
}

function typed(o, id) {
  const b = apply(typedArrayBuffer, o, []);
  val(b, id, 'buffer', 0);
  out('["T",' + quote(apply(typedArrayTag, o, [])) + ',' + mGet(ids, b) + ',' + apply(typedArrayByteOffset, o, []) + ',' +
    apply(typedArrayLength, o, []) + ']');
}

function dataView(o, id) {
  const b = apply(dataViewBuffer, o, []);
  val(b, id, 'buffer', 0);
  out('["V",' + mGet(ids, b) + ',' + apply(dataViewByteOffset, o, []) + ',' + apply(dataViewByteLength, o, []) + ']');
}

function boxed(o, id) {
  let v;
  if (brand(numberValueOf, o)) v = apply(numberValueOf, o, []);
  else if (brand(stringValueOf, o)) v = apply(stringValueOf, o, []);
  else if (brand(booleanValueOf, o)) v = apply(booleanValueOf, o, []);
  else v = apply(bigintValueOf, o, []);
  out('["W",' + val(v, id, '', 0) + ']');
}
