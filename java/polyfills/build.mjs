// Generates the guest's polyfill bundle (src/main/resources/io/github/langchaingraalvm/sandbox/polyfills.js) and
// its PROVENANCE from entry.cjs, with the core-js and esbuild versions pinned in package.json.
//   npm run polyfills          writes both files
//   npm run polyfills:check    fails when the committed files differ from what the pinned inputs give
// The bundle is one function expression: the host evaluates it in a guest context and calls it once, which
// returns the groups of entry.cjs without running any of them.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const JAVA = join(HERE, '..');
const SANDBOX = join(JAVA, 'src/main/resources/io/github/langchaingraalvm/sandbox');
export const BUNDLE = join(SANDBOX, 'polyfills.js');
export const PROVENANCE = join(SANDBOX, 'polyfills.PROVENANCE');
export const LICENSE = join(SANDBOX, 'polyfills.LICENSE');
const require = createRequire(import.meta.url);

// Patches to core-js, each an exact text and its replacement; the build fails when core-js changes one, so a new
// version is looked at. (1, 2) core-js reads an object's iterator method with fallbacks for engines without
// symbols: a string '@@iterator' key, and arguments objects by their class (which reads Symbol.toStringTag).
// GraalJS has both, and the specification's GetIterator reads @@iterator only, which test262 observes.
// (3) Array.fromAsync reads an array-like's length once, as the specification does (core-js iterates it with
// Array.prototype.values, which reads it at every step).
// (4) core-js replaces Function.prototype.toString so that its functions print as native code; the engine's own
// stays in place.
export const PATCHES = {
  'internals/get-iterator-method-internal.js': [
    "return getMethod(it, ITERATOR)\n    || getMethod(it, '@@iterator')\n    || (classof(it) === 'Arguments' ? ArrayPrototype[ITERATOR] : undefined);",
    'return getMethod(it, ITERATOR);',
  ],
  'internals/get-iterator-method.js': [
    "return it[ITERATOR] || it['@@iterator']\n    || (classof(it) === 'Arguments' ? ArrayPrototype[ITERATOR] : undefined);",
    'return it[ITERATOR];',
  ],
  'internals/array-from-async.js': [
    'var SafeArrayIterator = function (O) {\n  this.iterator = arrayIterator(O);\n};\n\n' +
      'SafeArrayIterator.prototype.next = function () {\n  return arrayIteratorNext(this.iterator);\n};',
    'var SafeArrayIterator = function (O) {\n  this.O = O;\n  this.index = 0;\n' +
      "  this.length = require('../internals/length-of-array-like')(O);\n};\n\n" +
      'SafeArrayIterator.prototype.next = function () {\n  var i = this.index;\n' +
      '  if (i >= this.length) return { value: undefined, done: true };\n' +
      '  this.index = i + 1;\n  return { value: this.O[i], done: false };\n};',
  ],
  'internals/make-built-in.js': [
    '// add fake Function#toString for correct work wrapped methods / constructors with methods like LoDash isNative\n' +
      '// eslint-disable-next-line no-extend-native -- required\n' +
      'Function.prototype.toString = makeBuiltIn(function toString() {\n' +
      '  return isCallable(this) && getInternalState(this).source || inspectSource(this);\n' +
      "}, 'toString');",
    '',
  ],
};

const patchPlugin = {
  name: 'core-js-patches',
  setup(build) {
    build.onLoad({ filter: /core-js[\\/]internals[\\/](?:get-iterator-method(?:-internal)?|make-built-in|array-from-async)\.js$/ }, (args) => {
      const key = 'internals/' + args.path.split(/[\\/]/).pop();
      const text = readFileSync(args.path, 'utf8');
      const [from, to] = PATCHES[key];
      if (!text.includes(from)) throw new Error('core-js ' + key + ' changed: review PATCHES in build.mjs');
      return { contents: text.replace(from, to), loader: 'js' };
    });
  },
};

export const OPTIONS = {
  entryPoints: [join(HERE, 'entry.cjs')],
  bundle: true,
  write: false,
  format: 'cjs',
  platform: 'neutral',
  target: 'es2024',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  charset: 'utf8',
  plugins: [patchPlugin],
};

