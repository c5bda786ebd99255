// Host calls: tools.<name>(input) and task(spec) send JSON to the host and return a Promise it settles.
/* global DataViewPrototype, DatePrototype, ObjectCtor, PromiseCtor, RangeErrorCtor, StringCtor, call, dateGetTime,
          dateToISOString, defineProperty, isArray, jsonStringify, numberIsInteger, options, protoChainHas, setHas,
          setSize, stringIndexOf, stringSlice, typedArrayLength, typedArrayTag */
/* exported jsonParse, makeTool, mapClear, mapDelete, mapGet, objectCreate, revive */
// Host calls: `tools.<name>(input)` and `task(spec)`. Each call hands its input to the host as JSON and returns
// a pending Promise that the host settles later on this thread. Everything used here was captured above, before
// any model code ran, so a guest that replaces JSON, Promise or prototype methods cannot change what is sent.
const hostCall = options.hostCall;
const pendingCalls = new Map();
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapDelete = Map.prototype.delete;
const mapClear = Map.prototype.clear;
const SetCtor = Set;
const setAdd = Set.prototype.add;
const setDelete = Set.prototype.delete;
const jsonParse = JSON.parse;
const objectKeys = ObjectCtor.keys;
const objectFreeze = ObjectCtor.freeze;
const objectCreate = ObjectCtor.create;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const BigIntCtor = BigInt;
const bigintToString = BigInt.prototype.toString;
const Uint8ArrayCtor = Uint8Array;
const arrayBufferIsView = ArrayBuffer.isView;
const numberIsFinite = Number.isFinite;
const numberToExponential = Number.prototype.toExponential;
const MAX_INPUT_DEPTH = 64;
const TAG_BIGINT = '\u0000bigint';
const TAG_BYTES = '\u0000bytes';
const TAG_NUMBER = '\u0000number';

function hostError(type, message, detail) {
  const e = new ErrorCtor(message);
  defineProperty(e, 'name', { value: type, writable: true, enumerable: false, configurable: true });
  // fs errors carry Node's fields (code, path, syscall) as own properties, so `e.code === 'ENOENT'` works.
  if (detail !== null && typeof detail === 'object' && typeof detail.code === 'string') {
    defineProperty(e, 'code', { value: detail.code, writable: true, enumerable: true, configurable: true });
    if (typeof detail.path === 'string') defineProperty(e, 'path', { value: detail.path, writable: true, enumerable: true, configurable: true });
    if (typeof detail.syscall === 'string') defineProperty(e, 'syscall', { value: detail.syscall, writable: true, enumerable: true, configurable: true });
  }
  return e;
}

function rejectWith(error) {
  return new PromiseCtor((resolve, reject) => reject(error));
}

// JSON text of a guest value, following JSON.stringify's rules except that it never calls toJSON, BigInts and
// bytes are kept (tagged), and undefined properties are dropped so the tool's defaults apply.
function wire(value, label, inArray, seen) {
  switch (typeof value) {
    case 'string':
      return jsonStringify(value);
    case 'number':
      if (!numberIsFinite(value)) return '{"\\u0000number":' + jsonStringify(StringCtor(value)) + '}';
      // An integer beyond 2^53 is written in exponent form, so the host reads the same double, not an int.
      return numberIsInteger(value) && (value >= 9007199254740992 || value <= -9007199254740992)
        ? call(numberToExponential, value)
        : jsonStringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return '{"\\u0000bigint":"' + call(bigintToString, value) + '"}';
    case 'undefined':
    case 'function':
    case 'symbol':
      return inArray ? 'null' : undefined;
  }
  if (value === null) return 'null';
  // Strings and a Set only: nothing here writes to an array, so index accessors on prototypes never run.
  if (call(setSize, seen) >= MAX_INPUT_DEPTH) {
    throw new TypeErrorCtor(label + ': the input is nested more than ' + MAX_INPUT_DEPTH + ' levels deep');
  }
  if (call(setHas, seen, value)) throw new TypeErrorCtor(label + ': the input contains a circular reference');
  if (protoChainHas(value, DatePrototype)) {
    const time = call(dateGetTime, value);
    return time === time ? jsonStringify(call(dateToISOString, value)) : 'null';
  }
  call(setAdd, seen, value);
  try {
    let out = '';
    if (arrayBufferIsView(value) && !protoChainHas(value, DataViewPrototype)) {
      const bytes = call(typedArrayTag, value) === 'Uint8Array';
      const n = call(typedArrayLength, value);
      for (let i = 0; i < n; i++) out += (i ? ',' : '') + (bytes ? StringCtor(value[i]) : wire(value[i], label, true, seen));
      return bytes ? '{"\\u0000bytes":[' + out + ']}' : '[' + out + ']';
    }
    if (isArray(value)) {
      const n = value.length;
      for (let i = 0; i < n; i++) out += (i ? ',' : '') + wire(value[i], label, true, seen);
      return '[' + out + ']';
    }
    const keys = objectKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const text = wire(value[keys[i]], label, false, seen);
      if (text !== undefined) out += (out ? ',' : '') + jsonStringify(keys[i]) + ':' + text;
    }
    return '{' + out + '}';
  } finally {
    call(setDelete, seen, value);
  }
}

// A tool's input: an object is its arguments; nothing is {}; anything else is wrapped as {input: value}.
function callInput(label, input) {
  if (input === undefined || input === null) return '{}';
  const plainObject = typeof input === 'object' && !isArray(input) && !arrayBufferIsView(input) && !protoChainHas(input, DatePrototype);
  return plainObject ? wire(input, label, false, new SetCtor()) : '{"input":' + wire(input, label, true, new SetCtor()) + '}';
}

function revive(key, value) {
  if (value !== null && typeof value === 'object' && !isArray(value)) {
    const keys = objectKeys(value);
    if (keys.length === 1) {
      const tag = keys[0];
      if (tag === TAG_BIGINT) return BigIntCtor(value[tag]);
      if (tag === TAG_NUMBER) return +value[tag];
      if (tag === TAG_BYTES) return new Uint8ArrayCtor(value[tag]);
    }
  }
  return value;
}

function startCall(kind, name, label, input) {
  let text;
  try {
    text = callInput(label, input);
  } catch (e) {
    return rejectWith(e);
  }
  if (text.length > MAX_INPUT_CHARS) {
    return rejectWith(new RangeErrorCtor(label + ': the input is ' + text.length + ' characters of JSON; at most '
      + MAX_INPUT_CHARS + ' may be sent to the host'));
  }
  const ticket = hostCall(kind, name, text);
  if (typeof ticket === 'string') {
    const cut = call(stringIndexOf, ticket, '\u0000');
    return rejectWith(hostError(call(stringSlice, ticket, 0, cut), call(stringSlice, ticket, cut + 1)));
  }
  return new PromiseCtor((resolve, reject) => {
    call(mapSet, pendingCalls, ticket, [resolve, reject]);
  });
}

function makeTool(name) {
  const label = 'tools.' + name;
  const fn = (input) => startCall('tool', name, label, input);
  defineProperty(fn, 'name', { value: name, writable: false, enumerable: false, configurable: false });
  return objectFreeze(fn);
}

const MAX_INPUT_CHARS = 8 * 1024 * 1024;
const taskFunction = (...args) => startCall('task', 'task', 'task', args[0]);
defineProperty(taskFunction, 'name', { value: 'task', writable: false, enumerable: false, configurable: false });
objectFreeze(taskFunction);
