/**
 * The one way the library's sub-packages reach the package-private members of the API package:
 * {@link io.github.langchaingraalvm.sandbox.internal.SandboxAccess}. Internal: not exported by the module.
 */
package io.github.langchaingraalvm.sandbox.internal;
