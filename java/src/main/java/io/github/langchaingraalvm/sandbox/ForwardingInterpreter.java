package io.github.langchaingraalvm.sandbox;

import java.util.List;
import java.util.function.Supplier;

/**
 * The public face of an interpreter that lives in the unexported {@code sandbox.guest} package (or, with
 * {@link Isolation#PROCESS}, in a worker process): every call goes to that interpreter as it is. The public
 * interpreter of each language extends it with only its constructor and documentation, so the forwarding is
 * written once.
 *
 * <p>It also keeps the interpreter usable after a fault: when an eval had to give its guest up (a guest stuck in a
 * builtin that ignores interrupts, a worker that died or was killed), that eval's outcome says the globals are
 * gone, and the next call builds a new guest from the same options. Only {@link #close()} closes it for good.
 *
 * <p>Package-private, so it is no part of the API: users see its methods on the public subclasses (the compiler
 * gives them public bridges there, which reflection and JPype find).
 */
abstract class ForwardingInterpreter implements GuestInterpreter {
    /** Builds the guest: first at construction, then again after a fault gave the last one up. */
    private final Supplier<GuestInterpreter> factory;
    /** The current guest: a {@code guest.JavaScriptGuest}, {@code guest.PythonGuest} or a worker's guest. */
    private volatile GuestInterpreter guest;
    private volatile boolean closed;

    ForwardingInterpreter(Supplier<GuestInterpreter> factory) {
        this.factory = factory;
        this.guest = factory.get();
    }

    /** The guest, rebuilt when the last one was given up; throws once this interpreter is closed. */
    private GuestInterpreter current() {
        GuestInterpreter g = guest;
        if (closed || g.isClosed()) {
            synchronized (this) {
                if (closed) {
                    throw new IllegalStateException("the interpreter is closed");
                }
                if (guest.isClosed()) {
                    guest = factory.get();
                }
                g = guest;
            }
        }
        return g;
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
        return closed;
    }

    @Override
    public EvalOutcome eval(String code) {
        return current().eval(code);
    }

    @Override
    public EvalOutcome eval(String code, HostBridge bridge) {
        return current().eval(code, bridge);
    }

    @Override
    public void prepare() {
        current().prepare();
    }

    @Override
    public String snapshot(long maxBytes) {
        return current().snapshot(maxBytes);
    }

    @Override
    public List<String> restore(String payload) {
        return current().restore(payload);
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
        synchronized (this) {
            closed = true;
        }
        guest.close();
    }
}
