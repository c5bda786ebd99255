// Trusted snapshot codec for a guest context: it saves the model's globals between turns and restores them
// into a fresh context. The host evaluates this file once per fresh context, before any untrusted code runs,
// calls the factory and keeps { encode, decode } to itself; guest code can never reach them. Every intrinsic the
// codec uses is captured below, at factory time, so later tampering by guest code (replacing JSON, polluting
// Object.prototype, replacing Array.prototype.push or Map.prototype.entries, ...) cannot change what it does.
// Guest getters are never invoked: properties are read with getOwnPropertyDescriptor. Only guest Proxies (their
// traps) and, on V8, a guest Error.prepareStackTrace (V8 formats Error.stack lazily, on first read) can run guest
// code during encode; a failure there turns the value into a residue. No recursion is used
// anywhere, so deep structures cannot overflow the stack, and encoding is linear in the size of the graph.
//
// The format is described in snapshot/format.js. The host reads this file with its parts put in
// (CellCompiler.resource: each `// @include` line stands for that file, indented as the line is), so the context
// evaluates one function expression: the parts are the sections of its body, in the order they run, and share
// its scope. A part names what it uses from the parts before it in a `/* global */` comment and what it gives
// the parts after it in an `/* exported */` one (ESLint checks both; java/eslint.config.mjs).
/* global encode, decode, adoptIntrinsics -- defined by snapshot/encoder.js, snapshot/decoder.js and
          snapshot/intrinsic_table.js */
// eslint-disable-next-line no-unused-vars -- the parts read the factory's options
(function (options) {
  'use strict';

  // @include snapshot/format.js

  // @include snapshot/intrinsics.js

  // @include snapshot/safe.js

  // @include snapshot/intrinsic_table.js

  // @include snapshot/residues.js

  // @include snapshot/sources.js

  // @include snapshot/bytes.js

  // @include snapshot/encoder.js

  // @include snapshot/decoder.js

  return { encode, decode, adoptIntrinsics };
})
