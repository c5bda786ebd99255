package io.github.langchaingraalvm.sandbox.guest;

/**
 * Console output of one eval. Keeps the first {@code capacity} characters and only counts the rest, so a guest
 * that prints without bound cannot grow host memory.
 */
final class ConsoleBuffer {
    private final int capacity;
    private final StringBuilder kept = new StringBuilder();
    private long dropped;

    ConsoleBuffer(int capacity) {
        this.capacity = Math.max(0, capacity);
    }

    synchronized void appendLine(String line) {
        appendLine(line, -1);
    }

    /** Adds a line of {@code fullLength} characters of which only the prefix {@code line} was sent. */
    synchronized void appendLine(String line, long fullLength) {
        if (kept.length() > 0 || dropped > 0) {
            add("\n");
        }
        add(line);
        if (fullLength > line.length()) {
            dropped += fullLength - line.length();
        }
    }

    /** Appends text as written, without a separator (Python's print writes its own newlines). */
    synchronized void append(String text) {
        add(text);
    }

    private void add(String text) {
        int room = capacity - kept.length();
        if (room >= text.length()) {
            kept.append(text);
        } else {
            if (room > 0) {
                kept.append(text, 0, room);
            }
            dropped += text.length() - Math.max(0, room);
        }
    }

    synchronized String text() {
        return kept.toString();
    }

    synchronized long dropped() {
        return dropped;
    }

    synchronized void clear() {
        kept.setLength(0);
        dropped = 0;
    }
}
