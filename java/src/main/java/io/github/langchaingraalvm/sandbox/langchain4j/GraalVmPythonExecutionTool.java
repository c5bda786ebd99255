package io.github.langchaingraalvm.sandbox.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * A sandboxed drop-in for LangChain4j's {@code dev.langchain4j.agent.tool.graalvm.GraalVmPythonExecutionTool}: the
 * same tool ({@code executePythonCode}, with the same description and parameter), run by a
 * {@link GraalVmPythonExecutionEngine} with time and memory limits under the CONSTRAINED policy. It returns what
 * LangChain4j's tool returns for a value, with the console output before it; errors, timeouts and limits come back
 * as text the model can act on instead of exceptions.
 *
 * <p>Unlike LangChain4j's tool, whose every call starts from nothing, one tool keeps one interpreter: globals from
 * one call are visible to the next, in every conversation the tool serves. For one interpreter per conversation use
 * {@link SandboxedJavaScriptTool}. Close the tool to end its interpreter's thread.
 *
 * <p>It needs the optional GraalPy jars ({@code org.graalvm.polyglot:python}, type {@code pom}).
 *
 * <pre>{@code
 * try (GraalVmPythonExecutionTool tool = new GraalVmPythonExecutionTool()) {
 *     Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(tool).build();
 *     System.out.println(assistant.chat("What is the square root of 485906798473894056?"));
 * }
 * }</pre>
 */
public class GraalVmPythonExecutionTool implements AutoCloseable {
    private final GraalVmPythonExecutionEngine engine;

    /** A tool with {@link SandboxOptions#defaults()}: 5 s and 64 MiB per call, frozen clock. */
    public GraalVmPythonExecutionTool() {
        this(SandboxOptions.defaults());
    }

    /** A tool whose interpreter runs under {@code options}. */
    public GraalVmPythonExecutionTool(SandboxOptions options) {
        this(options, ResultFormat.LANGCHAIN4J);
    }

    /** A tool whose interpreter runs under {@code options} and that returns {@code format}. */
    public GraalVmPythonExecutionTool(SandboxOptions options, ResultFormat format) {
        this(options, format, null);
    }

    /**
     * A tool whose interpreter runs under {@code options}, that returns {@code format}, and whose code's output goes
     * to {@code outputListener} ({@code (stream, text)}, {@code stream} {@code "stdout"} or {@code "stderr"}) while
     * it runs, for a host to show progress; null for no listener. See {@link GraalVmSandboxCodeExecutionEngine}.
     */
    public GraalVmPythonExecutionTool(SandboxOptions options, ResultFormat format,
            BiConsumer<String, String> outputListener) {
        this.engine = new GraalVmPythonExecutionEngine(Objects.requireNonNull(options, "options"), format,
                outputListener);
    }

    /**
     * Runs {@code code} and returns its outcome as text: the console output, then the value; or the error.
     *
     * @throws IllegalStateException if the tool is closed
     */
    @Tool("MUST be used for accurate calculations: math, sorting, filtering, aggregating, string processing, etc")
    public String executePythonCode(@P("Python code to execute, result MUST be returned by the code") String code) {
        return engine.execute(code);
    }

    /** The engine that runs this tool's code. */
    public GraalVmPythonExecutionEngine engine() {
        return engine;
    }

    /** Stops any running call and ends the interpreter's thread; later calls throw. Idempotent. */
    @Override
    public void close() {
        engine.close();
    }
}
