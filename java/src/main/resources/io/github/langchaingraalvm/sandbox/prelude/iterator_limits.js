// Iterator.prototype.take and drop as the current specification has them: a finite limit above 2^53 - 1 is a
// RangeError, after ToNumber(limit) and before the iterator's `next` is read (GraalJS 25.0.3 accepts such a
// limit). The engine's method does the rest: it gets the limit as a number, so a `valueOf` runs once.
/* global RangeErrorCtor, apply, defineProperty, getOwnPropertyDescriptor, getPrototypeOf */
const IteratorPrototype = getPrototypeOf(getPrototypeOf([][Symbol.iterator]()));
const MAX_SAFE_INTEGER = 9007199254740991;

// IteratorClose(iterated, error): `return` is called if there is one, and the error is thrown whatever it does.
function closeAndThrow(iterator, error) {
  try {
    const close = iterator.return;
    if (close != null) apply(close, iterator, []);
  } catch (ignored) {
    // the first error wins, as in the specification
  }
  throw error;
}

for (const name of ['take', 'drop']) {
  const d = getOwnPropertyDescriptor(IteratorPrototype, name);
  if (d === undefined || typeof d.value !== 'function') continue;
  const native = d.value;
  const checked = {
    [name](limit) {
      // Not an object: the engine's TypeError comes before ToNumber, as it should.
      if (this === null || (typeof this !== 'object' && typeof this !== 'function')) {
        return apply(native, this, [limit]);
      }
      let n;
      try {
        n = +limit;
      } catch (error) {
        closeAndThrow(this, error);
      }
      if (n > MAX_SAFE_INTEGER && n !== Infinity) {
        closeAndThrow(this, new RangeErrorCtor(`${name}: the limit ${n} is above Number.MAX_SAFE_INTEGER`));
      }
      return apply(native, this, [n]);
    },
  }[name];
  d.value = checked;
  defineProperty(IteratorPrototype, name, d);
}
