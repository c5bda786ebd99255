// Rendering of any guest value as readable text (results, console arguments), without calling guest getters.
/* global ArrayBufferPrototype, DEFAULT_BUDGET, DataViewPrototype, DatePrototype, ErrorPrototype, HOST_STRING_CAP,
          IDENT, MapPrototype, ObjectPrototype, PromisePrototype, RegExpPrototype, SetPrototype, StringCtor,
          WeakMapPrototype, WeakSetPrototype, arrayBufferByteLength, arrayJoin, arrayPush, call, dateGetTime,
          dateToISOString, errorToString, functionToString, getOwnPropertyDescriptor, getOwnPropertyNames,
          getOwnPropertySymbols, getPrototypeOf, isArray, jsonStringify, list, mapEntries, mapIterNext, mapSize,
          numberIsInteger, objectIsPrototypeOf, regexpTest, regexpToString, setIterNext, setSize, setValues,
          stringIndexOf, stringSlice, symbolToString, typedArrayLength, typedArrayTag */
/* exported render */
function protoChainHas(value, proto) {
  try {
    return call(objectIsPrototypeOf, proto, value);
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
    src = call(functionToString, fn);
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
  if (typeof key === 'symbol') return '[' + call(symbolToString, key) + ']';
  return call(regexpTest, IDENT, key) ? key : jsonStringify(key);
}

function constructorName(value) {
  let proto;
  try {
    proto = getPrototypeOf(value);
  } catch (e) {
    return '';
  }
  if (proto === null) return null;
  if (proto === ObjectPrototype) return '';
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
        put(atTop ? v : jsonStringify(v));
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
        put(call(symbolToString, v));
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
        if (k !== 'length' && !(numberIsInteger(+k) && +k >= 0 && StringCtor(+k) === k)) call(arrayPush, extra, k);
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
    if (protoChainHas(v, MapPrototype) && hasInternal(v, mapSize)) {
      put('Map(' + call(mapSize, v) + ') {');
      const it = call(mapEntries, v);
      let n = 0;
      for (let r = call(mapIterNext, it); !r.done && !cut; r = call(mapIterNext, it)) {
        if (n++ > 0) put(', ');
        one(r.value[0], false);
        put(' => ');
        one(r.value[1], false);
      }
      put('}');
      return;
    }
    if (protoChainHas(v, SetPrototype) && hasInternal(v, setSize)) {
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
    if (protoChainHas(v, DatePrototype) && hasInternal(v, dateGetTime)) {
      const t = call(dateGetTime, v);
      put(t === t ? call(dateToISOString, v) : 'Invalid Date');
      return;
    }
    if (protoChainHas(v, RegExpPrototype) && hasInternal(v, getOwnPropertyDescriptor(RegExpPrototype, 'source').get)) {
      put(call(regexpToString, v));
      return;
    }
    if (protoChainHas(v, ErrorPrototype)) {
      let text;
      try {
        text = call(errorToString, v);
      } catch (e) {
        text = 'Error';
      }
      put(text);
      return;
    }
    if (protoChainHas(v, PromisePrototype)) {
      put('Promise {}');
      return;
    }
    if (protoChainHas(v, WeakMapPrototype) || protoChainHas(v, WeakSetPrototype)) {
      put((protoChainHas(v, WeakMapPrototype) ? 'WeakMap' : 'WeakSet') + ' { <items unknown> }');
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
    if (protoChainHas(v, ArrayBufferPrototype) && hasInternal(v, arrayBufferByteLength)) {
      put('ArrayBuffer { byteLength: ' + call(arrayBufferByteLength, v) + ' }');
      return;
    }
    if (protoChainHas(v, DataViewPrototype)) {
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