function version(name) {
  return JSON.parse(readFileSync(require.resolve(name + '/package.json'), 'utf8')).version;
}

/** The core-js modules entry.cjs requires, per group, in order. */
export function modules() {
  const text = readFileSync(join(HERE, 'entry.cjs'), 'utf8');
  const groups = {};
  let current = null;
  for (const line of text.split('\n')) {
    const g = /^ {2}(\w+)\(\) \{$/.exec(line);
    if (g) groups[(current = g[1])] = [];
    const m = /require\('core-js\/modules\/([\w.-]+)\.js'\)/.exec(line);
    if (m) groups[current].push(m[1]);
  }
  return groups;
}

export async function generate() {
  const pinned = JSON.parse(readFileSync(join(JAVA, 'package.json'), 'utf8')).devDependencies;
  for (const name of ['core-js', 'esbuild']) {
    if (pinned[name] !== version(name)) throw new Error(name + ' ' + version(name) + ' is installed, package.json pins ' + pinned[name]);
  }
  // Module names in the bundle are paths relative to the working directory: java/, wherever the build runs from.
  const result = await esbuild.build({ ...OPTIONS, absWorkingDir: JAVA });
  const code = result.outputFiles[0].text.replace(/\/\/ (?:polyfills\/)?entry\.cjs\n/, '');
  const groups = modules();
  const listing = Object.entries(groups).map(([g, ms]) => '//   ' + g + ': ' + ms.join(', ')).join('\n');
  const header = '// GENERATED by java/polyfills/build.mjs (npm run polyfills) from java/polyfills/entry.cjs: do not edit.\n' +
    '// core-js ' + version('core-js') + ' (MIT, see polyfills.LICENSE), bundled by esbuild ' + version('esbuild') + '.\n' +
    '// Groups and their core-js modules:\n' + listing + '\n';
  const bundle = header + '(function () {\nconst module = { exports: {} };\n' + code + 'return module.exports;\n})\n';
  const provenance = [
    'polyfills.js: the guest polyfill groups, generated; do not edit.',
    'Source: core-js ' + version('core-js') + ' from npm (https://github.com/zloirock/core-js), licence MIT (polyfills.LICENSE, its LICENSE file).',
    'Bundler: esbuild ' + version('esbuild') + ' from npm. Both pinned exactly in java/package.json.',
    'Command (in java/): npm ci && npm run polyfills   (node polyfills/build.mjs)',
    'esbuild options: ' + JSON.stringify({ ...OPTIONS, entryPoints: ['polyfills/entry.cjs'], plugins: undefined }),
    'Patches (build.mjs PATCHES: @@iterator and array-like lengths read as the specification does; Function.prototype.toString left native):',
    ...Object.entries(PATCHES).map(([f, [from, to]]) => '  ' + f + ': ' + JSON.stringify(from) + ' -> ' + JSON.stringify(to)),
    'Check: npm run polyfills:check, and src/test/js/polyfills.test.mjs.',
    'Groups (core-js modules):',
    ...Object.entries(groups).map(([g, ms]) => '  ' + g + ': ' + ms.join(' ')),
    'Bytes: ' + Buffer.byteLength(bundle, 'utf8'),
    '',
  ].join('\n');
  const license = readFileSync(require.resolve('core-js/LICENSE'), 'utf8');
  return { bundle, provenance, license };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await generate();
  const files = [[BUNDLE, out.bundle], [PROVENANCE, out.provenance], [LICENSE, out.license]];
  if (process.argv.includes('--check')) {
    const stale = files.filter(([f, text]) => {
      try {
        return readFileSync(f, 'utf8') !== text;
      } catch {
        return true;
      }
    });
    if (stale.length) {
      console.error('out of date: ' + stale.map(([f]) => f).join(', ') + ' (run npm run polyfills)');
      process.exit(1);
    }
  } else {
    for (const [f, text] of files) writeFileSync(f, text);
  }
}
