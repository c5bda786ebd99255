// The built-ins the codec uses, captured at factory time, before any model code runs.
/* exported ArrayBufferCtor, ArrayPrototype, AsyncFunctionPrototype, AsyncIteratorPrototype, BigIntCtor,
            DataViewCtor, DateCtor, DatePrototype, FinalizationRegistryPrototype, FunctionCtor, FunctionPrototype,
            IteratorPrototype, MapCtor, ObjectCtor, ObjectPrototype, PromisePrototype, RangeErrorCtor,
            ReferenceErrorCtor, ReferenceErrorPrototype, RegExpCtor, SetCtor, TypeErrorCtor, Uint8ArrayCtor,
            WeakMapCtor, WeakSetCtor, apply, arrayBufferByteLength, arrayBufferMaxByteLength, arrayBufferResizable,
            arrayJoin, bigintValueOf, booleanValueOf, charCodeAt, dataViewBuffer, dataViewByteLength,
            dataViewByteOffset, dateGetTime, functionToString, getOwnPropertyNames, globalEval, isArray, jsonParse,
            jsonStringify, mapDelete, mapEntries, mapGet, mapHas, mapIterNext, mapSet, mapSize, numberIsInteger, numberValueOf,
            objectIsPrototypeOf, ownStackGetter, protoStackGetter, reflectDefineProperty, reflectDeleteProperty,
            reflectOwnKeys, regexpExec, regexpSource, setAdd, setHas, setIterNext, setSize, setValues,
            sharedArrayBufferByteLength, stringSlice, stringValueOf, symbolFor, symbolKeyFor, symbolValueOf,
            typedArrayBuffer, typedArrayByteOffset, typedArrayLength, typedArrayTag, weakMapGet, weakMapHas,
            weakMapSet, weakRefDeref, weakSetAdd, weakSetHas */
// ------------------------------------------------------------------------------------------------------------
// Captured intrinsics
const globalObject = globalThis;
const ObjectCtor = Object;
const ObjectPrototype = Object.prototype;
const ArrayPrototype = Array.prototype;
const FunctionPrototype = Function.prototype;
const getOwnPropertyNames = Object.getOwnPropertyNames;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const getPrototypeOf = Object.getPrototypeOf;
const hasOwn = Object.hasOwn;
const apply = Reflect.apply;
const reflectDefineProperty = Reflect.defineProperty;
const reflectDeleteProperty = Reflect.deleteProperty;
const reflectSetPrototypeOf = Reflect.setPrototypeOf;
const reflectOwnKeys = Reflect.ownKeys;
const isArray = Array.isArray;
const arrayJoin = Array.prototype.join;
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;
const functionToString = Function.prototype.toString;
const FunctionCtor = Function;
const globalEval = eval;
const numberIsInteger = Number.isInteger;
const charCodeAt = String.prototype.charCodeAt;
const stringSlice = String.prototype.slice;
const BigIntCtor = BigInt;
const symbolFor = Symbol.for;
const symbolKeyFor = Symbol.keyFor;
const ErrorCtor = Error;
const ReferenceErrorCtor = ReferenceError;
const ReferenceErrorPrototype = ReferenceError.prototype;
const RangeErrorCtor = RangeError;
const TypeErrorCtor = TypeError;
const ErrorPrototype = Error.prototype;
const objectIsPrototypeOf = Object.prototype.isPrototypeOf;
const DateCtor = Date;
const DatePrototype = Date.prototype;
const dateGetTime = Date.prototype.getTime;
const RegExpCtor = RegExp;
const RegExpPrototype = RegExp.prototype;
const regexpExec = RegExp.prototype.exec;

function getterOf(proto, name) {
  if (proto === undefined || proto === null) return undefined;
  const d = getOwnPropertyDescriptor(proto, name);
  return d !== undefined && !hasOwn(d, 'value') ? d.get : undefined;
}
function ownValue(obj, name) {
  if (obj === undefined || obj === null) return undefined;
  const d = getOwnPropertyDescriptor(obj, name);
  return d !== undefined && hasOwn(d, 'value') ? d.value : undefined;
}

const regexpSource = getterOf(RegExpPrototype, 'source');
const FLAG_GETTERS = [];
reflectSetPrototypeOf(FLAG_GETTERS, null);
{
  const flagNames = [['d', 'hasIndices'], ['g', 'global'], ['i', 'ignoreCase'], ['m', 'multiline'],
    ['s', 'dotAll'], ['u', 'unicode'], ['v', 'unicodeSets'], ['y', 'sticky']];
  let n = 0;
  for (let i = 0; i < flagNames.length; i++) {
    const get = getterOf(RegExpPrototype, flagNames[i][1]);
    if (get !== undefined) FLAG_GETTERS[n++] = [flagNames[i][0], get];
  }
}

