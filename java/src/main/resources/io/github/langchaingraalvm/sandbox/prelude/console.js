// console.log and friends: each call becomes one line sent to the host (when the console is captured), with the
// stream it belongs to: warn and error write to stderr, the others to stdout.
/* global arrayJoin, arrayPush, call, clip, defineProperty, emit, globalObject, list, options, render */
function consoleLine(args) {
  const parts = list();
  for (let i = 0; i < args.length; i++) {
    // Strings are joined whole (the guest already holds them), so the host can count the line's full length.
    const a = args[i];
    call(arrayPush, parts, typeof a === 'string' ? a : render(a, true)[0]);
  }
  return call(arrayJoin, parts, ' ');
}

if (options.captureConsole) {
  // A line is sent as its first HOST_STRING_CAP characters and its full length, which the host counts.
  const make = (stream) =>
    function () {
      const line = consoleLine(arguments);
      emit(clip(line), line.length, stream);
    };
  const c = {};
  for (const m of ['log', 'info', 'debug', 'warn', 'error', 'trace']) {
    const stream = m === 'warn' || m === 'error' ? 'stderr' : 'stdout';
    defineProperty(c, m, { value: make(stream), writable: true, enumerable: true, configurable: true });
  }
  defineProperty(globalObject, 'console', { value: c, writable: true, enumerable: false, configurable: true });
}
