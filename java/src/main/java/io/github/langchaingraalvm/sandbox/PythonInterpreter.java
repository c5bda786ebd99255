package io.github.langchaingraalvm.sandbox;

import io.github.langchaingraalvm.sandbox.guest.PythonGuest;
import java.util.List;
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
public final class PythonInterpreter implements GuestInterpreter {
    /** The interpreter itself, in the unexported {@code sandbox.guest}. */
    private final PythonGuest guest;

    PythonInterpreter(PythonGuest guest) {
        this.guest = guest;
    }

    /** Whether the GraalPy language is installed. */
    public static boolean available() {
        return PythonGuest.available();
    }

    @Override
    public String language() {
        return guest.language();
    }

    @Override
    public SandboxOptions options() {
        return guest.options();
    }

    @Override
    public boolean isBusy() {
        return guest.isBusy();
    }

    @Override
    public boolean isClosed() {
        return guest.isClosed();
    }

    @Override
    public EvalOutcome eval(String code) {
        return guest.eval(code);
    }

    @Override
    public EvalOutcome eval(String code, HostBridge bridge) {
        return guest.eval(code, bridge);
    }

    @Override
    public void prepare() {
        guest.prepare();
    }

    @Override
    public String snapshot(long maxBytes) {
        return guest.snapshot(maxBytes);
    }

    @Override
    public List<String> restore(String payload) {
        return guest.restore(payload);
    }

    @Override
    public void completeHostCall(long callId, boolean ok, String resultJson) {
        guest.completeHostCall(callId, ok, resultJson);
    }

    @Override
    public void completeHostCalls(long[] callIds, String batchJson) {
        guest.completeHostCalls(callIds, batchJson);
    }

    @Override
    public boolean importsModules() {
        return guest.importsModules();
    }

    @Override
    public void completeModuleRead(long callId, boolean ok, String text) {
        guest.completeModuleRead(callId, ok, text);
    }

    @Override
    public void cancel() {
        guest.cancel();
    }

    @Override
    public void close() {
        guest.close();
    }
}