const MapCtor = Map;
const MapPrototype = Map.prototype;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapHas = Map.prototype.has;
const mapDelete = Map.prototype.delete;
const mapSize = getterOf(MapPrototype, 'size');
const mapEntries = Map.prototype.entries;
const mapIterNext = getPrototypeOf(new Map().entries()).next;
const SetCtor = Set;
const SetPrototype = Set.prototype;
const setAdd = Set.prototype.add;
const setHas = Set.prototype.has;
const setSize = getterOf(SetPrototype, 'size');
const setValues = Set.prototype.values;
const setIterNext = getPrototypeOf(new Set().values()).next;
const WeakMapCtor = WeakMap;
const weakMapGet = WeakMap.prototype.get;
const weakMapSet = WeakMap.prototype.set;
const weakMapHas = WeakMap.prototype.has;
const WeakSetCtor = WeakSet;
const weakSetAdd = WeakSet.prototype.add;
const weakSetHas = WeakSet.prototype.has;
const WeakRefPrototype = typeof WeakRef === 'function' ? WeakRef.prototype : undefined;
const weakRefDeref = WeakRefPrototype !== undefined ? WeakRefPrototype.deref : undefined;
const FinalizationRegistryPrototype = typeof FinalizationRegistry === 'function' ? FinalizationRegistry.prototype
  : undefined;
const PromisePrototype = Promise.prototype;

const ArrayBufferCtor = ArrayBuffer;
const ArrayBufferPrototype = ArrayBuffer.prototype;
const arrayBufferByteLength = getterOf(ArrayBufferPrototype, 'byteLength');
const arrayBufferResizable = getterOf(ArrayBufferPrototype, 'resizable');
const arrayBufferMaxByteLength = getterOf(ArrayBufferPrototype, 'maxByteLength');
const SharedArrayBufferPrototype = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer.prototype : undefined;
const sharedArrayBufferByteLength = getterOf(SharedArrayBufferPrototype, 'byteLength');
const DataViewCtor = DataView;
const DataViewPrototype = DataView.prototype;
const dataViewBuffer = getterOf(DataViewPrototype, 'buffer');
const dataViewByteOffset = getterOf(DataViewPrototype, 'byteOffset');
const dataViewByteLength = getterOf(DataViewPrototype, 'byteLength');
const Uint8ArrayCtor = Uint8Array;
const TypedArrayCtor = getPrototypeOf(Int8Array);
const TypedArrayPrototype = TypedArrayCtor.prototype;
const typedArrayTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayBuffer = getterOf(TypedArrayPrototype, 'buffer');
const typedArrayByteOffset = getterOf(TypedArrayPrototype, 'byteOffset');
const typedArrayLength = getterOf(TypedArrayPrototype, 'length');
const TYPED = { __proto__: null };
{
  const typedNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
    'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
  for (let i = 0; i < typedNames.length; i++) {
    const ctor = ownValue(globalObject, typedNames[i]);
    if (typeof ctor === 'function') TYPED[typedNames[i]] = [ctor, ownValue(ctor, 'BYTES_PER_ELEMENT')];
  }
}

const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const booleanValueOf = Boolean.prototype.valueOf;
const bigintValueOf = BigInt.prototype.valueOf;
const symbolValueOf = Symbol.prototype.valueOf;

const GeneratorFunctionPrototype = getPrototypeOf(function* () {});
const GeneratorPrototype = ownValue(GeneratorFunctionPrototype, 'prototype');
const AsyncGeneratorFunctionPrototype = getPrototypeOf(async function* () {});
const AsyncGeneratorPrototype = ownValue(AsyncGeneratorFunctionPrototype, 'prototype');
const AsyncFunctionPrototype = getPrototypeOf(async function () {});
const IteratorPrototype = getPrototypeOf(GeneratorPrototype);
const AsyncIteratorPrototype = getPrototypeOf(AsyncGeneratorPrototype);

// Error.stack may be an own data property (V8), an own accessor or an inherited accessor; only the engine's own
// getter is ever called.
const ownStackGetter = getterOf(new ErrorCtor('probe'), 'stack');
const protoStackGetter = getterOf(ErrorPrototype, 'stack');
