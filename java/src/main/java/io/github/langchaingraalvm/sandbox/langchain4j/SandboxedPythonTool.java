package io.github.langchaingraalvm.sandbox.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.function.BiConsumer;

/**
 * A LangChain4j tool that lets a model run Python (GraalPy) in a sandboxed interpreter, with one persistent
 * interpreter per chat session: the Python counterpart of {@link SandboxedJavaScriptTool}, with the same sessions
 * (keyed by the conversation's {@link ToolMemoryId}, at most {@code maxSessions} kept, the least recently used idle
 * one closed to make room) and the same envelope.
 *
 * <pre>{@code
 * SandboxOptions options = SandboxOptions.builder().isolation(Isolation.PROCESS).build();
 * try (SandboxedPythonTool py = new SandboxedPythonTool(options)) {
 *     Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .chatMemoryProvider(session -> MessageWindowChatMemory.withMaxMessages(20))
 *         .tools(py)
 *         .build();
 *     assistant.chat("alice", "Store 41 in a variable named n.");
 *     assistant.chat("alice", "What is n + 1?"); // alice's interpreter still has n
 * }
 * }</pre>
 *
 * <p>It needs the optional GraalPy jars ({@code org.graalvm.polyglot:python}, type {@code pom});
 * {@code Sandbox.shared().pythonAvailable()} says whether they are installed. Like the JavaScript tool it needs
 * {@code dev.langchain4j:langchain4j-core}, which the sandbox library does not bring.
 */
public final class SandboxedPythonTool implements AutoCloseable {
    private final Sessions sessions;

    /** A tool with {@link SandboxOptions#defaults()} and {@link SandboxedJavaScriptTool#DEFAULT_MAX_SESSIONS}. */
    public SandboxedPythonTool() {
        this(SandboxOptions.defaults());
    }

    /** A tool whose interpreters run under {@code options}. */
    public SandboxedPythonTool(SandboxOptions options) {
        this(options, SandboxedJavaScriptTool.DEFAULT_MAX_SESSIONS, null);
    }

    /**
     * A tool whose interpreters run under {@code options}, keeping at most {@code maxSessions} idle sessions, and
     * whose code's output goes to {@code outputListener} while it runs ({@code (stream, text)}, as
     * {@link SandboxedJavaScriptTool} describes); null for no listener.
     *
     * @throws IllegalArgumentException if {@code maxSessions} is less than 1
     * @throws IllegalStateException if the optional GraalPy jars are not installed
     */
    public SandboxedPythonTool(SandboxOptions options, int maxSessions, BiConsumer<String, String> outputListener) {
        if (!Sandbox.shared().pythonAvailable()) {
            throw new IllegalStateException("GraalPy's jars are not on this JVM's module path");
        }
        this.sessions = new Sessions("python", options, maxSessions, outputListener);
    }

    /**
     * The tool the model calls: runs {@code code} in the interpreter of session {@code sessionId}, creating it on
     * first use, and returns the envelope text, such as {@code <result>42</result>} or
     * {@code <error type="NameError">name 'n' is not defined</error>}. Never throws for anything the code does.
     *
     * @param sessionId the chat memory id, injected by LangChain4j; {@code null} means the {@code "default"} session
     * @param code Python source
     * @throws IllegalStateException if the tool, or this session, was closed
     */
    @Tool(name = "executePython", value = {
        "Runs Python in a sandboxed interpreter and returns the value of the last expression as <result>...</result>,"
                + " or the error as <error type=\"...\">...</error>; printed output comes first in"
                + " <stdout>...</stdout>.",
        "Variables, functions, classes and imports persist between calls in this conversation, as in a notebook.",
        "Only the standard library is available. There is no network, file system, process or host access, and"
                + " each call is limited in time and memory."
    })
    public String executePython(
            @ToolMemoryId Object sessionId,
            @P(name = "code", description = "The Python source to run") String code) {
        return sessions.run(sessionId, code);
    }

    /** Runs {@code code} in the {@code "default"} session, the one an AI service without {@code @MemoryId} uses. */
    public String executePython(String code) {
        return sessions.run(null, code);
    }

    /**
     * Closes the interpreter of session {@code sessionId} and forgets its globals; a call running in it is
     * cancelled. The next call in that session starts afresh.
     *
     * @return whether the session existed
     */
    public boolean closeSession(Object sessionId) {
        return sessions.closeSession(sessionId);
    }

    /** How many sessions have an interpreter now. */
    public int sessionCount() {
        return sessions.sessionCount();
    }

    /** The most idle sessions kept. */
    public int maxSessions() {
        return sessions.maxSessions();
    }

    /** The limits and policy every session's interpreter runs under. */
    public SandboxOptions options() {
        return sessions.options();
    }

    /** Closes every session, cancelling calls in flight; later calls throw. Idempotent. */
    @Override
    public void close() {
        sessions.close();
    }
}
