// Residues: how a value that cannot be restored is stood for (a throwing accessor, or a placeholder in collections).
/* global ReferenceErrorCtor, dataDescriptor, isObject, privateWeakMap, privateWeakSet, reflectDefineProperty,
          residueMessage, wmSet */
/* exported HOLE, accessorRecords, defineResidue, residuePlaceholder, residueRecords */
// Functions made by this codec (residue accessors) and placeholders standing for residues in Maps and Sets,
// mapped to their residue type, so that saving them again keeps them residues.
const internal = privateWeakMap();
// Internal records used while decoding.
const residueRecords = privateWeakSet();
const accessorRecords = privateWeakSet();
const HOLE = { __proto__: null };
// Reflect.defineProperty under the name the residue setter's source text has always used: the guest can read
// that text (Function.prototype.toString of the accessor), so it stays as it was.
const defineProp = reflectDefineProperty;


function defineResidue(obj, key, type, path, enumerable) {
  const message = residueMessage(path, type);
  const get = function () {
    throw new ReferenceErrorCtor(message);
  };
  const set = function (value) {
    const target = isObject(this) ? this : obj;
    defineProp(target, key, dataDescriptor(value, true));
  };
  wmSet(internal, get, type);
  wmSet(internal, set, 'function');
  return reflectDefineProperty(obj, key, { __proto__: null, get, set, enumerable, configurable: true });
}

function residuePlaceholder(type, path) {
  const e = new ReferenceErrorCtor(residueMessage(path, type));
  wmSet(internal, e, type);
  return e;
}
