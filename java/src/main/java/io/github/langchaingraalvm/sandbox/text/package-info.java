/**
 * Text in and out of the guest, plain string work with no polyglot context: the size and nesting limits every
 * cell's source passes, the large data literals set aside while a cell is prepared, the envelope and plain-text
 * renderings of an outcome, and lone surrogates made safe for UTF-8. Internal: not exported by the module.
 */
package io.github.langchaingraalvm.sandbox.text;
