package io.github.langchaingraalvm.sandbox;

import io.github.langchaingraalvm.sandbox.guest.PythonGuest;
import java.util.function.Supplier;
import org.graalvm.polyglot.SandboxPolicy;

/**
 * A persistent Python REPL in its own GraalPy context (see {@link GuestInterpreter}), with the same outcome
 * envelope, watchdog, limits and snapshot contract as {@link JavaScriptInterpreter}. Made by
 * {@link Sandbox#newPythonInterpreter}.
 *
 * <p>GraalPy runs under {@link SandboxPolicy#CONSTRAINED} like JavaScript, in an engine of its own (all contexts of
 * an engine share its policy and languages): no host access beyond our own proxies, no host files (the guest reads
 * only GraalPy's own standard library), no sockets, native code, threads, processes, environment or polyglot
 * access. Cells run as in a notebook: globals persist, and the value of a final expression is the result. Host
 * calls are {@code tools.<name>(**kwargs)} (blocking), {@code tools.<name>.start(...)} with
 * {@code tools.gather(...)} for concurrent calls, and {@code task(...)}; the guest imports no modules from the
 * agent's files ({@link #importsModules()} is false).
 *
 * <p>The GraalPy jars are optional; {@link #available()} says whether they are on the module path.
 */
public final class PythonInterpreter extends ForwardingInterpreter {
    PythonInterpreter(Supplier<GuestInterpreter> factory) {
        super(factory);
    }

    /** Whether the GraalPy language is installed. */
    public static boolean available() {
        return PythonGuest.available();
    }
}
