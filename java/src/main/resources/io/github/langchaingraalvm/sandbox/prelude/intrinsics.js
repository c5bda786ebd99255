// The built-ins the prelude uses, captured before any model code runs, and the caps on what crosses to the host.
/* exported ArrayBufferPrototype, DEFAULT_BUDGET, DataViewPrototype, DatePrototype, ErrorPrototype, IDENT,
            MapPrototype, ObjectPrototype, PromiseCtor, PromisePrototype, RangeErrorCtor, RegExpPrototype,
            SetPrototype, StringCtor, WeakMapPrototype, WeakSetPrototype, arrayBufferByteLength, arrayJoin,
            arrayPush, clip, construct, dateGetTime, dateToISOString, dateToString, defineProperty, errorToString,
            functionToString, getOwnPropertyNames, getOwnPropertySymbols, isArray, jsonStringify, list, mapEntries,
            mapIterNext, mapSize, numberIsInteger, objectIsPrototypeOf, promiseThen, regexpTest, regexpToString,
            setIterNext, setSize, setValues, stringIndexOf, stringReplace, stringSplit, symbolToString,
            typedArrayLength, typedArrayTag */
const ObjectCtor = Object;
const getOwnPropertyNames = ObjectCtor.getOwnPropertyNames;
const getOwnPropertySymbols = ObjectCtor.getOwnPropertySymbols;
const getOwnPropertyDescriptor = ObjectCtor.getOwnPropertyDescriptor;
const getPrototypeOf = ObjectCtor.getPrototypeOf;
const defineProperty = ObjectCtor.defineProperty;
const ObjectPrototype = ObjectCtor.prototype;
const isArray = Array.isArray;
const apply = Reflect.apply;
const construct = Reflect.construct;
const jsonStringify = JSON.stringify;
const StringCtor = String;
const numberIsInteger = Number.isInteger;
const call = (fn, self, ...args) => apply(fn, self, args);
const functionToString = Function.prototype.toString;
const symbolToString = Symbol.prototype.toString;
const errorToString = Error.prototype.toString;
const regexpToString = RegExp.prototype.toString;
const DatePrototype = Date.prototype;
const dateGetTime = Date.prototype.getTime;
const dateToISOString = Date.prototype.toISOString;
const dateToString = Date.prototype.toString;
const MapPrototype = Map.prototype;
const mapSize = getOwnPropertyDescriptor(Map.prototype, 'size').get;
const mapEntries = Map.prototype.entries;
const SetPrototype = Set.prototype;
const setSize = getOwnPropertyDescriptor(Set.prototype, 'size').get;
const setValues = Set.prototype.values;
const mapIterNext = getPrototypeOf(new Map().entries()).next;
const setIterNext = getPrototypeOf(new Set().values()).next;
const RegExpPrototype = RegExp.prototype;
const ErrorPrototype = Error.prototype;
const PromisePrototype = Promise.prototype;
const promiseThen = Promise.prototype.then;
const PromiseCtor = Promise;
const RangeErrorCtor = RangeError;
const WeakMapPrototype = WeakMap.prototype;
const WeakSetPrototype = WeakSet.prototype;
const ArrayBufferPrototype = ArrayBuffer.prototype;
const arrayBufferByteLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const TypedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const typedArrayLength = getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
const DataViewPrototype = DataView.prototype;
const objectIsPrototypeOf = Object.prototype.isPrototypeOf;
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
const objectSetPrototypeOf = ObjectCtor.setPrototypeOf;
const list = () => objectSetPrototypeOf([], null);
const clip = (s) => (s.length > HOST_STRING_CAP ? call(stringSlice, s, 0, HOST_STRING_CAP) : s);
