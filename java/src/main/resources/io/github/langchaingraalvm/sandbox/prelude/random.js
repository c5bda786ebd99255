// Math.random per cell: the engine's own, or, for a cell the host runs under a seed (a cell whose host calls are
// recorded so it can be replayed), a generator seeded for that cell, so a re-run draws the same numbers.
/* global defineProperty, getOwnPropertyDescriptor */
/* exported seedMathRandom */
const MathObject = Math;
const engineRandom = Math.random;
// Captured now: the model's code may replace Math's functions.
const imul = Math.imul;
const floor = Math.floor;

// sfc32 (Chris Doty-Humphrey's Small Fast Counter), its state filled from the seed by splitmix32 and mixed in by a
// few draws: a 32-bit generator with good statistics whose every draw is a pure function of the seed. One function
// serves every seeded cell (only its state is set again), so seeding a cell does not reshape Math.
let a = 0;
let b = 0;
let c = 0;
let d = 1;
function next() {
  const t = (((a + b) | 0) + d) | 0;
  d = (d + 1) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) | 0;
  return t >>> 0;
}
// 53 random bits, as the engine's Math.random gives.
const seededRandom = function random() {
  return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
};
let split = 0;
function splitmix32() {
  split = (split + 0x9e3779b9) | 0;
  let z = split;
  z = imul(z ^ (z >>> 16), 0x85ebca6b);
  z = imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

// Math.random for the next cell: seeded by `seed` (a non-negative safe integer), or the engine's for null.
function seedMathRandom(seed) {
  if (seed === null || seed === undefined) {
    setRandom(engineRandom);
    return;
  }
  split = (seed >>> 0) ^ imul(floor(seed / 4294967296) >>> 0, 0x9e3779b9);
  a = splitmix32();
  b = splitmix32();
  c = splitmix32();
  d = 1;
  for (let i = 0; i < 12; i++) next();
  // Read as a descriptor: the model's code may have made Math.random an accessor, which must not run here.
  const own = getOwnPropertyDescriptor(MathObject, 'random');
  if (own === undefined || own.value !== seededRandom) {
    setRandom(seededRandom);
  }
}

// The model's code may have frozen Math or made Math.random non-configurable: then the cell keeps the Math.random
// it has, and seeding never throws (a throw here would cost the context).
function setRandom(random) {
  try {
    defineProperty(MathObject, 'random', { value: random, writable: true, enumerable: false, configurable: true });
  } catch {
    // left as the model's code made it
  }
}
