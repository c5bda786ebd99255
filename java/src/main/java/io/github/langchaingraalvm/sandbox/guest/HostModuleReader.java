package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.hostcall.HostCallBook;
import io.github.langchaingraalvm.sandbox.text.UnicodeText;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.graalvm.polyglot.PolyglotException;

/**
 * Reads the modules a JavaScript guest imports through the running eval's host bridge: each read is a host call of
 * kind {@code "fs"} named {@code "module"}, and the guest thread waits for its answer, running other completions
 * meanwhile, with the watchdog's clock stopped and the eval's wall-clock cap in force. The host answers through
 * {@link #complete}, outside the batches that settle the guest's Promises.
 */
final class HostModuleReader implements AgentModules.Reader {
    private final Engines engines;
    private final SandboxOptions options;
    private final GuestThread guest;
    private final HostCallBook calls;
    private final LongSupplier wallDeadline;
    private final Map<Long, Object[]> results = new ConcurrentHashMap<>();

    HostModuleReader(Engines engines, SandboxOptions options, GuestThread guest, HostCallBook calls,
            LongSupplier wallDeadline) {
        this.engines = engines;
        this.options = options;
        this.guest = guest;
        this.calls = calls;
        this.wallDeadline = wallDeadline;
    }

    /** Delivers a read's answer; thread-safe and non-blocking. */
    void complete(long callId, boolean ok, String text) {
        results.put(callId, new Object[] {ok, text});
        guest.complete(() -> calls.settle(callId));
    }

    /** Forgets answers of an earlier eval. Called on the guest thread. */
    void clear() {
        results.clear();
    }

    @Override
    public String read(String path) throws IOException {
        Object ticket = calls.start("fs", "module", "{\"path\":" + UnicodeText.jsonString(path) + "}", "Error");
        if (ticket instanceof String refused) {
            throw new AccessDeniedException(path, null, refused.substring(refused.indexOf('\u0000') + 1));
        }
        long id = (long) (double) (Double) ticket;
        Watchdog.Ticket t = guest.ticket();
        while (true) {
            Object[] read = results.remove(id);
            if (read != null) {
                calls.settle(id);
                String text = (String) read[1];
                if (t != null) {
                    t.hostBytes += 2L * text.length();
                }
                if ((Boolean) read[0]) {
                    return path.endsWith(".ts") || path.endsWith(".mts") ? stripTypes(text, t) : text;
                }
                if (text.startsWith("ENOENT")) {
                    throw new NoSuchFileException(path, null, text);
                }
                throw new AccessDeniedException(path, null, text);
            }
            Runnable next;
            try {
                next = guest.nextCompletion(wallDeadline.getAsLong());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading " + path, e);
            }
            if (next == null) {
                throw new IOException(GuestThread.wallTimeMessage(options, calls.openCount()));
            }
            if (t != null && t.reason != null) {
                throw new IOException("the eval was stopped while it read " + path);
            }
            next.run();
        }
    }

    /** A TypeScript module as JavaScript; host work, so the guest's clock is stopped meanwhile. */
    private String stripTypes(String code, Watchdog.Ticket t) throws IOException {
        if (t != null) {
            t.pause();
        }
        try {
            return engines.compiler().strip(code);
        } catch (PolyglotException e) {
            throw new IOException("the TypeScript module could not be stripped: " + e.getMessage(), e);
        } finally {
            if (t != null) {
                t.resume();
            }
        }
    }
}
