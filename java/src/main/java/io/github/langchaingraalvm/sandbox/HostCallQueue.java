package io.github.langchaingraalvm.sandbox;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link HostCallHandler} that queues the guest's calls for another thread to collect in batches with
 * {@link #poll(long)}. The guest thread never waits and never leaves Java; a host that runs its tools elsewhere
 * (Python, through JPype) crosses the boundary once per batch instead of once per call.
 *
 * <p>Each call's input is the guest's own text, which guest code can shape at will (the Python guest's helpers are
 * within its reach): it travels as a JSON string, never pasted into the batch, so one call is always one entry and
 * the host decodes and checks each input on its own.
 *
 * <p>The guest's streamed output ({@link #output(String, String)}) is queued in order with the calls as entries
 * {@code [0, "output", stream, text]} (call ids start at 1). Output not yet collected is merged with the output of
 * the same stream right before it, so a tight loop of prints is one entry per batch, and a poll that finds only
 * output waits {@value #OUTPUT_WINDOW_MILLIS} ms more for the rest of it; a call is never held back.
 */
public final class HostCallQueue implements HostCallHandler {
    /** How long a poll that found only output waits for more before it returns, in milliseconds. */
    public static final long OUTPUT_WINDOW_MILLIS = 25;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition added = lock.newCondition();
    /** Calls and waits as their finished JSON entries, output as {@link Output}; guarded by {@link #lock}. */
    private final ArrayDeque<Object> entries = new ArrayDeque<>();
    /** The entries that are not output; guarded by {@link #lock}. */
    private int callEntries;
    private boolean closed;
    private volatile boolean reportWaits;
    private final long windowNanos;

    /** An empty, open queue. */
    public HostCallQueue() {
        this(OUTPUT_WINDOW_MILLIS);
    }

    /** A queue whose polls wait {@code windowMillis} for more output; for tests that must not race the window. */
    HostCallQueue(long windowMillis) {
        this.windowNanos = TimeUnit.MILLISECONDS.toNanos(windowMillis);
    }

    @Override
    public void start(long callId, String kind, String name, String inputJson) {
        addCall("[" + callId + "," + quoted(kind) + "," + quoted(name) + "," + jsonString(inputJson) + "]");
    }

    /**
     * Also queues an entry {@code [settled, "wait", "guest", "{}"]} each time the guest waits on its calls with
     * nothing else to run (see {@link HostCallHandler#waiting(long)}), in order with the calls.
     */
    public void reportWaits() {
        reportWaits = true;
    }

    @Override
    public void waiting(long settled) {
        if (reportWaits) {
            addCall("[" + settled + ",\"wait\",\"guest\",\"{}\"]");
        }
    }

    /** Queues an entry {@code [0, "output", stream, text]}, {@code text} as a JSON string of the text written. */
    @Override
    public void output(String stream, String text) {
        quoted(stream);
        lock.lock();
        try {
            if (entries.peekLast() instanceof Output last && last.stream.equals(stream)) {
                last.text.append(text);
            } else {
                entries.add(new Output(stream, new StringBuilder(text)));
            }
            added.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits up to {@code millis} for entries and returns every entry queued as a JSON array of
     * {@code [callId, kind, name, input]} entries, {@code input} being the guest's JSON text as a JSON string (or
     * the text written, for output); {@code "[]"} when none came, and null once {@link #close()} was called and the
     * queue is empty. When only output came, it waits up to {@value #OUTPUT_WINDOW_MILLIS} ms more, until a call
     * or {@link #close()}.
     */
    public String poll(long millis) throws InterruptedException {
        Object[] batch;
        lock.lockInterruptibly();
        try {
            long left = TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis));
            while (entries.isEmpty() && !closed && left > 0) {
                left = added.awaitNanos(left);
            }
            if (entries.isEmpty()) {
                return closed ? null : "[]";
            }
            left = windowNanos;
            while (callEntries == 0 && !closed && left > 0) {
                left = added.awaitNanos(left);
            }
            batch = entries.toArray();
            entries.clear();
            callEntries = 0;
        } finally {
            lock.unlock();
        }
        // Written out of the lock, so the guest thread never waits while a large output is escaped.
        StringBuilder out = new StringBuilder("[");
        for (Object entry : batch) {
            out.append(out.length() > 1 ? "," : "");
            if (entry instanceof Output o) {
                out.append("[0,\"output\",\"").append(o.stream).append("\",").append(jsonString(o.text)).append(']');
            } else {
                out.append((String) entry);
            }
        }
        return out.append(']').toString();
    }

    /** Ends the queue: {@link #poll(long)} returns what is left, then null. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            added.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void addCall(String entry) {
        lock.lock();
        try {
            entries.add(entry);
            callEntries++;
            added.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@code text} as a JSON string literal: quotes, backslashes and control characters escaped. */
    static String jsonString(CharSequence text) {
        StringBuilder out = new StringBuilder(text.length() + 16).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static String quoted(String identifier) {
        for (int i = 0; i < identifier.length(); i++) {
            char c = identifier.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$') || c > 127) {
                throw new IllegalArgumentException("not an identifier: " + identifier);
            }
        }
        return "\"" + identifier + "\"";
    }

    /** Output of one stream not yet collected. */
    private record Output(String stream, StringBuilder text) {
    }
}
