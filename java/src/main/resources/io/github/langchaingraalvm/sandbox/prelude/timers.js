// queueMicrotask, where the engine has none.
/* global PromiseCtor, call, defineProperty, globalObject, promiseThen */
if (typeof globalObject.queueMicrotask !== 'function') {
  const queueMicrotask = function queueMicrotask(callback) {
    if (typeof callback !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
    call(promiseThen, new PromiseCtor((resolve) => resolve()), () => callback());
  };
  defineProperty(globalObject, 'queueMicrotask', { value: queueMicrotask, writable: true, enumerable: false, configurable: true });
}
