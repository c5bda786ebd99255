// The decoder's validation pass, put in the body of decode (decoder.js): checks every value and entry, changes nothing.
/* global ArrayBufferCtor, BASE64_RE, BIGINT_RE, DataViewCtor, EXACT, FIXED, HIDDEN_ERROR_KEYS, RegExpCtor, TYPED,
          Uint8ArrayCtor, apply, arrayBufferByteLength, arrayBufferResizable, bad, base64Decode, base64Length,
          globals, heap, intrinsicByName, isArray, isObject, list, mGet, mHas, n, numberIsInteger, privateSet,
          quote, shapes, test */
// ---- validation (no side effects) ----
const kinds = list();
const ready = list(); // regexps, buffers and views built during validation

function isRef(x) {
  return isArray(x) && x.length === 1 && typeof x[0] === 'number' && numberIsInteger(x[0]) && x[0] >= 0 && x[0] < n;
}
function checkValue(x, where, allowHole, allowAccessor) {
  const t = typeof x;
  if (t === 'string' || t === 'boolean' || t === 'number' || x === null) return;
  if (!isArray(x) || x.length === 0) bad('malformed value in ' + where);
  const tag = x[0];
  if (typeof tag === 'number') {
    if (!isRef(x)) bad('bad reference in ' + where);
    return;
  }
  const len = x.length;
  switch (tag) {
    case 'u': case 'NaN': case 'Infinity': case '-Infinity': case '-0':
      if (len === 1) return;
      break;
    case 'h':
      if (allowHole && len === 1) return;
      break;
    case 'n':
      if (len === 2 && typeof x[1] === 'string' && test(BIGINT_RE, x[1])) return;
      break;
    case 'y':
      if (len === 2 && typeof x[1] === 'string') return;
      break;
    case 'i':
      if (len === 2 && typeof x[1] === 'string') {
        if (!mHas(intrinsicByName, x[1])) bad('unknown intrinsic ' + quote(x[1]) + ' in ' + where);
        return;
      }
      break;
    case 'r':
      if (len === 3 && typeof x[1] === 'string' && typeof x[2] === 'string') return;
      break;
    case 'g':
      if (allowAccessor && len === 3) {
        checkFunctionValue(x[1], where);
        checkFunctionValue(x[2], where);
        return;
      }
      break;
  }
  bad('malformed value in ' + where);
}
function checkFunctionValue(x, where) {
  if (isArray(x) && x.length === 1 && x[0] === 'u') return;
  if (isRef(x) && (kinds[x[0]] === 'F' || kinds[x[0]] === 'R')) return;
  if (isArray(x) && x.length === 2 && x[0] === 'i' && typeof x[1] === 'string' &&
    typeof mGet(intrinsicByName, x[1]) === 'function') return;
  bad('accessor functions must be functions in ' + where);
}
function checkObject(x, where, allowZero, allowNull) {
  if ((x === 0 && allowZero) || (x === null && allowNull) || isRef(x)) return;
  if (isArray(x) && x.length === 2 && x[0] === 'i' && typeof x[1] === 'string' &&
    isObject(mGet(intrinsicByName, x[1]))) return;
  bad('expected an object reference in ' + where);
}
function checkProps(e, start, where, noLength) {
  for (let j = start; j < e.length; j += 2) {
    if (typeof e[j] !== 'string') bad('property keys must be strings in ' + where);
    if (noLength && e[j] === 'length') bad('arrays cannot restore "length" as a property in ' + where);
    checkValue(e[j + 1], where, false, true);
  }
}
function checkCount(x, where, max) {
  if (typeof x !== 'number' || !numberIsInteger(x) || x < 0 || x > max) bad('bad size or offset in ' + where);
}

