// Helpers that never look anything up on a guest-modifiable prototype: private collections, regexps, brand checks.
/* global MapCtor, RegExpCtor, SetCtor, WeakMapCtor, WeakSetCtor, apply, charCodeAt, jsonStringify, mapDelete, mapGet,
          mapHas, mapSet, reflectDefineProperty, reflectSetPrototypeOf, regexpExec, setAdd, setHas, stringSlice,
          weakMapGet, weakMapHas, weakMapSet, weakSetAdd, weakSetHas */
/* exported BASE64_RE, BIGINT_RE, EXPR_START_RE, IDENT_RE, NATIVE_RE, brand, code, dataDescriptor, isIndexKey,
            isObject, list, mGet, mHas, mSet, privateMap, privateSet, privateWeakMap, privateWeakSet, quote, slice,
            wmGet, wmHas, wmSet, wsAdd, wsHas */
// ------------------------------------------------------------------------------------------------------------
// Small safe helpers (no guest-reachable prototype lookups)
function list() {
  const a = [];
  reflectSetPrototypeOf(a, null);
  return a;
}
// The codec's own collections and regexps carry the captured methods as own, read-only properties: calls
// never reach the (guest-modifiable) prototypes, and are cheaper than Reflect.apply with an argument list.
function withOwn(target, methods) {
  for (let i = 0; i < methods.length; i += 2) {
    reflectDefineProperty(target, methods[i], { __proto__: null, value: methods[i + 1] });
  }
  return target;
}
const privateMap = () => withOwn(new MapCtor(), ['get', mapGet, 'set', mapSet, 'has', mapHas, 'delete', mapDelete]);
const privateSet = () => withOwn(new SetCtor(), ['add', setAdd, 'has', setHas]);
const privateWeakMap = () => withOwn(new WeakMapCtor(), ['get', weakMapGet, 'set', weakMapSet, 'has', weakMapHas]);
const privateWeakSet = () => withOwn(new WeakSetCtor(), ['add', weakSetAdd, 'has', weakSetHas]);
const mGet = (m, k) => m.get(k);
const mSet = (m, k, v) => m.set(k, v);
const mHas = (m, k) => m.has(k);
const wmGet = (m, k) => m.get(k);
const wmSet = (m, k, v) => m.set(k, v);
const wmHas = (m, k) => m.has(k);
const wsAdd = (s, v) => s.add(v);
const wsHas = (s, v) => s.has(v);
const quote = (s) => jsonStringify(s);
const code = (s, i) => apply(charCodeAt, s, [i]);
const slice = (s, a, b) => apply(stringSlice, s, [a, b]);
// A regexp is made on its first use: making one parses its pattern, which in a fresh process costs more than the
// rest of the factory (a Unicode property class most of all), and a context may never need it.
function regex(source, flags) {
  let re = null;
  return {
    __proto__: null,
    exec(s) {
      if (re === null) re = withOwn(new RegExpCtor(source, flags), ['exec', regexpExec]);
      return re.exec(s);
    },
  };
}
const test = (re, s) => re.exec(s) !== null;
function brand(fn, value, arg) {
  if (fn === undefined) return false;
  try {
    apply(fn, value, [arg]);
    return true;
  } catch (e) {
    return false;
  }
}
const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
const dataDescriptor = (value, enumerable) =>
  ({ __proto__: null, value, writable: true, enumerable, configurable: true });

const IDENT_RE = regex('^[A-Za-z_$][A-Za-z0-9_$]*$', '');
const INDEX_RE = regex('^(?:0|[1-9][0-9]*)$', '');
const BIGINT_RE = regex('^-?(?:0|[1-9][0-9]*)$', '');
const NATIVE_RE = regex('\\{\\s*\\[native code\\]\\s*\\}\\s*$', '');
const BASE64_RE = regex('^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$', '');
const EXPR_START_RE = regex('^(?:async(?![\\p{ID_Continue}$])|function(?![\\p{ID_Continue}$])|' +
  'class(?![\\p{ID_Continue}$])|\\(|[\\p{ID_Start}$_][\\p{ID_Continue}$\\u200C\\u200D]*\\s*=>)', 'u');

const isIndexKey = (k) => test(INDEX_RE, k) && +k < 4294967295;
