package io.github.langchaingraalvm.sandbox.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.function.BiConsumer;

/**
 * A LangChain4j tool that lets a model run JavaScript (and TypeScript) in a sandboxed GraalVM interpreter, with one
 * persistent interpreter per chat session. Register it with {@code AiServices.tools(...)}; LangChain4j passes the
 * conversation's memory id (the {@code @MemoryId} argument of the AI service method, or {@code "default"}) to
 * {@link #executeJavaScript(Object, String)} through {@link ToolMemoryId}, so each conversation has its own globals
 * and never sees another's.
 *
 * <pre>{@code
 * interface Assistant {
 *     String chat(@MemoryId String session, @UserMessage String message);
 * }
 *
 * try (SandboxedJavaScriptTool js = new SandboxedJavaScriptTool(SandboxOptions.defaults())) {
 *     Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .chatMemoryProvider(session -> MessageWindowChatMemory.withMaxMessages(20))
 *         .tools(js)
 *         .build();
 *     assistant.chat("alice", "Store 41 in a variable named n.");
 *     assistant.chat("alice", "What is n + 1?"); // alice's interpreter still has n
 *     assistant.chat("bob", "What is n + 1?");   // bob's interpreter has no n
 * }
 * }</pre>
 *
 * <p>At most {@code maxSessions} interpreters are kept. Opening one more closes the least recently used idle
 * session, whose globals are then lost; a session with a call in flight is never evicted. Calls in one session run
 * one after another; calls in different sessions run in parallel. {@link #close()} closes every session.
 *
 * <p>This class needs {@code dev.langchain4j:langchain4j-core} on the class path, and {@code AiServices} needs
 * {@code dev.langchain4j:langchain4j}. The sandbox library does not bring either (langchain4j-core is an optional
 * dependency of it), so add them to your own build.
 */
public final class SandboxedJavaScriptTool implements AutoCloseable {
    /** How many sessions the constructors without {@code maxSessions} keep. */
    public static final int DEFAULT_MAX_SESSIONS = 32;

    /** The session a {@code null} memory id maps to: LangChain4j's own default memory id. */
    public static final String DEFAULT_SESSION = Sessions.DEFAULT_SESSION;

    private final Sessions sessions;

    /** A tool with {@link SandboxOptions#defaults()} and {@link #DEFAULT_MAX_SESSIONS} sessions. */
    public SandboxedJavaScriptTool() {
        this(SandboxOptions.defaults());
    }

    /** A tool whose interpreters run under {@code options}, keeping {@link #DEFAULT_MAX_SESSIONS} sessions. */
    public SandboxedJavaScriptTool(SandboxOptions options) {
        this(options, DEFAULT_MAX_SESSIONS);
    }

    /**
     * A tool whose interpreters run under {@code options}, keeping at most {@code maxSessions} idle sessions.
     *
     * @throws IllegalArgumentException if {@code maxSessions} is less than 1
     */
    public SandboxedJavaScriptTool(SandboxOptions options, int maxSessions) {
        this(options, maxSessions, null);
    }

    /**
     * A tool whose interpreters run under {@code options}, keeping at most {@code maxSessions} idle sessions, and
     * whose code's console output goes to {@code outputListener} while it runs: {@code (stream, text)} with
     * {@code stream} {@code "stdout"} or {@code "stderr"}, on the session's interpreter thread, in order, up to
     * {@link SandboxOptions#maxStreamedChars()} per call; null for no listener. Calls of different sessions run
     * in parallel, so a listener shared by them may be called from several threads at once. It must return
     * quickly; an exception it throws is dropped. The envelope is the same with or without it.
     *
     * @throws IllegalArgumentException if {@code maxSessions} is less than 1
     */
    public SandboxedJavaScriptTool(SandboxOptions options, int maxSessions, BiConsumer<String, String> outputListener) {
        this.sessions = new Sessions("js", options, maxSessions, outputListener);
    }

    /**
     * The tool the model calls: runs {@code code} in the interpreter of session {@code sessionId}, creating it on
     * first use, and returns the envelope text, such as {@code <result>42</result>} or
     * {@code <error type="ReferenceError">n is not defined</error>}. Never throws for anything the code does.
     *
     * <pre>{@code
     * tool.executeJavaScript("alice", "let n = 41");
     * tool.executeJavaScript("alice", "n + 1"); // <result>42</result>
     * tool.executeJavaScript("bob", "typeof n"); // <result>undefined</result>
     * }</pre>
     *
     * @param sessionId the chat memory id, injected by LangChain4j; {@code null} means {@link #DEFAULT_SESSION}
     * @param code JavaScript or TypeScript source
     * @throws IllegalStateException if the tool, or this session, was closed
     */
    @Tool(name = "executeJavaScript", value = {
        "Runs JavaScript or TypeScript in a sandboxed interpreter and returns the value of the last expression as"
                + " <result>...</result>, or the error as <error type=\"...\">...</error>; console output comes first"
                + " in <stdout>...</stdout>.",
        "Top-level let, const, var, function and class declarations persist between calls in this conversation,"
                + " and top-level await works.",
        "There is no network, file system, module loading (require/import), process or host access, and each"
                + " call is limited in time and memory."
    })
    public String executeJavaScript(
            @ToolMemoryId Object sessionId,
            @P(name = "code", description = "The JavaScript or TypeScript source to run") String code) {
        return sessions.run(sessionId, code);
    }

    /**
     * Runs {@code code} in the {@link #DEFAULT_SESSION} session: the one an AI service without {@code @MemoryId}
     * uses. Not itself a tool.
     *
     * <pre>{@code
     * tool.executeJavaScript("const xs = [1, 2, 3]");
     * tool.executeJavaScript("xs.length"); // <result>3</result>
     * }</pre>
     */
    public String executeJavaScript(String code) {
        return executeJavaScript(DEFAULT_SESSION, code);
    }

    /**
     * Closes the interpreter of session {@code sessionId} and forgets its globals, for example when its chat memory
     * is cleared; a call running in it is cancelled. The next call in that session starts afresh.
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

    /** Calls in flight or waiting in session {@code sessionId}. For tests in this package. */
    int callsInFlight(Object sessionId) {
        return sessions.callsInFlight(sessionId);
    }

    /** The most idle sessions kept; see the class documentation. */
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
