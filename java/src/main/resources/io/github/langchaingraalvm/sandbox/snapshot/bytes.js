// Bytes and sizes: base64 for ArrayBuffers, the UTF-8 length of the snapshot text, the size-limit error.
/* global RangeErrorCtor, Uint8ArrayCtor, apply, arrayJoin, code, list */
/* exported base64Decode, base64Encode, base64Length, tooBig, utf8Length */
function base64Encode(bytes, n) {
  const chunks = list();
  let nc = 0;
  let s = '';
  for (let i = 0; i < n; i += 3) {
    const rest = n - i;
    const t = (bytes[i] << 16) | (rest > 1 ? bytes[i + 1] << 8 : 0) | (rest > 2 ? bytes[i + 2] : 0);
    s += B64[t >>> 18] + B64[(t >>> 12) & 63] + (rest > 1 ? B64[(t >>> 6) & 63] : '=') +
      (rest > 2 ? B64[t & 63] : '=');
    if (s.length >= 16384) {
      chunks[nc++] = s;
      s = '';
    }
  }
  chunks[nc++] = s;
  return apply(arrayJoin, chunks, ['']);
}
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Uint8ArrayCtor(128);
for (let i = 0; i < 64; i++) B64_INDEX[code(B64, i)] = i;
function base64Length(s) {
  const n = s.length;
  if (n === 0) return 0;
  return (n / 4) * 3 - (s[n - 1] === '=' ? 1 : 0) - (s[n - 2] === '=' ? 1 : 0);
}
function base64Decode(s, bytes) {
  const n = s.length;
  let o = 0;
  for (let i = 0; i < n; i += 4) {
    const c2 = code(s, i + 2);
    const c3 = code(s, i + 3);
    const t = (B64_INDEX[code(s, i)] << 18) | (B64_INDEX[code(s, i + 1)] << 12) |
      (c2 === 61 ? 0 : B64_INDEX[c2] << 6) | (c3 === 61 ? 0 : B64_INDEX[c3]);
    bytes[o++] = t >>> 16;
    if (c2 !== 61) bytes[o++] = (t >>> 8) & 255;
    if (c3 !== 61) bytes[o++] = t & 255;
  }
}

function utf8Length(s) {
  let bytes = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = code(s, i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && code(s, i + 1) >= 0xdc00 && code(s, i + 1) < 0xe000) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function tooBig() {
  return new RangeErrorCtor('snapshot exceeds maxBytes');
}
