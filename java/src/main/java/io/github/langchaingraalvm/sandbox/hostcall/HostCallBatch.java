package io.github.langchaingraalvm.sandbox.hostcall;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a batch of host-call results, {@code [[callId, ok, value], ...]}, into its entries, each value kept as the
 * JSON text it was written as. For guests that take their results one by one; a guest that parses the whole batch
 * itself gets the text unread.
 */
public final class HostCallBatch {
    /** One settled call: its id, whether it succeeded, and its value (or error) as JSON. */
    public record Entry(long callId, boolean ok, String valueJson) {}

    private final String json;
    private int at;

    private HostCallBatch(String json) {
        this.json = json;
    }

    /** The entries of {@code batchJson}, in order. */
    public static List<Entry> entries(String batchJson) {
        return new HostCallBatch(batchJson).read();
    }

    private List<Entry> read() {
        List<Entry> entries = new ArrayList<>();
        expect('[');
        if (peek() == ']') {
            at++;
            return entries;
        }
        do {
            expect('[');
            int idStart = at;
            skipValue();
            long id = Long.parseLong(json.substring(idStart, at).strip());
            expect(',');
            int okStart = at;
            skipValue();
            boolean ok = json.substring(okStart, at).strip().equals("true");
            expect(',');
            int valueStart = at;
            skipValue();
            entries.add(new Entry(id, ok, json.substring(valueStart, at).strip()));
            expect(']');
        } while (next(',', ']'));
        return entries;
    }

    /** Moves past one JSON value: up to the comma or bracket that ends it at this depth. */
    private void skipValue() {
        int depth = 0;
        for (; at < json.length(); at++) {
            char c = json.charAt(at);
            if (c == '"') {
                skipString();
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (depth == 0) {
                    return;
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                return;
            }
        }
        throw malformed();
    }

    /** From the opening quote to the closing one, which {@code at} is left on. */
    private void skipString() {
        for (at++; at < json.length(); at++) {
            char c = json.charAt(at);
            if (c == '\\') {
                at++;
            } else if (c == '"') {
                return;
            }
        }
        throw malformed();
    }

    private char peek() {
        while (at < json.length() && Character.isWhitespace(json.charAt(at))) {
            at++;
        }
        if (at == json.length()) {
            throw malformed();
        }
        return json.charAt(at);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw malformed();
        }
        at++;
    }

    /** True past {@code more}, false past {@code end}. */
    private boolean next(char more, char end) {
        char c = peek();
        if (c != more && c != end) {
            throw malformed();
        }
        at++;
        return c == more;
    }

    private IllegalArgumentException malformed() {
        return new IllegalArgumentException("malformed host-call batch at " + at + ": "
                + json.substring(0, Math.min(json.length(), 200)));
    }
}
