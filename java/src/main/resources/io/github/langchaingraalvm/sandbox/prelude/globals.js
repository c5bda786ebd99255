// Removes the shell and host-access globals GraalJS may define (print, load, Java, Polyglot, ...).

const globalObject = globalThis;
for (const name of ['print', 'printErr', 'console', 'quit', 'read', 'readline', 'readbuffer', 'load', 'loadWithNewGlobal', 'Graal', 'Polyglot', 'Java', 'Packages', 'java', 'javax', 'javafx', 'com', 'org', 'edu']) {
  try {
    delete globalObject[name];
  } catch (e) {
    // A name that cannot be deleted is checked by the tests to be absent or harmless.
  }
}
