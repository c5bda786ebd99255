package io.github.langchaingraalvm.sandbox.langchain4j;

import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.function.BiConsumer;

/**
 * A sandboxed drop-in for LangChain4j's {@code dev.langchain4j.code.graalvm.GraalVmJavaScriptExecutionEngine}: runs
 * JavaScript (and TypeScript) under the CONSTRAINED sandbox policy, with time and memory limits, in one persistent interpreter
 * (see {@link GraalVmSandboxCodeExecutionEngine}). {@link #execute(String)} returns what LangChain4j's engine returns
 * for a value, with the console output before it; errors, timeouts and limits come back as text instead of
 * exceptions.
 *
 * <pre>{@code
 * try (GraalVmJavaScriptExecutionEngine engine = new GraalVmJavaScriptExecutionEngine()) {
 *     System.out.println(engine.execute("function fib(n) { return n <= 1 ? n : fib(n - 1) + fib(n - 2) }\nfib(10)")); // 55
 * }
 * }</pre>
 */
public final class GraalVmJavaScriptExecutionEngine extends GraalVmSandboxCodeExecutionEngine {
    /** An engine with {@link SandboxOptions#defaults()}: 5 s and 64 MiB per call, frozen clock. */
    public GraalVmJavaScriptExecutionEngine() {
        this(SandboxOptions.defaults());
    }

    /** An engine whose interpreter runs under {@code options}. */
    public GraalVmJavaScriptExecutionEngine(SandboxOptions options) {
        this(options, ResultFormat.LANGCHAIN4J);
    }

    /** An engine whose interpreter runs under {@code options} and whose {@code execute} returns {@code format}. */
    public GraalVmJavaScriptExecutionEngine(SandboxOptions options, ResultFormat format) {
        super("js", options, format);
    }

    /**
     * An engine whose interpreter runs under {@code options}, whose {@code execute} returns {@code format}, and whose
     * code's output goes to {@code outputListener} as it is printed (see {@link GraalVmSandboxCodeExecutionEngine}).
     */
    public GraalVmJavaScriptExecutionEngine(SandboxOptions options, ResultFormat format,
            BiConsumer<String, String> outputListener) {
        super("js", options, format, outputListener);
    }
}
