
// ESLint for the guest JavaScript: `npm ci && npx eslint` here (scripts/test.sh runs it when Node is installed).
//
// The guest files are scripts the host evaluates in a GraalJS context, not modules. prelude.js and snapshot.js
// are each one function expression whose body is put together from the parts in prelude/ and snapshot/
// (CellCompiler.resource); a part declares the names it takes from the parts before it, or from the factory's
// parameters, in a `/* global */` comment and the names it gives the parts after it in an `/* exported */` one,
// so `no-undef` and `no-unused-vars` check the seams between parts as they check one file.
import js from '@eslint/js';
import globals from 'globals';

const SANDBOX = 'src/main/resources/io/github/langchaingraalvm/sandbox';

export default [
  {
    // The warm-up corpus is data: cells of the kind a model writes, each "// cell" line starting a new one. The
    // polyfill bundle is generated from polyfills/entry.cjs (its provenance is checked by npm run polyfills:check).
    ignores: [`${SANDBOX}/warmup.js`, `${SANDBOX}/polyfills.js`, 'target/**', 'node_modules/**'],
  },
  js.configs.recommended,
  {
    files: [`${SANDBOX}/**/*.js`],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'script',
      // Only the language's own globals: a guest context has no console, timers or Node API of its own.
      globals: { ...globals.es2025 },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `catch (e) {}` whose error is not needed is the common shape of a guarded probe.
      'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none' }],
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      strict: ['error', 'function'],
    },
  },
  {
    // The last part of the prelude returns the host's helpers from the factory.
    files: [`${SANDBOX}/prelude/host_api.js`],
    languageOptions: { parserOptions: { ecmaFeatures: { globalReturn: true } } },
    rules: { strict: 'off' },
  },
  {
    // Parts run inside their factory's 'use strict' body.
    files: [`${SANDBOX}/prelude/*.js`, `${SANDBOX}/snapshot/*.js`],
    rules: { strict: 'off' },
  },
  {
    files: ['polyfills/*.cjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    files: ['src/test/js/**/*.mjs', 'polyfills/*.mjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } },
  },
];
