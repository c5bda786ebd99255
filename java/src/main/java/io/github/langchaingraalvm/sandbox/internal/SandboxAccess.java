package io.github.langchaingraalvm.sandbox.internal;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxBrokenException;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SnapshotException;
import io.github.langchaingraalvm.sandbox.guest.CellCompiler;
import io.github.langchaingraalvm.sandbox.guest.Watchdog;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.HostAccess;

/**
 * The package-private members of the API package ({@code io.github.langchaingraalvm.sandbox}) that the library's
 * own sub-packages use: the interpreters in {@code sandbox.guest} and the host calls in {@code sandbox.hostcall}
 * need the process-wide sandbox's engines, watchdog and cell compiler, and make outcomes and exceptions whose
 * constructors users do not see. Those members stay package-private, so the public API is only what users call.
 *
 * <p>This is the JDK's "shared secrets" pattern. {@link Sandbox}'s static initializer {@linkplain #register
 * registers} the one implementation, a nested class of {@code Sandbox} that calls the members it names;
 * {@link #get()} initialises {@code Sandbox} first, so the implementation is always there, and a second
 * registration is refused. Each method documents nothing of its own: see the member of the API class it calls.
 *
 * <p>The module does not export this package. On the class path it is reachable like any public class, and is
 * no more part of the API than the other internal packages.
 */
public abstract class SandboxAccess {
    /** Set once, by {@code Sandbox}'s static initializer. */
    private static volatile SandboxAccess access;

    protected SandboxAccess() {
    }

    /** Called once, by {@link Sandbox}'s static initializer, with a class nested in {@code Sandbox}. */
    public static synchronized void register(SandboxAccess implementation) {
        if (access != null || implementation.getClass().getNestHost() != Sandbox.class) {
            throw new IllegalStateException("SandboxAccess is registered by Sandbox, once");
        }
        access = implementation;
    }

    /** The implementation {@link Sandbox} registered; initialises {@code Sandbox} when no class did yet. */
    public static SandboxAccess get() {
        SandboxAccess a = access;
        if (a == null) {
            // Outside any lock: this waits for another thread's initialisation of Sandbox, which registers.
            try {
                Class.forName(Sandbox.class.getName(), true, Sandbox.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = access;
        }
        return a;
    }

    // ------------------------------------------------------------------ Sandbox

    /** {@code Sandbox.HOST_ACCESS}. */
    public abstract HostAccess hostAccess();

    /** {@code Sandbox.restrictedContext}. */
    public abstract Context.Builder restrictedContext(String language, Engine engine);

    /** {@code Sandbox.noteFailure}. */
    public abstract boolean noteFailure(Throwable failure);

    /** {@code Sandbox.javaScriptEngine()}. */
    public abstract Engine javaScriptEngine(Sandbox sandbox);

    /** {@code Sandbox.pythonEngine()}. */
    public abstract Engine pythonEngine(Sandbox sandbox);

    /** {@code Sandbox.watchdog()}. */
    public abstract Watchdog watchdog(Sandbox sandbox);

    /** {@code Sandbox.compiler()}. */
    public abstract CellCompiler compiler(Sandbox sandbox);

    /** {@code Sandbox.noteContextBuilt()}. */
    public abstract void noteContextBuilt(Sandbox sandbox);

    /** {@code Sandbox.noteRealEval()}. */
    public abstract void noteRealEval(Sandbox sandbox);

    /** {@code Sandbox.noteRealEvalEnded()}. */
    public abstract void noteRealEvalEnded(Sandbox sandbox);

    // ------------------------------------------------------------------ the other API classes

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
