package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.HostCallHandler;
import org.graalvm.polyglot.Value;

/**
 * What the running eval prints, passed on to its bridge's handler as it is written
 * ({@link HostCallHandler#output(String, String)}), up to the per-eval cap. Apart from {@link ConsoleBuffer}, which
 * keeps the outcome's copy whole until the eval ends: this one keeps nothing, and its cap is its own.
 *
 * <p>Touched on the guest thread only: the guest's console writes, and the interpreter's start and end of an eval.
 */
final class StreamedOutput {
    private final long cap;
    /** The running eval's handler while its output is streamed; null otherwise, and once the cap is passed. */
    private HostCallHandler handler;
    private long sent;
    private long failures;

    /** Streams at most {@code cap} characters of each eval; 0 streams nothing. */
    StreamedOutput(long cap) {
        this.cap = Math.max(0, cap);
    }

    /** Starts an eval: its output goes to {@code b}'s handler when {@code b} asks for it. */
    void begin(HostBridge b) {
        handler = b != null && b.streamOutput() && cap > 0 ? b.handler() : null;
        sent = 0;
    }

    /** Ends the eval: what the guest prints from now on is not streamed. */
    void end() {
        handler = null;
    }

    /** Whether a write would be passed on, so a guest that is not streamed pays nothing for the text. */
    boolean active() {
        return handler != null;
    }

    /**
     * Passes {@code text} on; past the cap, the part that fits, then the notice, then nothing more this eval. A
     * handler that throws loses that text, and the eval goes on.
     */
    void write(String stream, String text) {
        HostCallHandler h = handler;
        if (h == null || text.isEmpty()) {
            return;
        }
        long room = cap - sent;
        if (text.length() <= room) {
            sent += text.length();
            deliver(h, stream, text);
            return;
        }
        int cut = (int) room;
        if (cut > 0 && Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--; // never half of a character
        }
        if (cut > 0) {
            deliver(h, stream, text.substring(0, cut));
        }
        handler = null;
        deliver(h, stream, "\n[output past " + cap + " characters is not streamed]\n");
    }

    /** How many times a handler threw from {@code output}, over this interpreter's life. */
    long failures() {
        return failures;
    }

    /** The stream the guest named in argument {@code i}: {@code "stderr"}, or {@code "stdout"} for anything else. */
    static String streamName(Value[] args, int i) {
        return args.length > i && args[i].isString() && args[i].asString().equals("stderr") ? "stderr" : "stdout";
    }

    private void deliver(HostCallHandler h, String stream, String text) {
        try {
            h.output(stream, text);
        } catch (RuntimeException e) {
            // The handler's own failure: dropping it keeps the guest's outcome what it would have been.
            failures++;
        }
    }
}
