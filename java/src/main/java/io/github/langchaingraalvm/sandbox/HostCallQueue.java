package io.github.langchaingraalvm.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link HostCallHandler} that queues the guest's calls for another thread to collect in batches with
 * {@link #poll(long)}. The guest thread never waits and never leaves Java; a host that runs its tools elsewhere
 * (Python, through JPype) crosses the boundary once per batch instead of once per call.
 *
 * <p>Each call's input is the guest's own text, which guest code can shape at will (the Python guest's helpers are
 * within its reach): it travels as a JSON string, never pasted into the batch, so one call is always one entry and
 * the host decodes and checks each input on its own.
 */
public final class HostCallQueue implements HostCallHandler {
    private static final String CLOSED = "";
    private final LinkedBlockingQueue<String> calls = new LinkedBlockingQueue<>();
    private volatile boolean closed;
    private volatile boolean reportWaits;

    /** An empty, open queue. */
    public HostCallQueue() {
    }

    @Override
    public void start(long callId, String kind, String name, String inputJson) {
        calls.add("[" + callId + "," + quoted(kind) + "," + quoted(name) + "," + jsonString(inputJson) + "]");
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
            calls.add("[" + settled + ",\"wait\",\"guest\",\"{}\"]");
        }
    }

    /**
     * Waits up to {@code millis} for calls and returns every call queued as a JSON array of
     * {@code [callId, kind, name, input]} entries, {@code input} being the guest's JSON text as a JSON string;
     * {@code "[]"} when none came, and null once {@link #close()} was called and the queue is empty.
     */
    public String poll(long millis) throws InterruptedException {
        if (closed && calls.isEmpty()) {
            return null;
        }
        String first = calls.poll(millis, TimeUnit.MILLISECONDS);
        if (first == null) {
            return "[]";
        }
        List<String> batch = new ArrayList<>();
        batch.add(first);
        calls.drainTo(batch);
        StringBuilder out = new StringBuilder("[");
        for (String call : batch) {
            if (call.equals(CLOSED)) {
                continue;
            }
            out.append(out.length() > 1 ? "," : "").append(call);
        }
        if (out.length() == 1 && closed && calls.isEmpty()) {
            return null;
        }
        return out.append(']').toString();
    }

    /** Ends the queue: {@link #poll(long)} returns what is left, then null. */
    public void close() {
        closed = true;
        calls.add(CLOSED);
    }

    /** {@code text} as a JSON string literal: quotes, backslashes and control characters escaped. */
    static String jsonString(String text) {
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
}
