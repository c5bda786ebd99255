// Trusted set-up of a fresh guest context. It runs before any model code, captures the intrinsics it needs so
// later tampering with globals cannot change how results are rendered, installs console and the clock, and
// returns its helpers to the host only: nothing here is reachable from guest code.
//
// The host reads this file with its parts put in (CellCompiler.resource: each `// @include` line stands for that
// file, indented as the line is), so the context evaluates one function expression, as it always has: the parts
// are the sections of its body, in the order they run, and share its scope. A part names what it uses from the
// parts before it in a `/* global */` comment and what it gives the parts after it in an `/* exported */` one
// (ESLint checks both; java/eslint.config.mjs). No part adds a global of the context, and every built-in is
// captured when the host calls the factory, before any model code runs.
// eslint-disable-next-line no-unused-vars -- the parts use the factory's parameters
(function (emit, options) {
  'use strict';
  // @include prelude/intrinsics.js

  // @include prelude/render.js

  // @include prelude/errors.js

  // @include prelude/is_error.js

  // @include prelude/iterator_limits.js

  // @include prelude/globals.js

  // @include prelude/console.js

  // @include prelude/clock.js

  // @include prelude/random.js

  // @include prelude/timers.js

  // @include prelude/host_calls.js

  // @include prelude/fs.js

  // @include prelude/host_api.js
});
