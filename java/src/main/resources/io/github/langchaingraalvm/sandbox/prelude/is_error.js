// Error.isError, which GraalJS 25.0.3 has only at its `staging` level (refused under SandboxPolicy.CONSTRAINED).
/* global defineProperty, getOwnPropertyDescriptor, options */
// Whether a value has the [[ErrorData]] slot that only the Error constructors give an object. JavaScript cannot
// test that slot (an object that inherits Error.prototype and calls itself an Error is no error); the host can:
// options.isErrorObject asks the Polyglot API, to which exactly these objects are exceptions (a proxy is not,
// and no proxy trap or getter runs). A native Error.isError stays in place.
if (getOwnPropertyDescriptor(Error, 'isError') === undefined) {
  const isErrorObject = options.isErrorObject;
  const isError = {
    isError(value) {
      return value !== null && typeof value === 'object' && isErrorObject(value) === true;
    },
  }.isError;
  defineProperty(Error, 'isError', { value: isError, writable: true, enumerable: false, configurable: true });
}
