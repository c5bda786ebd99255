// Strips TypeScript syntax with sucrase, in its own trusted tooling context. sucrase keeps line numbers, so stack
// frames still point at the model's lines. Its CommonJS modules are read from the class path through a minimal
// loader: relative paths, three runtime packages, and a stub for the source-map package it never reaches here.
(function (readResource) {
  'use strict';
  const ROOT = 'META-INF/resources/_static/';
  const PACKAGES = {
    sucrase: 'sucrase/3.35.1/dist/index.js',
    'ts-interface-checker': 'ts-interface-checker/0.1.13/dist/index.js',
    'lines-and-columns': 'lines-and-columns/1.2.4/build/index.js',
  };
  // Only reached when a source map is requested, which this module never does.
  const STUBS = { '@jridgewell/gen-mapping': {} };
  const cache = {};

  function normalize(path) {
    const out = [];
    for (const part of path.split('/')) {
      if (part === '..') out.pop();
      else if (part !== '.' && part !== '') out.push(part);
    }
    return out.join('/');
  }

  function load(path) {
    if (cache[path]) return cache[path].exports;
    const text = readResource(ROOT + path);
    if (text == null && !path.endsWith('.js')) {
      return readResource(ROOT + path + '.js') != null ? load(path + '.js') : load(path + '/index.js');
    }
    if (text == null) throw new Error('module not found: ' + path);
    const module = { exports: {} };
    cache[path] = module;
    const dir = path.slice(0, path.lastIndexOf('/'));
    const req = (spec) => {
      if (spec in STUBS) return STUBS[spec];
      if (spec in PACKAGES) return load(PACKAGES[spec]);
      if (spec.startsWith('.')) return load(normalize(dir + '/' + spec));
      throw new Error('module not available in the sandbox tooling: ' + spec);
    };
    new Function('exports', 'require', 'module', text)(module.exports, req, module);
    return module.exports;
  }

  const sucrase = load(PACKAGES.sucrase);
  const OPTIONS = { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: true };
  return function stripTypes(code) {
    return sucrase.transform(code, OPTIONS).code;
  };
});
