// The snapshot format, its version and the tags shared by the encoder and the decoder.
/* exported EXACT, FIXED, HIDDEN_ERROR_KEYS, VERSION, residueMessage */
// Format (version 1), a compact JSON text:
//   {"v":1,"g":[name, V, name, V, ...],"h":[entry, ...],"s":[shape, ...]}
// "g" lists the saved globals in order; "h" is the object table (an entry's index is its id, so shared references
// and cycles survive); "s" lists object shapes: [proto, key, key, ...] shared by plain objects with the same keys.
// A value V is one of:
//   null, true, false, a finite number, a string      itself (JSON keeps lone surrogates as \uXXXX escapes)
//   [id]                                              reference to entry h[id]
//   ["u"] ["NaN"] ["Infinity"] ["-Infinity"] ["-0"]   undefined and the numbers JSON cannot spell
//   ["n","-123"]                                      BigInt
//   ["y","key"]                                       registered symbol, Symbol.for(key)
//   ["i","Math.max"]                                  intrinsic: a value reachable from the pristine global object
//                                                     (globals, their properties, X.prototype and its properties)
//   ["r",type,path]                                   residue: a value that cannot be restored (see below)
//   ["h"]                                             an array hole (array element lists only)
//   ["g",getV,setV]                                   an accessor property (property values only; functions)
// A "proto" field is 0 (the kind's usual prototype), null, or a V naming an object.
// Entries (props = flat key/V pairs of own enumerable string-keyed properties, in order):
//   ["o",shape,V,...]              plain object or class instance; one V per key of the shape
//   ["a",V,...]                    dense array, Array.prototype, no holes, no extra properties
//   ["A",length,elems|0,proto,props...]  any other array; elems 0 = sparse: index keys are in props
//   ["P",fnId,proto,props...]      the .prototype object of the function entry h[fnId]
//   ["F",source,form,name,protoV,path,props...]  function restored from its source text. form 0: a function,
//                                  arrow or class expression; form 1: method syntax (foo() {}, get x() {}).
//                                  name: the original .name (or null); protoV: 0 or its replaced/extended
//                                  .prototype; path: where it was first found (for residue messages)
//   ["M",proto,[k,V,k,V...],props...]   Map        ["S",proto,[V,...],props...]   Set
//   ["D",proto,timeV,props...]          Date       ["X",proto,source,flags,lastIndex,props...]  RegExp
//   ["E",proto,[key,V,...],props...]    Error; the list holds own non-enumerable message/stack/cause/errors/
//                                       error/suppressed (SuppressedError)
//   ["B",base64,maxByteLength|-1]       ArrayBuffer (resizable when maxByteLength >= 0)
//   ["T",type,bufferId,byteOffset,length]   typed array view on the buffer entry h[bufferId]
//   ["V",bufferId,byteOffset,byteLength]    DataView   ["W",V]   boxed primitive (Number, String, Boolean, BigInt)
//   ["R",type,path]                     an object that failed while being read (a Proxy trap threw); a residue
//
// Functions are saved by source text and re-created with indirect eval in the global scope, so they see the
// restored globals. Closures over local variables, private fields (#x), bound `this` and any state that is not
// reachable through own enumerable string-keyed properties is lost; that is accepted. Classes whose `extends`
// clause needs something other than an already restored global function fail to restore and become residues.
// Instances of a saved class get the restored class's prototype back. What is not kept: symbol-keyed and
// non-enumerable properties (except the Error fields above), property attributes (restored properties are
// writable, enumerable, configurable), frozen/sealed state, extra properties of typed arrays, DataViews and boxed
// primitives, length tracking of typed arrays over resizable buffers, and the internal state of exotic objects
// whose prototype was replaced by a non-builtin one (they restore as plain objects).
//
// Residues: bound and native functions, functions whose source does not re-parse, symbols (other than well-known
// and registered ones), promises, WeakMap, WeakSet, WeakRef, FinalizationRegistry, generators, iterators,
// SharedArrayBuffer and detached buffers. A residue saved as global NAME is restored as an accessor on globalThis
// whose getter throws ReferenceError("Value for 'NAME' was not restored because it is not serializable (type:
// TYPE).") and whose setter replaces it with a plain data property. A residue stored in an object or array
// property becomes the same kind of accessor on that property, NAME being its path (e.g. obj.a, list[3]). A
// residue that is a Map key or value or a Set element is replaced by a (not thrown) ReferenceError object
// carrying that message. Re-encoding a restored residue keeps it a residue of the same type.
//
// decode validates the whole payload before changing anything; a malformed or foreign payload throws
// Error('invalid snapshot: ...'). Only function sources that pass a syntax check (a single function/class
// expression, or a single method) are evaluated; class bodies (static blocks, computed keys) run as usual.

const VERSION = 1;

const FIXED = { __proto__: null, P: 3, A: 4, F: 6, M: 3, S: 3, D: 3, X: 5, E: 3, B: 3, T: 5, V: 4, W: 2, R: 3 };
const EXACT = { __proto__: null, B: true, T: true, V: true, W: true, R: true };
const HIDDEN_ERROR_KEYS = { __proto__: null, message: true, stack: true, cause: true, errors: true, error: true,
  suppressed: true };

function residueMessage(path, type) {
  return "Value for '" + path + "' was not restored because it is not serializable (type: " + type + ').';
}
