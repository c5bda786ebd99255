/**
 * Text in and out of the guest, plain string work with no polyglot context: the size and nesting limits every
 * cell's source passes, the large data literals set aside while a cell is prepared, the envelope's truncation and
 * escaping, and lone surrogates made safe for UTF-8. Nothing here knows an outcome or a guest. Internal: not exported by the module.
 */
package io.github.langchaingraalvm.sandbox.text;
