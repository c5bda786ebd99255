package io.github.langchaingraalvm.sandbox.langchain4j;

import dev.langchain4j.code.CodeExecutionEngine;
import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * A LangChain4j {@link CodeExecutionEngine} that runs JavaScript (and TypeScript) or Python in one persistent,
 * sandboxed GraalVM {@link GuestInterpreter}: {@link GraalVmJavaScriptExecutionEngine} and
 * {@link GraalVmPythonExecutionEngine} are this engine for one language, named as LangChain4j's own engines are.
 * Globals declared by one {@link #execute(String)} call are visible to the next; every call is bounded by the
 * {@link SandboxOptions} time and memory limits, under the CONSTRAINED sandbox policy with no host access, files,
 * network, threads, processes or environment variables.
 *
 * <p>{@link #execute(String)} returns, by default ({@link ResultFormat#LANGCHAIN4J}), what LangChain4j's engines
 * return: the console output, then the value ({@code console.log('hello'); 42} gives {@code hello\n42}), with a
 * string as it is and a number or boolean as Java prints it. Unlike them it never throws for anything the guest code
 * does: a guest error, a timeout or a limit comes back as readable text, {@code Type: message} after the output
 * ({@code ReferenceError: x is not defined}, {@code Timeout: Execution exceeded the 5 s timeout ...}). With
 * {@link ResultFormat#ENVELOPE} it returns the sandbox's envelope instead ({@code <result>55</result>}).
 *
 * <p>An output listener, when given, gets what the code prints while it runs: {@code (stream, text)} with
 * {@code stream} {@code "stdout"} or {@code "stderr"}, on the interpreter's thread, in order, up to
 * {@link SandboxOptions#maxStreamedChars()} per call (see
 * {@link io.github.langchaingraalvm.sandbox.HostCallHandler#output(String, String)}).
 * It must return quickly; an exception it throws is dropped. The result is the same with or without it.
 *
 * <pre>{@code
 * var engine = new GraalVmSandboxCodeExecutionEngine("js", SandboxOptions.defaults(), ResultFormat.LANGCHAIN4J,
 *     (stream, text) -> System.out.print(text));
 * engine.execute("for (let i = 0; i < 3; i++) console.log(i)"); // prints 0, 1, 2 as they are logged
 * }</pre>
 *
 * <p>Thread-safe: one call runs at a time; a call made while another is running returns a {@code ConcurrentEval}
 * error at once. Close the engine to end its guest thread.
 *
 * <pre>{@code
 * SandboxOptions limits = SandboxOptions.builder()
 *     .timeout(Duration.ofSeconds(2))
 *     .memoryLimitBytes(32L << 20)
 *     .build();
 * try (GraalVmSandboxCodeExecutionEngine engine = new GraalVmSandboxCodeExecutionEngine(limits)) {
 *     engine.execute("const xs = [1, 2, 3]");
 *     System.out.println(engine.execute("xs.map(x => x * 2)")); // [2, 4, 6]
 *     System.out.println(engine.execute("while (true) {}"));    // Timeout: Execution exceeded the 2 s timeout ...
 * }
 * }</pre>
 *
 * <p>This class needs {@code dev.langchain4j:langchain4j-core} on the class path; the sandbox library declares it
 * as an optional dependency, so add it to your own build.
 */
public class GraalVmSandboxCodeExecutionEngine implements CodeExecutionEngine, AutoCloseable {
    private final String language;
    private final SandboxOptions options;
    private final ResultFormat format;
    /** The bridge that streams the output to the listener; null without a listener. */
    private final HostBridge streaming;
    /** Created on the first call; guarded by this engine for writes. */
    private volatile GuestInterpreter interpreter;
    private boolean closed;

    /** A JavaScript engine with {@link SandboxOptions#defaults()}: 5 s and 64 MiB per call, frozen clock. */
    public GraalVmSandboxCodeExecutionEngine() {
        this(SandboxOptions.defaults());
    }

    /** A JavaScript engine whose interpreter runs under {@code options}. */
    public GraalVmSandboxCodeExecutionEngine(SandboxOptions options) {
        this("js", options, ResultFormat.LANGCHAIN4J);
    }

    /**
     * An engine for {@code language}, {@code "js"} or {@code "python"}, whose interpreter runs under {@code options}
     * and whose {@link #execute(String)} returns {@code format}.
     *
     * @throws IllegalArgumentException for another language
     * @throws IllegalStateException for Python when the optional GraalPy jars are not installed
     */
    public GraalVmSandboxCodeExecutionEngine(String language, SandboxOptions options, ResultFormat format) {
        this(language, options, format, null);
    }

    /**
     * An engine for {@code language}, {@code "js"} or {@code "python"}, whose interpreter runs under {@code options},
     * whose {@link #execute(String)} returns {@code format}, and whose code's output goes to {@code outputListener}
     * as it is printed ({@code (stream, text)}); null for no listener.
     *
     * @throws IllegalArgumentException for another language
     * @throws IllegalStateException for Python when the optional GraalPy jars are not installed
     */
    public GraalVmSandboxCodeExecutionEngine(String language, SandboxOptions options, ResultFormat format,
            BiConsumer<String, String> outputListener) {
        if (!"js".equals(language) && !"python".equals(language)) {
            throw new IllegalArgumentException("language must be \"js\" or \"python\", got " + language);
        }
        this.language = language;
        this.options = Objects.requireNonNull(options, "options");
        this.format = Objects.requireNonNull(format, "format");
        this.streaming = outputListener == null ? null : HostBridge.outputOnly(outputListener);
        if ("python".equals(language) && !Sandbox.shared().pythonAvailable()) {
            // The same refusal newPythonInterpreter gives, at construction rather than at the first call.
            Sandbox.shared().newPythonInterpreter(options).close();
        }
    }

    /**
     * Runs {@code code} in the persistent interpreter and returns its outcome in this engine's {@link ResultFormat}:
     * by default {@code 55}, {@code hello\n42} or {@code Timeout: Execution exceeded ...}.
     *
     * @throws NullPointerException if {@code code} is null
     * @throws IllegalStateException if the engine is closed
     */
    @Override
    public String execute(String code) {
        return format.format(evaluate(code));
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
        return current().eval(code, streaming);
    }

    /** The guest language: {@code "js"} or {@code "python"}. */
    public String language() {
        return language;
    }

    /** The limits and policy this engine runs under. */
    public SandboxOptions options() {
        return options;
    }

    /** What {@link #execute(String)} returns. */
    public ResultFormat resultFormat() {
        return format;
    }

    /** Stops the running call, if any; it returns a {@code Cancelled} error. Returns at once. */
    public void cancel() {
        GuestInterpreter i = interpreter;
        if (i != null) {
            i.cancel();
        }
    }

    /** Stops any running call, discards the globals and ends the guest thread. Idempotent. */
    @Override
    public void close() {
        GuestInterpreter i;
        synchronized (this) {
            closed = true;
            i = interpreter;
        }
        if (i != null) {
            i.close();
        }
    }

    private GuestInterpreter newInterpreter() {
        return "python".equals(language)
                ? Sandbox.shared().newPythonInterpreter(options)
                : Sandbox.shared().newInterpreter(options);
    }

    /**
     * The interpreter, created on the first call (an engine that never runs code holds no thread), and replaced by
     * a fresh one when an earlier call got stuck in a builtin that ignores interrupts and closed it (that call's
     * outcome said the globals were gone).
     */
    private GuestInterpreter current() {
        GuestInterpreter i = interpreter;
        if (i == null || i.isClosed()) {
            synchronized (this) {
                if (closed) {
                    throw new IllegalStateException("the engine is closed");
                }
                if (interpreter == null || interpreter.isClosed()) {
                    interpreter = newInterpreter();
                }
                i = interpreter;
            }
        }
        return i;
    }
}
