package io.github.langchaingraalvm.sandbox.langchain4j;

import dev.langchain4j.code.CodeExecutionEngine;
import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.Objects;

/**
 * A LangChain4j {@link CodeExecutionEngine} that runs JavaScript (and TypeScript) in one persistent, sandboxed
 * GraalVM {@link GuestInterpreter}. Globals declared by one {@link #execute(String)} call are visible to the next;
 * every call is bounded by the {@link SandboxOptions} time and memory limits.
 *
 * <p>{@link #execute(String)} returns the envelope a model reads: {@code <result>...</result>} for a value,
 * {@code <error type="...">...</error>} for a guest error, a timeout or a limit, preceded by
 * {@code <stdout>...</stdout>} when the code printed anything. It never throws for anything the guest code does.
 *
 * <p>Thread-safe: one call runs at a time; a call made while another is running returns a
 * {@code ConcurrentEval} error at once. Close the engine to end its guest thread.
 *
 * <pre>{@code
 * SandboxOptions limits = SandboxOptions.builder()
 *     .timeout(Duration.ofSeconds(2))
 *     .memoryLimitBytes(32L << 20)
 *     .build();
 * try (GraalVmSandboxCodeExecutionEngine engine = new GraalVmSandboxCodeExecutionEngine(limits)) {
 *     engine.execute("const xs = [1, 2, 3]");
 *     System.out.println(engine.execute("xs.map(x => x * 2)")); // <result>[2, 4, 6]</result>
 *     System.out.println(engine.execute("while (true) {}"));    // <error type="Timeout">Execution exceeded ...
 * }
 * }</pre>
 *
 * <p>This class needs {@code dev.langchain4j:langchain4j-core} on the class path; the sandbox library declares it
 * as an optional dependency, so add it to your own build.
 */
public final class GraalVmSandboxCodeExecutionEngine implements CodeExecutionEngine, AutoCloseable {
    private final SandboxOptions options;
    private volatile GuestInterpreter interpreter;
    private volatile boolean closed;

    /** An engine with {@link SandboxOptions#defaults()}: 5 s and 64 MiB per call, frozen clock. */
    public GraalVmSandboxCodeExecutionEngine() {
        this(SandboxOptions.defaults());
    }

    /** An engine whose interpreter runs under {@code options}. */
    public GraalVmSandboxCodeExecutionEngine(SandboxOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.interpreter = Sandbox.shared().newInterpreter(options);
    }

    /**
     * Runs {@code code} in the persistent interpreter and returns the envelope text a model reads, such as
     * {@code <result>42</result>} or {@code <error type="Timeout">...</error>}.
     *
     * @throws NullPointerException if {@code code} is null
     * @throws IllegalStateException if the engine is closed
     */
    @Override
    public String execute(String code) {
        return evaluate(code).envelope();
    }

    /**
     * Runs {@code code} like {@link #execute(String)}, but returns the whole outcome: status, value, console
     * output and error parts, for hosts that want more than the text.
     *
     * <pre>{@code
     * EvalOutcome outcome = engine.evaluate("[1, 2].length");
     * if (outcome.status() == EvalOutcome.Status.OK) {
     *     System.out.println(outcome.value()); // 2
     * }
     * }</pre>
     *
     * @throws NullPointerException if {@code code} is null
     * @throws IllegalStateException if the engine is closed
     */
    public EvalOutcome evaluate(String code) {
        Objects.requireNonNull(code, "code");
        return current().eval(code);
    }

    /** The limits and policy this engine runs under. */
    public SandboxOptions options() {
        return options;
    }

    /** Stops the running call, if any; it returns a {@code Cancelled} error. Returns at once. */
    public void cancel() {
        interpreter.cancel();
    }

    /** Stops any running call, discards the globals and ends the guest thread. Idempotent. */
    @Override
    public void close() {
        closed = true;
        interpreter.close();
    }

    /**
     * The interpreter, replaced by a fresh one when an earlier call got stuck in a builtin that ignores interrupts
     * and closed it (that call's outcome said the globals were gone).
     */
    private GuestInterpreter current() {
        GuestInterpreter i = interpreter;
        if (i.isClosed() && !closed) {
            synchronized (this) {
                if (interpreter.isClosed() && !closed) {
                    interpreter = Sandbox.shared().newInterpreter(options);
                }
                i = interpreter;
            }
        }
        return i;
    }
}
