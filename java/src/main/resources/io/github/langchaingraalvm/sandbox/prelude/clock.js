// The frozen clock: Date, Date.now and Intl.DateTimeFormat's "now" answer one fixed instant.
/* global DatePrototype, call, construct, dateToString, defineProperty, getOwnPropertyDescriptor, globalObject,
          options */
if (options.frozenClock) {
  const RealDate = Date;
  const fixed = options.epochMillis;
  const frozenNow = function now() { return fixed; };
  // The proxy below only answers `Date.now` reads; its target's own `now` is reachable through property
  // descriptors (Object.getOwnPropertyDescriptor(Date, 'now').value()), so it is replaced as well.
  defineProperty(RealDate, 'now', { value: frozenNow, writable: true, enumerable: false, configurable: true });
  // Intl.DateTimeFormat formats "now" when given no date: format() and formatToParts() get the frozen instant.
  const dtfProto = typeof Intl === 'object' && Intl !== null ? Intl.DateTimeFormat.prototype : undefined;
  if (dtfProto !== undefined) {
    const formatGetter = getOwnPropertyDescriptor(dtfProto, 'format').get;
    const realFormatToParts = dtfProto.formatToParts;
    const formats = new WeakMap();
    // WeakMap.prototype.get and .set, under the names the format getter's source text has always used: the guest
    // can read that text (Function.prototype.toString of the getter), so it stays as it was.
    const weakGet = WeakMap.prototype.get;
    const weakSet = WeakMap.prototype.set;
    defineProperty(dtfProto, 'format', {
      get() {
        const bound = call(formatGetter, this);
        // One function per formatter, as the spec's cached bound format.
        let format = call(weakGet, formats, this);
        if (format === undefined) {
          format = function (date) {
            return bound(date === undefined ? fixed : date);
          };
          call(weakSet, formats, this, format);
        }
        return format;
      },
      enumerable: false,
      configurable: true,
    });
    defineProperty(dtfProto, 'formatToParts', {
      value: function formatToParts(date) {
        return call(realFormatToParts, this, date === undefined ? fixed : date);
      },
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
  // A plain function rather than a Proxy: `new Date(x)` is in the inner loop of much model code, and a construct
  // trap (with its arguments array) runs several times slower than a direct construction. The argument count
  // decides, as in Date itself: `new Date(2024, 1)` and `new Date(2024, 1, undefined)` differ.
  const FrozenDate = function Date(year, month, day, hours, minutes, seconds, millis) {
    if (new.target === undefined) return call(dateToString, new RealDate(fixed));
    const n = arguments.length;
    if (new.target !== FrozenDate) return construct(RealDate, n === 0 ? [fixed] : [...arguments], new.target);
    switch (n) {
      case 0: return new RealDate(fixed);
      case 1: return new RealDate(year);
      case 2: return new RealDate(year, month);
      case 3: return new RealDate(year, month, day);
      case 4: return new RealDate(year, month, day, hours);
      case 5: return new RealDate(year, month, day, hours, minutes);
      case 6: return new RealDate(year, month, day, hours, minutes, seconds);
      default: return new RealDate(year, month, day, hours, minutes, seconds, millis);
    }
  };
  defineProperty(FrozenDate, 'prototype', { value: DatePrototype, writable: false, enumerable: false, configurable: false });
  for (const key of ['UTC', 'parse']) {
    defineProperty(FrozenDate, key, { value: RealDate[key], writable: true, enumerable: false, configurable: true });
  }
  defineProperty(FrozenDate, 'now', { value: frozenNow, writable: true, enumerable: false, configurable: true });
  defineProperty(DatePrototype, 'constructor', { value: FrozenDate, writable: true, enumerable: false, configurable: true });
  defineProperty(globalObject, 'Date', { value: FrozenDate, writable: true, enumerable: false, configurable: true });
}
