package io.github.langchaingraalvm.sandbox;

import java.util.List;

/**
 * The public face of an interpreter that lives in the unexported {@code sandbox.guest} package: every call goes to
 * that interpreter as it is. The public interpreter of each language extends it with only its constructor and
 * documentation, so the forwarding is written once.
 *
 * <p>Package-private, so it is no part of the API: users see its methods on the public subclasses (the compiler
 * gives them public bridges there, which reflection and JPype find).
 */
abstract class ForwardingInterpreter implements GuestInterpreter {
    /** The interpreter itself: a {@code guest.JavaScriptGuest} or {@code guest.PythonGuest}. */
    private final GuestInterpreter guest;

    ForwardingInterpreter(GuestInterpreter guest) {
        this.guest = guest;
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
