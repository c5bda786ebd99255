// Math.random per cell: the engine's own, or, for a cell the host runs under a seed (a cell whose host calls are
// recorded so it can be replayed), a generator seeded for that cell, so a re-run draws the same numbers.
/* global defineProperty */
/* exported seedMathRandom */
const MathObject = Math;
const engineRandom = Math.random;
// Captured now: the model's code may replace Math's functions.
const imul = Math.imul;
const floor = Math.floor;

// sfc32 (Chris Doty-Humphrey's Small Fast Counter), its state filled from the seed by splitmix32 and mixed in by a
// few draws: a 32-bit generator with good statistics whose every draw is a pure function of the seed.
function seededRandom(seed) {
  const high = floor(seed / 4294967296) >>> 0;
  let s = (seed >>> 0) ^ imul(high, 0x9e3779b9);
  const split = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = imul(z ^ (z >>> 16), 0x85ebca6b);
    z = imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  // 53 random bits, as the engine's Math.random gives.
  return function random() {
    return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
  };
}

// Installs Math.random for the next cell: seeded by `seed` (a non-negative safe integer), or the engine's for null.
function seedMathRandom(seed) {
  const fn = seed === null || seed === undefined ? engineRandom : seededRandom(seed);
  defineProperty(MathObject, 'random', { value: fn, writable: true, enumerable: false, configurable: true });
}
