package io.github.langchaingraalvm.sandbox.worker;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a worker's {@code calls} batch, the JSON text {@code HostCallQueue.poll} makes: an array of
 * {@code [number, kind, name, text]} entries, each a host call ({@code [callId, kind, name, inputJson]}), the
 * guest's output ({@code [0, "output", stream, text]}) or a wait ({@code [settled, "wait", "guest", "{}"]}).
 * Nothing else appears in it, so this reads exactly that shape and refuses any other.
 */
final class CallBatch {
    /** One entry; {@code text} is the call's input JSON or the output written, unescaped. */
    record Entry(long number, String kind, String name, String text) {}

    private final String json;
    private int at;

    private CallBatch(String json) {
        this.json = json;
    }

    /** The entries of {@code json}, in order. */
    static List<Entry> entries(String json) {
        CallBatch reader = new CallBatch(json);
        try {
            return reader.read();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a host-call batch at " + reader.at + ": " + e.getMessage(), e);
        }
    }

    private List<Entry> read() {
        List<Entry> entries = new ArrayList<>();
        expect('[');
        if (json.charAt(at) == ']') {
            return entries;
        }
        do {
            expect('[');
            int start = at;
            while (json.charAt(at) == '-' || Character.isDigit(json.charAt(at))) {
                at++;
            }
            long number = Long.parseLong(json.substring(start, at));
            expect(',');
            String kind = string();
            expect(',');
            String name = string();
            expect(',');
            String text = string();
            expect(']');
            entries.add(new Entry(number, kind, name, text));
        } while (json.charAt(at++) == ',');
        if (json.charAt(at - 1) != ']') {
            throw new IllegalArgumentException("expected ']'");
        }
        return entries;
    }

    private void expect(char c) {
        if (json.charAt(at) != c) {
            throw new IllegalArgumentException("expected '" + c + "'");
        }
        at++;
    }

    /** A JSON string literal, unescaped. */
    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = json.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = json.charAt(at++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(json.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> out.append(e); // '"', '\\' and '/'
            }
        }
    }
}
