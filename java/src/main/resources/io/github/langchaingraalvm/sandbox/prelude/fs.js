// fs: the agent's files in Node's promise spelling, each operation a host call.
/* global TypeErrorCtor, apply, arrayBufferIsView, call, defineProperty, objectCreate, objectFreeze, objectKeys,
          promiseThen, rejectWith, startCall, typedArrayTag */
// `fs`: the agent's files (its Deep Agents backend), in Node's promise spelling. The host checks every path
// against the allowed prefixes and mode; nothing here reaches the host file system.
function fsPath(op, path) {
  if (typeof path !== 'string') throw new TypeErrorCtor('fs.' + op + ': the path must be a string, like "/data/input.json"');
  return path;
}
function fsEncoding(options) {
  const enc = typeof options === 'string' ? options : options !== null && typeof options === 'object' ? options.encoding : undefined;
  if (enc === undefined || enc === null) return null;
  if (enc === 'utf8' || enc === 'utf-8') return 'utf8';
  throw new TypeErrorCtor('fs.readFile: only the "utf8" encoding is supported; omit it to get the bytes as a Uint8Array');
}
function fsCall(op, build) {
  return function () {
    let input;
    try {
      input = apply(build, undefined, arguments);
    } catch (e) {
      return rejectWith(e);
    }
    return startCall('fs', op, 'fs.' + op, input);
  };
}
function makeStats(raw) {
  const file = !!raw.isFile;
  const dir = !!raw.isDirectory;
  // An object literal defines its properties, so setters the guest put on Object.prototype never run.
  return objectFreeze({ size: raw.size, isFile: () => file, isDirectory: () => dir });
}
const fsStat = fsCall('stat', (path) => ({ path: fsPath('stat', path) }));
const fsFunctions = {
  readFile: fsCall('readFile', (path, options) => ({ path: fsPath('readFile', path), encoding: fsEncoding(options) })),
  writeFile: fsCall('writeFile', (path, data) => {
    fsPath('writeFile', path);
    if (typeof data !== 'string' && !(arrayBufferIsView(data) && call(typedArrayTag, data) === 'Uint8Array')) {
      throw new TypeErrorCtor('fs.writeFile: the data must be a string or a Uint8Array');
    }
    return { path, data };
  }),
  readdir: fsCall('readdir', (path) => ({ path: fsPath('readdir', path) })),
  stat: (path) => call(promiseThen, fsStat(path), makeStats),
  rm: fsCall('rm', (path, options) => ({ path: fsPath('rm', path), recursive: !!(options && options.recursive) })),
  glob: fsCall('glob', (pattern, options) => {
    if (typeof pattern !== 'string') throw new TypeErrorCtor('fs.glob: the pattern must be a string, like "/data/**/*.csv"');
    const cwd = options !== null && typeof options === 'object' ? options.cwd : undefined;
    return { pattern, path: typeof cwd === 'string' ? cwd : null };
  }),
};
const fsObject = objectCreate(null);
const functionBind = Function.prototype.bind;
for (const op of objectKeys(fsFunctions)) {
  // Bound, so error messages that print the object show `[native code]` instead of this file's source.
  const fn = call(functionBind, fsFunctions[op], undefined);
  defineProperty(fn, 'name', { value: op, writable: false, enumerable: false, configurable: false });
  defineProperty(fsObject, op, { value: objectFreeze(fn), writable: false, enumerable: true, configurable: false });
}
defineProperty(fsObject, 'promises', { value: fsObject, writable: false, enumerable: false, configurable: false });
objectFreeze(fsObject);
