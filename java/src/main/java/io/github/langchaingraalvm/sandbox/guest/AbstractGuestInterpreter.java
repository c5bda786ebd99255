package io.github.langchaingraalvm.sandbox.guest;

import static io.github.langchaingraalvm.sandbox.guest.Failures.GLOBALS_LOST;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.hostcall.HostCallBook;
import io.github.langchaingraalvm.sandbox.text.SourceLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * What every guest language's interpreter shares: the guest thread and the context it owns, the host calls of the
 * running eval, the console, the watchdog's limits, the snapshot contract and the mapping of failures to outcomes.
 * A language adds how its context is built and set up, how a cell runs, and how its guest sees host calls; see
 * {@link JavaScriptGuest} and {@link PythonGuest}.
 *
 * <p>Everything but the public methods runs on the guest thread.
 *
 * @param <C> a cell prepared for running: what {@link #compile} makes of the model's code
 */
abstract class AbstractGuestInterpreter<C> implements GuestInterpreter {
    private static final AtomicInteger IDS = new AtomicInteger();

    final Engines engines;
    final SandboxOptions options;
    final ConsoleBuffer console;
    /** The running eval's output as it is written, for a bridge that streams it. */
    final StreamedOutput streamed;
    final GuestThread guest;
    /** The host calls of the running eval. */
    final HostCallBook calls;
    /** The context, built on first use and discarded when the watchdog had to close it. */
    Context context;
    /** When the running eval's wall-clock cap passes, in {@link System#nanoTime()}. */
    long wallDeadline;
    private String installedShape = "";
    /** Whether the context's random numbers are seeded (a seeded cell ran last in it). */
    private boolean randomSeeded;
    private volatile boolean warmUp;

    AbstractGuestInterpreter(Engines engines, SandboxOptions options, String threadName, long stackBytes) {
        this.engines = engines;
        this.calls = new HostCallBook(engines.access);
        this.options = options;
        this.console = new ConsoleBuffer(Math.max(0, options.maxResultChars()));
        this.streamed = new StreamedOutput(options.maxStreamedChars());
        this.guest = new GuestThread(threadName + "-" + IDS.incrementAndGet(), options, stackBytes,
                engines.watchdog(), engines.access, this::discardContext);
    }

    // ------------------------------------------------------------------ what a language adds

    /** A context builder with the sandbox's restrictions and the language's own options. */
    abstract Context.Builder contextBuilder();

    /** Sets up a new context: evaluates the guest resources and keeps the guest's API. */
    abstract void initialize(Context c);

    /** Forgets the guest API values of a context that is being discarded. */
    abstract void forgetContext();

    /** Binds a host value (a polyglot proxy) as a global of the model's code; it is not part of snapshots. */
    abstract void bindGlobal(String name, Object hostValue);

    /**
     * Prepares the model's code for running, spending at most what {@code budget} has left; throws
     * {@link CellSyntaxError} when it does not parse and {@link CellCompiler.OutOfTime} when the budget ran out.
     */
    abstract C compile(String code, CellCompiler.Budget budget);

    /**
     * Runs a prepared cell under the watchdog's ticket {@code t}. A {@link PolyglotException} that escapes is mapped
     * by {@link #failure}.
     */
    abstract EvalOutcome run(C cell, Watchdog.Ticket t, long start);

    /** Installs the guest globals of {@code b}: its {@code tools}, {@code task} and the agent's files. */
    abstract void installHostCalls(HostBridge b);

    /**
     * Seeds the guest's random numbers for the next cell ({@code Math.random}, Python's {@code random} module), or
     * gives them back to the engine's own source for null.
     */
    abstract void seedRandom(Long seed);

    /** Whether the globals of the last installed bridge are still in place (the model's code may have changed them). */
    boolean hostCallsIntact() {
        return true;
    }

    /** Drops what an earlier eval left behind, before the context is used. */
    void beginEval() {
    }

    /** The name of the guest's error for a host call that could not start. */
    abstract String hostCallErrorType();

    /**
     * The next completion for a guest waiting on host calls, until the eval's wall-clock cap (null past it). When
     * none is queued the guest can make no progress without the host, and the handler is told so first.
     */
    final Runnable nextHostResult() throws InterruptedException {
        if (!guest.hasCompletions()) {
            calls.waiting();
        }
        return guest.nextCompletion(wallDeadline);
    }

    /** Hands the guest the result of a settled host call. */
    abstract void deliverResult(long callId, boolean ok, String resultJson);

    /** Settles the open calls of a batch (see {@link #completeHostCalls}) and hands the guest their results. */
    abstract void deliverBatch(long[] callIds, String batchJson);

    /** The model's globals as snapshot JSON; the snapshot is refused past {@code maxBytes} (-1 for no limit). */
    abstract String encodeGlobals(long maxBytes);

    /** Restores the globals of a snapshot; returns the guest's list of the restored names. */
    abstract Value decodeGlobals(String payload);

    /** The memory allowance of a restore; 0 for no memory limit. */
    long restoreHeapAllowance() {
        return options.heapAllowanceBytes();
    }

    /** The message of a restore the guest refused, as the host reads it. */
    String restoreError(String message) {
        return message;
    }

    /** An outcome for a failure the guest's own code raised, or null to go on classifying it. */
    EvalOutcome guestFailure(PolyglotException e, Watchdog.Ticket t, long start) {
        return null;
    }

    /** An outcome for a failure of the host the language can describe, or null for an internal error. */
    EvalOutcome hostFailure(PolyglotException e, long start) {
        return null;
    }

    /** The console output as the outcome shows it. */
    String consoleText() {
        return console.text();
    }

    // ------------------------------------------------------------------ the contract

    @Override
    public final SandboxOptions options() {
        return options;
    }

    @Override
    public final boolean isBusy() {
        return guest.isBusy();
    }

    @Override
    public final boolean isClosed() {
        return guest.isClosed();
    }

    @Override
    public final EvalOutcome eval(String code) {
        return eval(code, null);
    }

    @Override
    public final EvalOutcome eval(String code, HostBridge bridge) {
        if (warmUp) {
            return guest.eval(() -> runCell(code, bridge));
        }
        engines.noteRealEval();
        try {
            return guest.eval(() -> runCell(code, bridge));
        } finally {
            engines.noteRealEvalEnded();
        }
    }

    @Override
    public final void prepare() {
        guest.exclusive(() -> {
            ensureContext();
            return null;
        });
    }

    /** Marks this interpreter as the sandbox's engine warm-up, whose evals do not stop the warm-up. */
    final void markWarmUp() {
        warmUp = true;
    }

    @Override
    public final String snapshot(long maxBytes) {
        return guest.exclusive(() -> takeSnapshot(maxBytes));
    }

    @Override
    public final List<String> restore(String payload) {
        return guest.exclusive(() -> restoreSnapshot(payload));
    }

    @Override
    public final void completeHostCall(long callId, boolean ok, String resultJson) {
        Objects.requireNonNull(resultJson, "resultJson");
        guest.complete(() -> {
            if (calls.settleResult(callId)) {
                deliverResult(callId, ok, resultJson);
            }
        });
    }

    @Override
    public final void completeHostCalls(long[] callIds, String batchJson) {
        Objects.requireNonNull(batchJson, "batchJson");
        long[] ids = callIds.clone();
        guest.complete(() -> deliverBatch(ids, batchJson));
    }

    @Override
    public boolean importsModules() {
        return false;
    }

    @Override
    public void completeModuleRead(long callId, boolean ok, String text) {
        Objects.requireNonNull(text, "text");
    }

    @Override
    public final void cancel() {
        guest.cancel();
    }

    @Override
    public final void close() {
        guest.close();
    }

    /** Binds a host value (a polyglot proxy) as a guest global. For host-call objects and tests in this package. */
    final void defineGlobal(String name, Object hostValue) {
        guest.exclusive(() -> {
            ensureContext();
            bindGlobal(name, hostValue);
            return null;
        });
    }

    // ------------------------------------------------------------------ on the guest thread

    /** Called by the guest's bridge functions: returns the call's id, or "Type\0message" when it is refused. */
    final Object startHostCall(String kind, String name, String inputJson) {
        return calls.start(kind, name, inputJson, hostCallErrorType());
    }

    /** Counts text the host sent into the running eval against its memory limit (as UTF-16, the upper bound). */
    final void countHostBytes(long chars) {
        Watchdog.Ticket t = guest.ticket();
        if (t != null) {
            t.hostBytes += 2 * chars;
        }
    }

    final void ensureContext() {
        if (context != null) {
            return;
        }
        try {
            Context c = contextBuilder().build();
            try {
                initialize(c);
                context = c;
            } catch (RuntimeException e) {
                forgetContext();
                c.close(true);
                throw e;
            }
        } finally {
            engines.noteContextBuilt();
        }
    }

    private void discardContext() {
        Context c = context;
        context = null;
        forgetContext();
        installedShape = "";
        randomSeeded = false;
        if (c != null) {
            try {
                c.close(true);
            } catch (IllegalStateException | PolyglotException e) {
                // Closed already, by the watchdog.
            }
        }
    }

    /** Puts the context under the watchdog with {@code heapAllowance} bytes; 0 for no memory limit. */
    final Watchdog.Ticket watch(long heapAllowance) {
        return guest.watch(context, heapAllowance);
    }

    final void unwatch(Watchdog.Ticket t) {
        guest.unwatch(t, this::discardContext);
    }

    /**
     * Runs a cell; a JVM error that escapes it (a stack overflow outside guest code, say) ends in an outcome and a
     * fresh context, unless it left the JVM itself unusable ({@link Engines#noteFailure}).
     */
    private EvalOutcome runCell(String code, HostBridge bridge) {
        long start = System.nanoTime();
        streamed.begin(bridge);
        try {
            return runCellChecked(code, bridge, start);
        } catch (Error e) {
            if (Engines.noteFailure(e)) {
                throw e;
            }
            calls.end();
            discardContext();
            if (Failures.root(e) instanceof OutOfMemoryError) {
                return outcome(EvalOutcome.Status.LIMIT, "OutOfMemory", Failures.HEAP_EXHAUSTED, "", true, start);
            }
            return outcome(EvalOutcome.Status.ERROR, e instanceof StackOverflowError ? "RangeError" : "InternalError",
                    "The sandbox failed while running the eval (" + Failures.describe(e) + ")." + GLOBALS_LOST,
                    "", true, start);
        } finally {
            streamed.end();
        }
    }

    private EvalOutcome runCellChecked(String code, HostBridge bridge, long start) {
        console.clear();
        guest.clearCompletions();
        calls.begin(bridge);
        beginEval();
        wallDeadline = start + options.maxWallTime().toNanos();
        SourceLimits.Violation tooBig = SourceLimits.check(code, language(), options.maxCodeBytes(),
                options.maxNesting());
        if (tooBig != null) {
            calls.end();
            return outcome(EvalOutcome.Status.ERROR, tooBig.type(), tooBig.message(), "", false, start);
        }
        C cell;
        CellCompiler.Budget budget = new CellCompiler.Budget(options.timeout(), options.interruptGrace(), !warmUp);
        try {
            ensureContext();
            installBridge(bridge);
            cell = compile(code, budget);
            if (budget.leftNanos <= 0) {
                throw new CellCompiler.OutOfTime();
            }
        } catch (CellSyntaxError e) {
            return outcome(EvalOutcome.Status.ERROR, "SyntaxError", e.getMessage(), "", false, start);
        } catch (CellCompiler.OutOfTime e) {
            calls.end();
            if (e.waiting) {
                return outcome(EvalOutcome.Status.TIMEOUT, "Timeout", "Execution exceeded the "
                        + GuestThread.seconds(options.timeout().toMillis()) + " timeout while the code waited for"
                        + " the code parser that all interpreters share, busy with another interpreter's code, so it"
                        + " did not run. Globals from earlier calls are kept. Run it again.", "", false, start);
            }
            return outcome(EvalOutcome.Status.TIMEOUT, "Timeout", "Execution exceeded the "
                    + GuestThread.seconds(options.timeout().toMillis()) + " timeout while the code ("
                    + SourceLimits.size(SourceLimits.utf8Length(code, Long.MAX_VALUE)) + ") was being parsed, so it"
                    + " did not run. Globals from earlier calls are kept. Split it into smaller cells.", "", false,
                    start);
        } catch (StackOverflowError e) {
            calls.end();
            discardContext();
            return outcome(EvalOutcome.Status.ERROR, "CodeTooDeep", "The code nests too deeply for the parser: the"
                    + " stack ran out while it was being parsed, so it did not run. Split long expressions into"
                    + " several statements and build deep structures in a loop." + GLOBALS_LOST, "", true, start);
        } catch (RuntimeException e) {
            calls.end();
            discardContext();
            if (Engines.noteFailure(e)) {
                throw e; // the JVM can run no guest code any more: every eval is refused from now on
            }
            GuestThread.Stop stop = GuestThread.notStarted(e);
            return outcome(stop.status(), stop.type(), stop.message(), "", stop.reset(), start);
        }
        if (guest.cancelRequested()) {
            return stopped(Watchdog.Reason.CANCELLED, null, start);
        }
        Watchdog.Ticket t = guest.watch(context, options.heapAllowanceBytes(), Duration.ofNanos(budget.leftNanos));
        try {
            applyRandomSeed(bridge);
            return run(cell, t, start);
        } catch (PolyglotException e) {
            return failure(e, t, start);
        } finally {
            calls.end();
            unwatch(t);
        }
    }

    /** Installs the globals of {@code b} when they differ from the ones installed; null leaves them as they are. */
    private void installBridge(HostBridge b) {
        if (b == null || (engines.access.shape(b).equals(installedShape) && hostCallsIntact())) {
            return;
        }
        installHostCalls(b);
        installedShape = engines.access.shape(b);
    }

    /**
     * Seeds the guest's random numbers when {@code b} carries a seed; otherwise a context a seeded cell used gets
     * the engine's random numbers back, and one that never was costs nothing. It runs under the cell's watchdog
     * ticket, as the model's earlier code may have reshaped what the seeding touches; an error the guest raises
     * while it seeds leaves the cell to run with the numbers it has, and the context as it is.
     */
    private void applyRandomSeed(HostBridge b) {
        Long seed = b == null ? null : b.randomSeed();
        if (seed == null && !randomSeeded) {
            return;
        }
        randomSeeded = seed != null;
        try {
            seedRandom(seed);
        } catch (PolyglotException e) {
            if (!e.isGuestException() || e.isCancelled() || e.isInterrupted() || e.isResourceExhausted()) {
                throw e;
            }
        }
    }

    /** How many characters of the result the guest renders: a little more than is kept, so the cut can be told. */
    final int renderBudget() {
        return Math.max(1000, options.maxResultChars()) * 4;
    }

    private EvalOutcome failure(PolyglotException e, Watchdog.Ticket t, long start) {
        Watchdog.Reason reason = t.reason;
        if (reason != null && (e.isCancelled() || e.isInterrupted() || t.forcedClose)) {
            return stopped(reason, t, start);
        }
        // Before the guest's own errors: GraalJS reports a heap that cannot hold an allocation (a typed array larger
        // than a worker's -Xmx) as a resource-exhausted guest exception with no value, which read as "Error: null".
        if (e.isResourceExhausted()) {
            t.forcedClose = true;
            return outcome(EvalOutcome.Status.LIMIT, "OutOfMemory", "Execution asked for more memory than the"
                    + " sandbox's heap holds and was stopped." + GLOBALS_LOST, "", true, start);
        }
        EvalOutcome raised = guestFailure(e, t, start);
        if (raised != null) {
            return raised;
        }
        EvalOutcome host = hostFailure(e, start);
        if (host != null) {
            return host;
        }
        t.forcedClose = true;
        if (Engines.noteFailure(e)) {
            throw e; // as above: refused, never an error text with a Java class name in it
        }
        return outcome(EvalOutcome.Status.ERROR, "InternalError", String.valueOf(e.getMessage()) + GLOBALS_LOST, "",
                true, start);
    }

    /** The outcome of an eval the watchdog stopped; {@code t} is null when it was cancelled before it started. */
    final EvalOutcome stopped(Watchdog.Reason reason, Watchdog.Ticket t, long start) {
        GuestThread.Stop stop = GuestThread.describeStop(reason, t, options);
        return outcome(stop.status(), stop.type(), stop.message(), "", stop.reset(), start);
    }

    final EvalOutcome ok(String value, boolean truncated, long start) {
        // Python's value comes as its repr(): its kind and plain form are read from that.
        PythonRepr.Plain plain = PythonRepr.fromPythonRepr(value, truncated);
        return ok(value, truncated, start, plain.kind(), plain.text());
    }

    /** A successful outcome whose guest said what kind of value it is (see {@link EvalOutcome#plainText()}). */
    final EvalOutcome ok(String value, boolean truncated, long start, EvalOutcome.ValueKind kind, String plainValue) {
        return engines.access.outcome(EvalOutcome.Status.OK, value, truncated, consoleText(), console.dropped(),
                null, null, null, false, System.nanoTime() - start, options.maxResultChars(), kind, plainValue);
    }

    final EvalOutcome outcome(EvalOutcome.Status status, String errorType, String errorMessage, String stack,
            boolean reset, long start) {
        return engines.access.outcome(status, null, false, consoleText(), console.dropped(), errorType,
                errorMessage, stack, reset, System.nanoTime() - start, options.maxResultChars());
    }

    // ------------------------------------------------------------------ snapshots

    private void requireSnapshots() {
        if (!options.snapshots()) {
            throw new IllegalStateException("snapshots are off for this interpreter; enable SandboxOptions.snapshots");
        }
    }

    private String takeSnapshot(long maxBytes) {
        requireSnapshots();
        ensureContext();
        Watchdog.Ticket t = watch(options.heapAllowanceBytes());
        try {
            return encodeGlobals(maxBytes > 0 ? maxBytes : -1);
        } catch (PolyglotException e) {
            if (t.reason != null) {
                throw engines.access.snapshotFailure("taking the snapshot was stopped: " + t.reason, false);
            }
            boolean tooLarge = String.valueOf(e.getMessage()).contains("snapshot exceeds maxBytes");
            throw engines.access.snapshotFailure(tooLarge ? "the snapshot is larger than " + maxBytes + " bytes"
                    : "the snapshot could not be taken: " + e.getMessage(), tooLarge);
        } finally {
            unwatch(t);
        }
    }

    private List<String> restoreSnapshot(String payload) {
        requireSnapshots();
        ensureContext();
        Watchdog.Ticket t = watch(restoreHeapAllowance());
        try {
            Value restored = decodeGlobals(payload);
            List<String> names = new ArrayList<>();
            for (long i = 0; i < restored.getArraySize(); i++) {
                names.add(restored.getArrayElement(i).asString());
            }
            return names;
        } catch (PolyglotException e) {
            // The guest validates before it changes anything, but a restore stopped half-way leaves a mixed state.
            t.forcedClose = t.forcedClose || t.reason != null;
            throw engines.access.snapshotFailure(t.reason != null
                    ? "restoring the snapshot was stopped: " + t.reason
                    : restoreError(String.valueOf(e.getMessage())), false);
        } finally {
            unwatch(t);
        }
    }

    /** Thrown by {@link #compile} when the model's code does not parse; its message is the model's SyntaxError. */
    static final class CellSyntaxError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CellSyntaxError(String message) {
            super(message, null, false, false);
        }
    }
}
