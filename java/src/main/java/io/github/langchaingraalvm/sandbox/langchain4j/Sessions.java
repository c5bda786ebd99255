package io.github.langchaingraalvm.sandbox.langchain4j;

import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * One persistent interpreter per chat session, for the per-conversation tools ({@link SandboxedJavaScriptTool},
 * {@link SandboxedPythonTool}): at most {@code maxSessions} kept, the least recently used idle one closed to make
 * room, never one with a call in flight. Calls in one session run one after another; calls in different sessions
 * run in parallel.
 */
final class Sessions implements AutoCloseable {
    /** The session a {@code null} memory id maps to: LangChain4j's own default memory id. */
    static final String DEFAULT_SESSION = "default";

    private final String language;
    private final SandboxOptions options;
    private final int maxSessions;
    /** The bridge that streams every session's output to the listener; null without a listener. */
    private final HostBridge streaming;
    /** In access order, least recently used first. Guarded by itself. */
    private final LinkedHashMap<Object, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    Sessions(String language, SandboxOptions options, int maxSessions, BiConsumer<String, String> outputListener) {
        if (maxSessions < 1) {
            throw new IllegalArgumentException("maxSessions must be >= 1, got " + maxSessions);
        }
        this.language = language;
        this.options = Objects.requireNonNull(options, "options");
        this.maxSessions = maxSessions;
        this.streaming = outputListener == null ? null : HostBridge.outputOnly(outputListener);
    }

    /** Runs {@code code} in the interpreter of session {@code sessionId}, made on first use; the envelope text. */
    String run(Object sessionId, String code) {
        Objects.requireNonNull(code, "code");
        Object key = sessionId == null ? DEFAULT_SESSION : sessionId;
        List<Session> evicted = new ArrayList<>();
        Session session;
        synchronized (sessions) {
            if (closed) {
                throw new IllegalStateException("the tool is closed");
            }
            session = sessions.get(key);
            if (session == null) {
                session = new Session(newInterpreter());
                sessions.put(key, session);
            }
            session.users++;
            evictIdle(evicted);
        }
        closeAll(evicted);
        try {
            session.lock.lock();
            try {
                if (session.interpreter.isClosed()) {
                    synchronized (sessions) {
                        if (closed || sessions.get(key) != session) {
                            throw new IllegalStateException("the session was closed");
                        }
                        session.interpreter = newInterpreter();
                    }
                }
                return session.interpreter.eval(code, streaming).envelope();
            } finally {
                session.lock.unlock();
            }
        } finally {
            synchronized (sessions) {
                session.users--;
            }
        }
    }

    private GuestInterpreter newInterpreter() {
        return language.equals("python")
                ? Sandbox.shared().newPythonInterpreter(options)
                : Sandbox.shared().newInterpreter(options);
    }

    /** Closes the interpreter of session {@code sessionId}; whether it existed. */
    boolean closeSession(Object sessionId) {
        Session session;
        synchronized (sessions) {
            session = sessions.remove(sessionId == null ? DEFAULT_SESSION : sessionId);
        }
        if (session == null) {
            return false;
        }
        session.interpreter.close();
        return true;
    }

    int sessionCount() {
        synchronized (sessions) {
            return sessions.size();
        }
    }

    /** Calls in flight or waiting in session {@code sessionId}. */
    int callsInFlight(Object sessionId) {
        synchronized (sessions) {
            Session session = sessions.get(sessionId == null ? DEFAULT_SESSION : sessionId);
            return session == null ? 0 : session.users;
        }
    }

    int maxSessions() {
        return maxSessions;
    }

    SandboxOptions options() {
        return options;
    }

    /** Closes every session, cancelling calls in flight; later calls throw. Idempotent. */
    @Override
    public void close() {
        List<Session> all;
        synchronized (sessions) {
            closed = true;
            all = new ArrayList<>(sessions.values());
            sessions.clear();
        }
        closeAll(all);
    }

    /** Removes least recently used idle sessions while there are too many. Caller holds the lock. */
    private void evictIdle(List<Session> evicted) {
        Iterator<Map.Entry<Object, Session>> it = sessions.entrySet().iterator();
        while (sessions.size() > maxSessions && it.hasNext()) {
            Session candidate = it.next().getValue();
            if (candidate.users == 0) {
                it.remove();
                evicted.add(candidate);
            }
        }
    }

    private static void closeAll(List<Session> toClose) {
        for (Session s : toClose) {
            s.interpreter.close();
        }
    }

    private static final class Session {
        /** Replaced if it was closed; guarded by lock. */
        GuestInterpreter interpreter;
        /** Serializes the calls of one session, so a second call waits instead of getting ConcurrentEval. */
        final ReentrantLock lock = new ReentrantLock();
        /** Calls in flight or waiting; guarded by the sessions map. */
        int users;

        Session(GuestInterpreter interpreter) {
            this.interpreter = interpreter;
        }
    }
}
