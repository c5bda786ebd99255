// Copyright (C) 2023 Ron Buckton. All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.

/*---
esid: sec-declarative-environment-records-getbindingvalue-n-s
description: >
    await using: global use before initialization in prior statement.
    (TDZ, Temporal Dead Zone)

flags: [async]
includes: [asyncHelpers.js]
features: [explicit-resource-management]
---*/

asyncTest(async function() {
  await assert.throwsAsync(ReferenceError, async function () {
    x; await using x = null;
  });
});
