// The intrinsic table: values reachable from the pristine global object, saved by name instead of by value.
/* global ArrayBufferPrototype, ArrayPrototype, AsyncFunctionPrototype, AsyncGeneratorFunctionPrototype,
          AsyncGeneratorPrototype, AsyncIteratorPrototype, DataViewPrototype, DatePrototype, ErrorPrototype,
          FinalizationRegistryPrototype, FunctionPrototype, GeneratorFunctionPrototype, GeneratorPrototype,
          IteratorPrototype, MapPrototype, ObjectPrototype, PromisePrototype, RegExpPrototype, SetPrototype,
          SharedArrayBufferPrototype, TypedArrayCtor, TypedArrayPrototype, WeakRefPrototype,
          getOwnPropertyDescriptor, getOwnPropertyNames, getPrototypeOf, globalObject, hasOwn, isObject, list, mGet, mHas,
          mSet, ownValue, privateMap */
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
        const p = ownValue(v, 'prototype');
        if (isObject(p) && addIntrinsic(name + '.prototype', p)) items[items.length] = [name + '.prototype.', p, 2];
      }
    }
  }
}
{
  const items = list();
  items[0] = ['', globalObject, 0];
  scanIntrinsics(items);
  const hidden = [['%TypedArray%', TypedArrayCtor], ['%GeneratorFunction.prototype%', GeneratorFunctionPrototype],
    ['%GeneratorPrototype%', GeneratorPrototype], ['%AsyncGeneratorFunction.prototype%', AsyncGeneratorFunctionPrototype],
    ['%AsyncGeneratorPrototype%', AsyncGeneratorPrototype], ['%AsyncFunction.prototype%', AsyncFunctionPrototype],
    ['%IteratorPrototype%', IteratorPrototype], ['%AsyncIteratorPrototype%', AsyncIteratorPrototype],
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
  const kinds = [[ObjectPrototype, 'o'], [ArrayPrototype, 'o'], [FunctionPrototype, 'o'], [MapPrototype, 'M'], [SetPrototype, 'S'],
    [DatePrototype, 'D'], [RegExpPrototype, 'X'], [ErrorPrototype, 'E'], [ArrayBufferPrototype, 'B'],
    [SharedArrayBufferPrototype, 'sab'], [DataViewPrototype, 'V'], [TypedArrayPrototype, 'T'],
    [Number.prototype, 'wn'], [String.prototype, 'ws'], [Boolean.prototype, 'wb'], [BigInt.prototype, 'wi'],
    [Symbol.prototype, 'wy'], [PromisePrototype, 'promise'], [WeakMap.prototype, 'wm'], [WeakSet.prototype, 'wset'],
    [WeakRefPrototype, 'wr'], [FinalizationRegistryPrototype, 'FinalizationRegistry'], [GeneratorPrototype, 'generator'],
    [AsyncGeneratorPrototype, 'async generator'], [IteratorPrototype, 'iterator'], [AsyncIteratorPrototype, 'async iterator']];
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i][0] !== undefined && !mHas(protoKinds, kinds[i][0])) mSet(protoKinds, kinds[i][0], kinds[i][1]);
  }
}

// A built-in a polyfill group installed after the table was made (Polyfills.java), named by its parent's path
// (null for the global object, or 'Map.prototype') and its key. The parent is looked up in the table, so a global the
// model replaced is never read; a new global is read from the global object right after its group ran, and is
// scanned like the pristine ones (its properties and prototype). With `residue`, instances of that class hold
// state no snapshot can carry: they are saved as residues of that type, as a FinalizationRegistry is.
/* exported adoptIntrinsics */
function adoptIntrinsics(parentPath, key, residue) {
  const parent = parentPath === null ? globalObject : mGet(intrinsicByName, parentPath);
  if (!isObject(parent)) return;
  const d = getOwnPropertyDescriptor(parent, key);
  if (d === undefined || !hasOwn(d, 'value')) return;
  const path = parentPath === null ? key : parentPath + '.' + key;
  if (addIntrinsic(path, d.value) && parentPath === null && isObject(d.value)) {
    const items = list();
    items[0] = [path + '.', d.value, 1];
    scanIntrinsics(items);
  }
  if (residue) {
    const proto = mGet(intrinsicByName, path + '.prototype');
    if (proto !== undefined && !mHas(protoKinds, proto)) mSet(protoKinds, proto, path);
  }
}
