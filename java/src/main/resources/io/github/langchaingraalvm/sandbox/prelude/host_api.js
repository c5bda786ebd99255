// The factory's result: the helpers the host calls (render, describeError, host-call set-up and completion).
/* global PromiseCtor, PromisePrototype, SetCtor, StringCtor, arrayPush, call, defineProperty, describeError, fsObject,
          getOwnPropertyDescriptor, getOwnPropertyNames, globalObject, hostError, isArray, jsonParse, list,
          makeTool, mapClear, mapDelete, mapGet, objectCreate, objectFreeze, pendingCalls, promiseThen,
          protoChainHas, render, revive, seedMathRandom, setAdd, setDelete, stringSplit, taskFunction */
let installedTools = null;
let installedTask = false;
let installedFs = false;

const builtins = getOwnPropertyNames(globalObject);
const builtinSet = new Set(builtins);
const setHas = Set.prototype.has;
const initialNames = new Set(builtins);

// Whether the host-call globals installHostCallGlobals defined are still in place (the guest may delete them).
function hostCallGlobalsIntact() {
  const t = getOwnPropertyDescriptor(globalObject, 'tools');
  const k = getOwnPropertyDescriptor(globalObject, 'task');
  return (installedTools === null ? t === undefined || !call(setHas, builtinSet, 'tools') : t !== undefined && t.value === installedTools)
    && (installedTask ? k !== undefined && k.value === taskFunction : true)
    && (installedFs ? (getOwnPropertyDescriptor(globalObject, 'fs') || {}).value === fsObject : true);
}

// Defines the frozen `tools` object (names: comma-separated identifiers, or null for no `tools` at all), the `task`
// function and the `fs` object, replacing what an earlier call defined. None of them is a model global.
function installHostCallGlobals(names, withTask, withFs) {
  installedTools = null;
  installedTask = !!withTask;
  installedFs = !!withFs;
  if (withFs) {
    defineProperty(globalObject, 'fs', { value: fsObject, writable: false, enumerable: false, configurable: true });
    call(setAdd, builtinSet, 'fs');
  } else if (call(setHas, builtinSet, 'fs') && !call(setHas, initialNames, 'fs')) {
    delete globalObject.fs;
    call(setDelete, builtinSet, 'fs');
  }
  if (names === null) {
    if (call(setHas, builtinSet, 'tools') && !call(setHas, initialNames, 'tools')) {
      delete globalObject.tools;
      call(setDelete, builtinSet, 'tools');
    }
  } else {
    const t = objectCreate(null);
    const toolNames = names === '' ? [] : call(stringSplit, names, ',');
    for (let i = 0; i < toolNames.length; i++) {
      defineProperty(t, toolNames[i], { value: makeTool(toolNames[i]), writable: false, enumerable: true, configurable: false });
    }
    installedTools = objectFreeze(t);
    defineProperty(globalObject, 'tools', { value: installedTools, writable: false, enumerable: false, configurable: true });
    call(setAdd, builtinSet, 'tools');
  }
  if (withTask) {
    defineProperty(globalObject, 'task', { value: taskFunction, writable: false, enumerable: false, configurable: true });
    call(setAdd, builtinSet, 'task');
  } else if (call(setHas, builtinSet, 'task') && !call(setHas, initialNames, 'task')) {
    delete globalObject.task;
    call(setDelete, builtinSet, 'task');
  }
}

return {
  render(value, budget) {
    return render(value, true, budget);
  },
  describeError,
  // The host's names for the host-call globals (`tools`, `task`, `fs`): whether the ones it defined are still in
  // place (the guest may delete them), and defining them.
  hostCallsIntact: hostCallGlobalsIntact,
  installHostCalls: installHostCallGlobals,
  // Math.random for the next cell: seeded, or the engine's again for null.
  seedRandom: seedMathRandom,
  // Settles a host call: resolves with the JSON value, or rejects with an error built from {type, message}.
  completeCall(id, ok, text) {
    const entry = call(mapGet, pendingCalls, id);
    if (entry === undefined) return;
    call(mapDelete, pendingCalls, id);
    let value;
    try {
      value = jsonParse(text, revive);
    } catch (e) {
      entry[1](hostError('HostError', 'The host sent a result that is not valid JSON.'));
      return;
    }
    if (ok) {
      entry[0](value);
    } else {
      const error = hostError(StringCtor(value.type), StringCtor(value.message), value);
      entry[1](error);
    }
  },
  // Settles a batch: a JSON array of [id, ok, value] entries, value as completeCall takes it (parsed).
  completeCalls(text) {
    let batch;
    try {
      batch = jsonParse(text, revive);
    } catch (e) {
      batch = null;
    }
    if (!isArray(batch)) return;
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i];
      const entry = call(mapGet, pendingCalls, item[0]);
      if (entry === undefined) continue;
      call(mapDelete, pendingCalls, item[0]);
      const value = item[2];
      if (item[1] === true) entry[0](value);
      else entry[1](hostError(StringCtor(value && value.type), StringCtor(value && value.message), value));
    }
  },
  // Forgets calls of an earlier eval, whose completions will never come.
  dropCalls() {
    call(mapClear, pendingCalls);
  },
  isThenable(value) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
    if (protoChainHas(value, PromisePrototype)) return true;
    try {
      return typeof value.then === 'function';
    } catch (e) {
      return false;
    }
  },
  settle(value, onValue, onError) {
    call(promiseThen, new PromiseCtor((resolve) => resolve(value)), onValue, onError);
  },
  // Runs one polyfill group (a function of polyfills.js) for the host; the globals it adds (the constructors and
  // core-js's own store) are built-ins, not model globals, so snapshots and their diffs leave them out.
  installPolyfill(group) {
    const before = new SetCtor();
    const names = getOwnPropertyNames(globalObject);
    for (let i = 0; i < names.length; i++) call(setAdd, before, names[i]);
    group();
    const after = getOwnPropertyNames(globalObject);
    for (let i = 0; i < after.length; i++) {
      if (!call(setHas, before, after[i])) call(setAdd, builtinSet, after[i]);
    }
  },
  // The names the model added to the global object, in creation order.
  modelGlobals() {
    const names = getOwnPropertyNames(globalObject);
    const own = list();
    for (let i = 0; i < names.length; i++) {
      if (!call(setHas, builtinSet, names[i])) call(arrayPush, own, names[i]);
    }
    return own;
  },
};
