// Function sources: whether a source re-parses as an expression or a method, and evaluating it back.
/* global EXPR_START_RE, FunctionCtor, TypeErrorCtor, getOwnPropertyDescriptor, globalEval, hasOwn, reflectOwnKeys,
          test */
/* exported evaluate, sourceForm */
// Whether a function's source can be evaluated back, and how: 0 as an expression, 1 as a method, -1 not at all.
// Each check compiles (never runs) the text inside a wrapper whose closing bracket differs from the one used by
// decode, so that only a balanced, single function/class expression or a single method passes both.
function parses(body) {
  try {
    FunctionCtor(body);
    return true;
  } catch (e) {
    return false;
  }
}
function expressionSourceOk(src) {
  return test(EXPR_START_RE, src) && parses('return ({[' + src + '\n]: 0});');
}
function methodSourceOk(src) {
  return parses('return [class {' + src + '\n}];');
}
function sourceForm(src) {
  if (expressionSourceOk(src)) return 0;
  if (methodSourceOk(src) && parses('return ({' + src + '\n});')) return 1;
  return -1;
}

function evaluate(src, form) {
  if (form === 0) {
    const fn = globalEval('(' + src + '\n)');
    if (typeof fn !== 'function') throw new TypeErrorCtor('not a function');
    return fn;
  }
  const holder = globalEval('({' + src + '\n})');
  const keys = reflectOwnKeys(holder);
  if (keys.length !== 1) throw new TypeErrorCtor('not a single method');
  const d = getOwnPropertyDescriptor(holder, keys[0]);
  const fn = hasOwn(d, 'value') ? d.value : d.get !== undefined ? d.get : d.set;
  if (typeof fn !== 'function') throw new TypeErrorCtor('not a function');
  return fn;
}
