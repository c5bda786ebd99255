// The committed polyfill bundle is what its recorded inputs give: java/polyfills/entry.cjs, core-js and esbuild
// at the versions package.json pins (npm run polyfills regenerates it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { BUNDLE, LICENSE, PROVENANCE, generate, modules } from '../../../polyfills/build.mjs';

const pinned = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).devDependencies;

test('the committed bundle, provenance and licence are what the pinned inputs generate', async () => {
  const out = await generate();
  assert.equal(readFileSync(PROVENANCE, 'utf8'), out.provenance);
  assert.equal(readFileSync(LICENSE, 'utf8'), out.license);
  assert.ok(readFileSync(BUNDLE, 'utf8') === out.bundle, 'polyfills.js is stale: run npm run polyfills');
});

test('the provenance names the pinned versions and every module of every group', () => {
  const provenance = readFileSync(PROVENANCE, 'utf8');
  assert.match(provenance, new RegExp('core-js ' + pinned['core-js'].replaceAll('.', '\\.') + ' from npm'));
  assert.match(provenance, new RegExp('esbuild ' + pinned.esbuild.replaceAll('.', '\\.') + ' from npm'));
  assert.match(provenance, /licence MIT/);
  for (const [group, list] of Object.entries(modules())) {
    assert.ok(list.length > 0, group);
    assert.ok(provenance.includes('  ' + group + ': ' + list.join(' ') + '\n'), group);
  }
});

test('loading the bundle installs nothing; a group installs its own built-ins only', () => {
  const ctx = vm.createContext();
  const before = vm.runInContext('Object.getOwnPropertyNames(globalThis).join()', ctx);
  const groups = vm.runInContext(readFileSync(BUNDLE, 'utf8'), ctx)();
  assert.deepEqual(Object.keys(groups), Object.keys(modules()));
  assert.equal(vm.runInContext('Object.getOwnPropertyNames(globalThis).join()', ctx), before);
  assert.equal(vm.runInContext('typeof Map.prototype.getOrInsert', ctx), 'undefined');
  groups.getOrInsert();
  assert.equal(vm.runInContext('new Map().getOrInsert(1, 2)', ctx), 2);
  assert.equal(vm.runInContext('typeof DisposableStack', ctx), 'undefined');
  groups.disposable();
  assert.equal(vm.runInContext('typeof DisposableStack + typeof SuppressedError', ctx), 'functionfunction');
});
