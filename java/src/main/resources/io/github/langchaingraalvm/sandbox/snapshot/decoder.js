// decode: validates a snapshot completely, then re-creates its values and globals.
/* global ArrayPrototype, BigIntCtor, DateCtor, DatePrototype, ErrorCtor, ErrorPrototype, HOLE, MapCtor,
          MapPrototype, ObjectCtor, ObjectPrototype, ReferenceErrorPrototype, RegExpPrototype, SetCtor,
          SetPrototype, VERSION, accessorRecords, apply, dataDescriptor, defineResidue, evaluate,
          expressionSourceOk, getOwnPropertyNames, getPrototypeOf, globalObject, hasOwn, intrinsicByName, isArray,
          isObject, isRef, jsonParse, kinds, list, mGet, mSet, mapSet, methodSourceOk, objectIsPrototypeOf,
          ownValue, privateMap, privateSet, ready, reflectDefineProperty, reflectDeleteProperty,
          reflectSetPrototypeOf, residuePlaceholder, residueRecords, setAdd, symbolFor, wsAdd, wsHas */
/* exported decode */
// ------------------------------------------------------------------------------------------------------------
// decode

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

  // @include snapshot/decoder_checks.js

  // ---- apply ----
  const objects = list();
  const isRecord = list(); // id -> whether objects[id] is a residue record, not a value

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
        return reflectDefineProperty(obj, key, { __proto__: null, get: v.get, set: v.set, enumerable, configurable: true });
      }
      if (v === HOLE) return true;
    }
    return reflectDefineProperty(obj, key, dataDescriptor(v, enumerable));
  }
  // Fills a prototype-less shell with the values e[from...]: under the keys shape[1...], or at indices 0... when
  // shape is null. Primitives and references to restored objects are plain assignments; residues, accessors and
  // the rest go through put().
  function fill(obj, e, from, shape) {
    for (let j = from; j < e.length; j++) {
      const key = shape === null ? j - from : shape[j - from + 1];
      const x = e[j];
      if (typeof x !== 'object' || x === null) {
        obj[key] = x;
      } else if (typeof x[0] === 'number' && !isRecord[x[0]]) {
        obj[key] = objects[x[0]];
      } else {
        put(obj, key, value(x), true);
      }
    }
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
    if (getPrototypeOf(obj) !== target) reflectSetPrototypeOf(obj, target);
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
          retry = isObject(err) && apply(objectIsPrototypeOf, ReferenceErrorPrototype, [err]);
        }
      }
      if (fn !== undefined) {
        objects[i] = fn;
        progress = true;
        const l = mGet(functionGlobals, i);
        if (l !== undefined) {
          for (let m = 0; m < l.length; m++) {
            if (reflectDefineProperty(globalObject, l[m], dataDescriptor(fn, true))) definedEarly.add(l[m]);
          }
        }
      } else if (retry) {
        next[next.length] = i;
      } else {
        objects[i] = residueRecord('function', e[5]);
        isRecord[i] = true;
      }
    }
    pending = next;
  }
  for (let j = 0; j < pending.length; j++) {
    objects[pending[j]] = residueRecord('function', heap[pending[j]][5]);
    isRecord[pending[j]] = true;
  }

  // 2. Empty shells for everything else, so references can be wired in any order. Plain objects and dense
  // arrays start without a prototype: their properties are then plain assignments, which can meet no setter
  // (a class body restored in step 1 may have put one on a prototype), and get their prototype once filled.
  for (let i = 0; i < n; i++) {
    const e = heap[i];
    switch (kinds[i]) {
      case 'o': objects[i] = { __proto__: null }; break;
      case 'a': objects[i] = list(); break;
      case 'A': objects[i] = []; break;
      case 'P': {
        const fn = objects[e[1]];
        const p = typeof fn === 'function' ? ownValue(fn, 'prototype') : undefined;
        objects[i] = typeof p === 'object' && p !== null ? p : {};
        break;
      }
      case 'M': objects[i] = new MapCtor(); break;
      case 'S': objects[i] = new SetCtor(); break;
      case 'D': objects[i] = new DateCtor(typeof e[2] === 'number' ? e[2] : NaN); break;
      case 'E': objects[i] = new ErrorCtor(); break;
      case 'W': objects[i] = ObjectCtor(value(e[1])); break;
      case 'F': break;
      case 'R':
        objects[i] = residueRecord(e[1], e[2]);
        isRecord[i] = true;
        break;
      default: // X, B, T, V
        if (ready[i] !== undefined) {
          objects[i] = ready[i];
        } else {
          objects[i] = residueRecord('object', heap[kinds[i] === 'T' ? e[2] : e[1]][2]); // view on an "R"
          isRecord[i] = true;
        }
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
        fill(obj, e, 2, shape);
        const proto = shape[0] === 0 ? ObjectPrototype : value(shape[0]);
        reflectSetPrototypeOf(obj, isResidueRecord(proto) ? ObjectPrototype : proto);
        break;
      }
      case 'a':
        fill(obj, e, 1, null);
        reflectSetPrototypeOf(obj, ArrayPrototype);
        break;
      case 'A': {
        reflectDefineProperty(obj, 'length', { __proto__: null, value: e[1] });
        if (e[2] !== 0) for (let j = 0; j < e[2].length; j++) put(obj, j, value(e[2][j]), true);
        fixProto(obj, e[3], ArrayPrototype);
        putProps(obj, e, 4);
        break;
      }
      case 'P':
        fixProto(obj, e[2], ObjectPrototype);
        putProps(obj, e, 3);
        break;
      case 'F': {
        if (typeof obj !== 'function') break;
        if (e[3] !== null && ownValue(obj, 'name') !== e[3]) {
          reflectDefineProperty(obj, 'name',
            { __proto__: null, value: e[3], writable: false, enumerable: false, configurable: true });
        }
        if (e[4] !== 0) {
          const p = value(e[4]);
          if (isObject(p) && !isResidueRecord(p) && ownValue(obj, 'prototype') !== p) {
            reflectDefineProperty(obj, 'prototype', { __proto__: null, value: p });
          }
        }
        putProps(obj, e, 6);
        break;
      }
      case 'M': {
        fixProto(obj, e[1], MapPrototype);
        const entries = e[2];
        for (let j = 0; j < entries.length; j += 2) {
          apply(mapSet, obj, [inCollection(value(entries[j])), inCollection(value(entries[j + 1]))]);
        }
        putProps(obj, e, 3);
        break;
      }
      case 'S':
        fixProto(obj, e[1], SetPrototype);
        for (let j = 0; j < e[2].length; j++) apply(setAdd, obj, [inCollection(value(e[2][j]))]);
        putProps(obj, e, 3);
        break;
      case 'D':
        fixProto(obj, e[1], DatePrototype);
        putProps(obj, e, 3);
        break;
      case 'X':
        fixProto(obj, e[1], RegExpPrototype);
        reflectDefineProperty(obj, 'lastIndex', { __proto__: null, value: e[4] });
        putProps(obj, e, 5);
        break;
      case 'E': {
        const hidden = e[2];
        let hasStack = false;
        for (let j = 0; j < hidden.length; j += 2) {
          if (hidden[j] === 'stack') hasStack = true;
          put(obj, hidden[j], value(hidden[j + 1]), false);
        }
        if (!hasStack) reflectDeleteProperty(obj, 'stack');
        fixProto(obj, e[1], ErrorPrototype);
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
    if (definedEarly.has(name)) reflectDeleteProperty(globalObject, name);
    const v = value(globals[j + 1]);
    const ok = isResidueRecord(v) ? defineResidue(globalObject, name, v.type, name, true) : put(globalObject, name, v, true);
    if (ok) reflectDefineProperty(restored, count++, dataDescriptor(name, true));
  }
  return restored;
}
