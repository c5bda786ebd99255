package io.github.langchaingraalvm.sandbox;

import java.util.List;

/**
 * A persistent REPL for one guest language, in its own GraalVM context run by its own guest thread: what the
 * Python adapter and the LangChain4j engine use, whichever language runs behind it. Globals persist across
 * {@link #eval(String)} calls; every call is bounded by the options' time and memory limits.
 *
 * <p>Thread-safe: any thread may call {@code eval}; one eval runs at a time, and a call made while another is
 * running returns a {@code ConcurrentEval} error at once instead of waiting.
 *
 * <pre>{@code
 * try (GuestInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
 *     js.eval("const total = [1, 2, 3].reduce((a, b) => a + b)");
 *     EvalOutcome outcome = js.eval("total * 2");
 *     System.out.println(outcome.value()); // 12
 * }
 * }</pre>
 */
public interface GuestInterpreter extends AutoCloseable {
    /** The guest language's GraalVM id: {@code "js"} or {@code "python"}. */
    String language();

    /** The options this interpreter runs under. */
    SandboxOptions options();

    /** Whether an eval is running. */
    boolean isBusy();

    /**
     * Whether this interpreter was closed by {@link #close()}; a closed interpreter refuses further calls. An eval
     * that had to give its guest up (stuck in a builtin that ignores interrupts, or a worker process that died) does
     * not close the interpreters {@link Sandbox} makes: its outcome says the globals are gone, and the next call
     * runs in a new context.
     */
    boolean isClosed();

    /**
     * Runs one cell and returns its outcome. Never throws for anything the guest does: syntax errors, guest
     * exceptions, timeouts and limits all come back as an {@link EvalOutcome}. A guest stuck in a builtin that
     * ignores interrupts (a long Java loop inside GraalJS or GraalPy) cannot be stopped; {@code eval} then returns
     * about {@link SandboxOptions#interruptGrace()} plus 5 s after the stop, with an outcome that says the globals
     * are gone, and the next eval runs in a new context. In this JVM ({@link Isolation#IN_PROCESS}) the stuck code
     * keeps its thread until it returns; in a worker process ({@link Isolation#PROCESS}) the worker is killed.
     *
     * @throws IllegalStateException if the interpreter is closed, or if called from its own guest thread
     */
    EvalOutcome eval(String code);

    /**
     * Runs one cell with host functions: the guest sees {@code tools}, {@code task} and the agent's files as
     * {@code bridge} describes, and its calls go to the bridge's handler, which settles them with
     * {@link #completeHostCall} or {@link #completeHostCalls}. Time the guest spends waiting on host calls does not
     * count against the timeout; the whole eval is capped by {@link SandboxOptions#maxWallTime()}. Calls still
     * running when the eval ends are abandoned: their later completions are ignored. With
     * {@link HostBridge#streamOutput()} the handler also gets what the guest prints as it is written
     * ({@link HostCallHandler#output(String, String)}); the outcome is the same either way.
     *
     * @param bridge the host functions of this eval, or null for none (globals installed by an earlier bridge
     *     stay, and calling them fails)
     */
    EvalOutcome eval(String code, HostBridge bridge);

    /**
     * Builds this interpreter's context now, on its guest thread, so the first eval does not wait for it. Safe to
     * call at any time; it counts as no eval (the sandbox's idle-time warm-up keeps running).
     */
    void prepare();

    /**
     * Saves the model's globals as a versioned JSON text: data values exactly, functions and classes by their
     * source, and anything else as a residue that throws a clear error when touched after a restore.
     *
     * @param maxBytes the largest snapshot allowed, in UTF-8 bytes; 0 or less for no limit
     * @throws SnapshotException if it is larger than {@code maxBytes}, or the guest made it fail or time out
     * @throws IllegalStateException if snapshots are off, an eval is running or the interpreter is closed
     */
    String snapshot(long maxBytes);

    /**
     * Restores globals saved by {@link #snapshot(long)} into this interpreter, before any eval. A payload that
     * fails validation changes nothing.
     *
     * @return the names that were restored
     * @throws SnapshotException if the payload is corrupt, foreign, or its restore did not finish
     */
    List<String> restore(String payload);

    /**
     * Settles a host call started through a {@link HostCallHandler}. Thread-safe and non-blocking: the call is
     * settled on the guest thread. A call that no longer belongs to a running eval is ignored.
     *
     * @param callId the id the handler was given
     * @param ok true to resolve with {@code resultJson}, false to reject with it
     * @param resultJson when resolving, the value as JSON (with the tagged forms {@link HostCallHandler} describes);
     *     when rejecting, {@code {"type": "...", "message": "..."}}
     */
    void completeHostCall(long callId, boolean ok, String resultJson);

    /**
     * Settles many host calls at once: {@code batchJson} is a JSON array of {@code [callId, ok, value]} entries,
     * where {@code value} is what {@link #completeHostCall} takes as JSON, embedded. {@code callIds} lists the same
     * ids. Thread-safe and non-blocking.
     */
    void completeHostCalls(long[] callIds, String batchJson);

    /**
     * Whether this interpreter's guest imports modules from the agent's files: its reads arrive as host calls of
     * kind {@code "fs"} named {@code "module"}, answered with {@link #completeModuleRead}. When false, such a call
     * is to be refused through {@link #completeHostCalls} like any failed call.
     */
    boolean importsModules();

    /**
     * Delivers the source of a module the guest imports, or why it cannot be read. Thread-safe and non-blocking;
     * the guest thread waits for it. Ignored when {@link #importsModules()} is false.
     *
     * @param ok true when {@code text} is the module's source; false when it is the error's message, which starts
     *     with a Node error code such as {@code ENOENT:} or {@code EACCES:}
     */
    void completeModuleRead(long callId, boolean ok, String text);

    /** Stops the running eval, if any; it returns a {@code Cancelled} error. Returns at once. */
    void cancel();

    /** Stops any running eval, closes the context and ends the guest thread. Idempotent. */
    @Override
    void close();
}
