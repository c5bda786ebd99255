package io.github.langchaingraalvm.sandbox;

import io.github.langchaingraalvm.sandbox.guest.JavaScriptGuest;
import java.util.List;

/**
 * A persistent JavaScript REPL in its own GraalJS context (see {@link GuestInterpreter}). Cells may use top-level
 * {@code let}, {@code const}, {@code class} and {@code await}, and TypeScript syntax; a final Promise is awaited,
 * and host calls settle Promises on the guest thread. With {@link SandboxOptions#agentModules()}, cells and
 * modules may import the agent's files. Made by {@link Sandbox#newInterpreter}.
 *
 * <pre>{@code
 * try (JavaScriptInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
 *     js.eval("const total = [1, 2, 3].reduce((a, b) => a + b)");
 *     System.out.println(js.eval("total * 2").value()); // 12
 * }
 * }</pre>
 */
public final class JavaScriptInterpreter implements GuestInterpreter {
    /** The interpreter itself, in the unexported {@code sandbox.guest}. */
    private final JavaScriptGuest guest;

    JavaScriptInterpreter(JavaScriptGuest guest) {
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
