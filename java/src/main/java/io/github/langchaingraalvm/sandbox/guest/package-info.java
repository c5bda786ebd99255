/**
 * The guest interpreters behind {@code Sandbox}: JavaScript (GraalJS) and Python (GraalPy) on a shared base, each
 * context run by its own guest thread under the watchdog's time and memory limits, with the cell compiler, the
 * polyfills, the agent's modules and the idle-time warm-up. Internal: not exported by the module.
 */
package io.github.langchaingraalvm.sandbox.guest;
