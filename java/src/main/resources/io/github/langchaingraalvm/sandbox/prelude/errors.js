// What the host reports of a thrown value: [name, message, stack], the stack cut to the model's own frames.
/* global ErrorPrototype, arrayJoin, arrayPush, call, clip, constructorName, list, protoChainHas, regexpTest,
          render, stringReplace, stringSlice, stringSplit */
/* exported describeError */
function describeError(e) {
  if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
    let name = '';
    let message = '';
    let stack = '';
    try {
      const n = e.name;
      if (typeof n === 'string' && n) name = n;
    } catch (x) {
      name = '';
    }
    try {
      const m = e.message;
      if (typeof m === 'string') message = m;
      else if (m !== undefined) message = render(m, true)[0];
    } catch (x) {
      message = '';
    }
    try {
      const s = e.stack;
      if (typeof s === 'string') stack = s;
    } catch (x) {
      stack = '';
    }
    if (!name) {
      if (protoChainHas(e, ErrorPrototype)) name = constructorName(e) || 'Error';
      else {
        name = 'Error';
        if (!message) message = render(e, true)[0];
      }
    }
    // The name becomes the envelope's type attribute, which is not truncated there: keep it short.
    if (name.length > 256) name = call(stringSlice, name, 0, 256);
    return [name, clip(message), cleanStack(clip(stack))];
  }
  return ['Error', render(e, true)[0], ''];
}

// Keeps only frames that point into the model's code.
function cleanStack(stack) {
  if (!stack) return '';
  const lines = call(stringSplit, stack, '\n');
  const keep = list();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (call(regexpTest, /^\s+at /, line) && call(regexpTest, /\bcell:\d+:\d+/, line)) {
      call(arrayPush, keep, call(stringReplace, line, /^\s+/, '    '));
    }
  }
  return call(arrayJoin, keep, '\n');
}
