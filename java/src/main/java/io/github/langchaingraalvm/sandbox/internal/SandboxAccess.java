package io.github.langchaingraalvm.sandbox.internal;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.SandboxBrokenException;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SnapshotException;

/**
 * The package-private members of the API package ({@code io.github.langchaingraalvm.sandbox}) that the library's
 * own sub-packages use: the interpreters in {@code sandbox.guest} and the host calls in {@code sandbox.hostcall}
 * make outcomes and exceptions whose constructors users do not see, and read what the API's options and bridges
 * keep to themselves. Those members stay package-private, so the public API is only what users call.
 *
 * <p>{@code Sandbox} implements it with a nested class and hands that one instance to the engines it starts
 * ({@code guest.Engines}); the interpreters and their host-call books get it from there. There is no static
 * registry, so this package names no class of the API's that names it back. Each method documents nothing of its
 * own: see the member of the API class it calls.
 *
 * <p>The module does not export this package. On the class path it is reachable like any public class, and is
 * no more part of the API than the other internal packages: an implementation made elsewhere reaches none of those
 * members.
 */
public abstract class SandboxAccess {
    protected SandboxAccess() {
    }

    /** {@code SandboxOptions.pythonStackBytes()}. */
    public abstract long pythonStackBytes(SandboxOptions options);

    /** {@code HostBridge.refusal}. */
    public abstract String refusal(HostBridge bridge, String kind, String name, int toolCalls, String errorType);

    /** {@code HostBridge.shape()}. */
    public abstract String shape(HostBridge bridge);

    /** The {@link EvalOutcome} constructor without a value kind ({@link EvalOutcome.ValueKind#EMPTY}). */
    public abstract EvalOutcome outcome(EvalOutcome.Status status, String value, boolean valueIncomplete,
            String stdout, long stdoutDropped, String errorType, String errorMessage, String errorStack,
            boolean stateReset, long durationNanos, int maxResultChars);

    /** The {@link EvalOutcome} constructor. */
    public abstract EvalOutcome outcome(EvalOutcome.Status status, String value, boolean valueIncomplete,
            String stdout, long stdoutDropped, String errorType, String errorMessage, String errorStack,
            boolean stateReset, long durationNanos, int maxResultChars, EvalOutcome.ValueKind valueKind,
            String plainValue);

    /** The {@link SandboxBrokenException} constructor. */
    public abstract SandboxBrokenException broken(String reason);

    /** The {@link SnapshotException} constructor. */
    public abstract SnapshotException snapshotFailure(String message, boolean tooLarge);
}