for (let i = 0; i < shapes.length; i++) {
  const sh = shapes[i];
  if (!isArray(sh) || sh.length === 0) bad('malformed shape ' + i);
  const keys = privateSet();
  for (let j = 1; j < sh.length; j++) {
    if (typeof sh[j] !== 'string') bad('malformed shape ' + i);
    if (keys.has(sh[j])) bad('duplicate key in shape ' + i);
    keys.add(sh[j]);
  }
}
for (let i = 0; i < n; i++) {
  const e = heap[i];
  if (!isArray(e) || e.length === 0 || typeof e[0] !== 'string') bad('malformed entry ' + i);
  const k = e[0];
  if (k === 'o') {
    if (e.length < 2 || typeof e[1] !== 'number' || !numberIsInteger(e[1]) || e[1] < 0 || e[1] >= shapes.length ||
      e.length !== shapes[e[1]].length + 1) bad('malformed entry ' + i);
  } else if (k !== 'a') {
    const fixed = FIXED[k];
    if (fixed === undefined) bad('unknown entry kind in entry ' + i);
    if (EXACT[k] ? e.length !== fixed : e.length < fixed || ((e.length - fixed) & 1) !== 0) {
      bad('wrong length of entry ' + i);
    }
  }
  kinds[i] = k;
}
for (let i = 0; i < shapes.length; i++) checkObject(shapes[i][0], 'shape ' + i, true, true);
for (let i = 0; i < n; i++) {
  const e = heap[i];
  const kind = kinds[i];
  // Plain objects and arrays are most entries, and strings, numbers, booleans and null most of their values.
  if (kind === 'o' || kind === 'a') {
    for (let j = kind === 'o' ? 2 : 1; j < e.length; j++) {
      const x = e[j];
      if (typeof x === 'object' && x !== null) checkValue(x, 'entry ' + i, false, true);
    }
    continue;
  }
  const where = 'entry ' + i;
  switch (kind) {
    case 'A': {
      checkCount(e[1], where, 4294967295);
      if (e[2] !== 0) {
        if (!isArray(e[2]) || e[2].length !== e[1]) bad('array elements do not match length in ' + where);
        for (let j = 0; j < e[2].length; j++) checkValue(e[2][j], where, true, true);
      }
      checkObject(e[3], where, true, true);
      checkProps(e, 4, where, true);
      break;
    }
    case 'P':
      if (!numberIsInteger(e[1]) || e[1] < 0 || e[1] >= n || kinds[e[1]] !== 'F') bad('bad function in ' + where);
      checkObject(e[2], where, true, true);
      checkProps(e, 3, where, false);
      break;
    case 'F':
      if (typeof e[1] !== 'string' || (e[2] !== 0 && e[2] !== 1) || (typeof e[3] !== 'string' && e[3] !== null) ||
        typeof e[5] !== 'string') bad('malformed function in ' + where);
      checkObject(e[4], where, true, false);
      checkProps(e, 6, where, false);
      break;
    case 'M': {
      checkObject(e[1], where, true, true);
      const entries = e[2];
      if (!isArray(entries) || (entries.length & 1) !== 0) bad('malformed map entries in ' + where);
      for (let j = 0; j < entries.length; j++) checkValue(entries[j], where, false, false);
      checkProps(e, 3, where, false);
      break;
    }
    case 'S': {
      checkObject(e[1], where, true, true);
      if (!isArray(e[2])) bad('malformed set elements in ' + where);
      for (let j = 0; j < e[2].length; j++) checkValue(e[2][j], where, false, false);
      checkProps(e, 3, where, false);
      break;
    }
    case 'D': {
      checkObject(e[1], where, true, true);
      const t = e[2];
      if (!(typeof t === 'number' || (isArray(t) && t.length === 1 && t[0] === 'NaN'))) bad('bad time in ' + where);
      checkProps(e, 3, where, false);
      break;
    }
    case 'X': {
      checkObject(e[1], where, true, true);
      if (typeof e[2] !== 'string' || typeof e[3] !== 'string') bad('malformed regexp in ' + where);
      checkCount(e[4], where, 9007199254740991);
      let re;
      try {
        re = new RegExpCtor(e[2], e[3]);
      } catch (err) {
        bad('invalid regular expression in ' + where);
      }
      ready[i] = re;
      checkProps(e, 5, where, false);
      break;
    }
    case 'E': {
      checkObject(e[1], where, true, true);
      const hidden = e[2];
      if (!isArray(hidden) || (hidden.length & 1) !== 0) bad('malformed error fields in ' + where);
      for (let j = 0; j < hidden.length; j += 2) {
        if (typeof hidden[j] !== 'string' || HIDDEN_ERROR_KEYS[hidden[j]] !== true) {
          bad('bad error field in ' + where);
        }
        checkValue(hidden[j + 1], where, false, true);
      }
      checkProps(e, 3, where, false);
      break;
    }
    case 'B': {
      if (typeof e[1] !== 'string' || !test(BASE64_RE, e[1])) bad('bad base64 in ' + where);
      const len = base64Length(e[1]);
      if (e[2] !== -1) checkCount(e[2], where, 9007199254740991);
      if (e[2] !== -1 && e[2] < len) bad('maxByteLength below byteLength in ' + where);
      let b;
      try {
        b = e[2] >= 0 && arrayBufferResizable !== undefined
          ? new ArrayBufferCtor(len, { __proto__: null, maxByteLength: e[2] })
          : new ArrayBufferCtor(len);
      } catch (err) {
        bad('cannot allocate the buffer of ' + where);
      }
      base64Decode(e[1], new Uint8ArrayCtor(b));
      ready[i] = b;
      break;
    }
    case 'R':
      if (typeof e[1] !== 'string' || typeof e[2] !== 'string') bad('malformed residue in ' + where);
      break;
    default:
      break;
  }
}
// Views after all buffers exist (a view on a buffer that could not be saved is a residue too).
for (let i = 0; i < n; i++) {
  const e = heap[i];
  const where = 'entry ' + i;
  if (kinds[i] === 'T') {
    const info = typeof e[1] === 'string' ? TYPED[e[1]] : undefined;
    if (info === undefined) bad('unknown typed array type in ' + where);
    if (!numberIsInteger(e[2]) || e[2] < 0 || e[2] >= n || (kinds[e[2]] !== 'B' && kinds[e[2]] !== 'R')) {
      bad('bad buffer in ' + where);
    }
    checkCount(e[3], where, 9007199254740991);
    checkCount(e[4], where, 9007199254740991);
    if (kinds[e[2]] === 'R') continue;
    const bytes = apply(arrayBufferByteLength, ready[e[2]], []);
    if (e[3] % info[1] !== 0 || e[3] + e[4] * info[1] > bytes) bad('view out of range in ' + where);
    ready[i] = new info[0](ready[e[2]], e[3], e[4]);
  } else if (kinds[i] === 'V') {
    if (!numberIsInteger(e[1]) || e[1] < 0 || e[1] >= n || (kinds[e[1]] !== 'B' && kinds[e[1]] !== 'R')) {
      bad('bad buffer in ' + where);
    }
    checkCount(e[2], where, 9007199254740991);
    checkCount(e[3], where, 9007199254740991);
    if (kinds[e[1]] === 'R') continue;
    if (e[2] + e[3] > apply(arrayBufferByteLength, ready[e[1]], [])) bad('view out of range in ' + where);
    ready[i] = new DataViewCtor(ready[e[1]], e[2], e[3]);
  } else if (kinds[i] === 'W') {
    const x = e[1];
    const t = typeof x;
    if (!(t === 'string' || t === 'number' || t === 'boolean' || (isArray(x) && (x.length === 1 &&
      (x[0] === 'NaN' || x[0] === 'Infinity' || x[0] === '-Infinity' || x[0] === '-0') ||
      (x.length === 2 && x[0] === 'n' && typeof x[1] === 'string' && test(BIGINT_RE, x[1])))))) {
      bad('bad boxed primitive in ' + where);
    }
  }
}
const nameSet = privateSet();
for (let j = 0; j < globals.length; j += 2) {
  const name = globals[j];
  if (typeof name !== 'string') bad('global names must be strings');
  if (nameSet.has(name)) bad('duplicate global ' + quote(name));
  nameSet.add(name);
  checkValue(globals[j + 1], 'global ' + quote(name), false, true);
}
