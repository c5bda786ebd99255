package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.SandboxBrokenException;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import io.github.langchaingraalvm.sandbox.text.SourceLimits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;

/**
 * The one platform thread that owns an interpreter's context, and the rules around it that every guest language
 * shares: one eval at a time, cancellation that reaches an eval still queued, the watchdog ticket of the running
 * work, and the queue through which host calls are settled on this thread.
 *
 * <p>A context is entered by this thread only. Callers hand it work and wait; an interrupted caller cancels the
 * work, then still waits, so the context is never left half-way through a task.
 */
public final class GuestThread {
    private static final Runnable STOP = () -> {};
    /** Queued to wake an eval that waits on host calls, so it notices a stop. */
    private static final Runnable WAKE = () -> {};
    /**
     * How long after a forced close an eval still waits for a guest that ignores it, before giving it up. Some
     * builtins run as long Java loops that never check for interrupts ({@code sum(range(10**18))} in GraalPy);
     * only their own end would let the close take effect. In this JVM 5 s: a guest given up keeps its core. A
     * worker process sets {@value #ABANDON_AFTER_PROPERTY} to 1000 before its first guest: its client kills it
     * once a guest is given up, which frees the core at once, so waiting longer only delays the eval's answer.
     */
    static final Duration ABANDON_AFTER = Duration.ofMillis(Long.getLong(GuestThread.ABANDON_AFTER_PROPERTY, 5000));
    /** The system property that sets {@link #ABANDON_AFTER} in milliseconds. */
    public static final String ABANDON_AFTER_PROPERTY = "langchain.graalvm.abandonAfterMillis";

    /**
     * JDK classes that every {@link Throwable} may need, initialized here, on an ordinary stack. The JVM initializes
     * a class on its first use, and a class whose initializer fails stays unusable for the life of the JVM: were
     * that first use the error of a guest's runaway recursion, at the bottom of its stack, the initializer would
     * fail of a {@link StackOverflowError}. {@code ThrowableTracer} is one such class: once a JFR recording starts,
     * every throwable's constructor calls it; after a failed initialization each construction throws
     * {@link NoClassDefFoundError}, whose own constructor calls it again, and the guest thread, the watchdog's
     * forced close and any other thread that creates an exception spin there without end (seen with a recording
     * started after the sandbox, then an overflow). Classes absent from this JDK are passed over.
     */
    static final List<String> INITIALIZED_FIRST = List.of(
            "java.lang.ExceptionInInitializerError",
            "java.lang.NoClassDefFoundError",
            "jdk.internal.event.ThrowableTracer",
            "jdk.internal.event.ExceptionThrownEvent",
            "jdk.internal.event.ErrorThrownEvent");

    /**
     * The engine's classes a guest stack overflow can be the first to use: building the guest's error walks the
     * stack, and the frame classes' initialisers look methods up by reflection, which needs stack of its own. One
     * that fails at the bottom of an overflowing stack stays broken for the life of the JVM, and every later eval
     * of every interpreter failed with it. Initialised when the first guest thread is made, with stack to spare.
     * Truffle's flight-recorder events are among them: the runtime creates one for every compiled frame it
     * deoptimises, with or without a recording, and the first deoptimisation can come while a runaway recursion's
     * error unwinds (seen: "Could not initialize class ...DeoptimizationEventImpl", and the interpreter reset).
     */
    static final List<String> ENGINE_INITIALIZED_FIRST = List.of(
            "com.oracle.truffle.runtime.OptimizedFrameInstance",
            "com.oracle.truffle.runtime.OptimizedOSRFrameInstance",
            "com.oracle.truffle.runtime.OptimizedTruffleRuntime$StackTraceHelper",
            "com.oracle.truffle.api.TruffleStackTrace",
            "com.oracle.truffle.api.TruffleStackTraceElement",
            "com.oracle.truffle.api.TruffleStackTrace$LazyStackTrace",
            "com.oracle.truffle.runtime.jfr.impl.DeoptimizationEventImpl",
            "com.oracle.truffle.runtime.jfr.impl.InvalidationEventImpl",
            "com.oracle.truffle.runtime.jfr.impl.CompilationEventImpl",
            "com.oracle.truffle.runtime.jfr.impl.CompilationFailureEventImpl",
            "com.oracle.truffle.runtime.jfr.impl.CompilationStatisticsEventImpl",
            "com.oracle.truffle.runtime.jfr.impl.RootFunctionEventImpl");

    static {
        for (String name : INITIALIZED_FIRST) {
            try {
                Class.forName(name, true, null);
            } catch (ClassNotFoundException | LinkageError e) {
                // Not in this JDK (ThrowableTracer is JDK 22 and later), or not ours to initialize.
            }
        }
        ClassLoader engineLoader = org.graalvm.polyglot.Engine.class.getClassLoader();
        for (String name : ENGINE_INITIALIZED_FIRST) {
            try {
                Class.forName(name, true, engineLoader);
            } catch (ClassNotFoundException | LinkageError e) {
                // Not in this build of the engine (the fallback runtime has no optimized frames).
            }
        }
    }

    /** Whether an eval called on the current thread gave its guest up since {@link #takeAbandoned()} last asked. */
    private static final ThreadLocal<Boolean> ABANDONED = new ThreadLocal<>();

    private final Watchdog watchdog;
    private final SandboxAccess access;
    private final SandboxOptions options;
    private final Runnable onExit;
    private final Thread thread;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final BlockingQueue<Runnable> completions = new LinkedBlockingQueue<>();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final Object cancelLock = new Object();
    private volatile boolean closed;
    private volatile boolean cancelRequested;
    private volatile Watchdog.Ticket ticket;
    private Watchdog.Ticket lastTicket; // the running eval's latest, on this thread
    /** A collection announced as the running eval ended, started once the task has ended; on this thread. */
    private CompletableFuture<Void> sweepDue;

    /**
     * Starts the thread.
     *
     * @param access makes the outcomes and exceptions of the API package
     * @param onExit runs on the thread when it ends (closes the context)
     */
    GuestThread(String name, SandboxOptions options, long stackBytes, Watchdog watchdog, SandboxAccess access,
            Runnable onExit) {
        this.options = options;
        this.watchdog = watchdog;
        this.access = access;
        this.onExit = onExit;
        this.thread = new Thread(null, this::loop, name, stackBytes);
        thread.setDaemon(true);
        thread.start();
    }

    boolean isBusy() {
        return busy.get();
    }

    /** Whether the interpreter was closed, by its owner or because a guest that ignored its stop was given up. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Runs an eval on this thread and waits for its outcome; another eval already running gets a
     * {@code ConcurrentEval} error at once. A guest that still runs {@link #ABANDON_AFTER} after the watchdog closed
     * its context is given up: the eval returns the stop's outcome, and the interpreter is closed, its thread left
     * to end (and close its context) whenever the guest does.
     */
    EvalOutcome eval(Supplier<EvalOutcome> cell) {
        requireCaller("eval cannot be called from the interpreter's own thread");
        synchronized (cancelLock) {
            if (!busy.compareAndSet(false, true)) {
                return access.outcome(EvalOutcome.Status.ERROR, null, false, "", 0, "ConcurrentEval",
                        "Another eval is already running in this interpreter; wait for it to finish.", "", false, 0,
                        options.maxResultChars());
            }
            cancelRequested = false;
        }
        long start = System.nanoTime();
        try {
            if (Engines.unusableReason() != null) {
                throw access.broken(Engines.unusableReason());
            }
            String unwatched = watchdog.notRunning();
            if (unwatched != null) {
                return access.outcome(EvalOutcome.Status.ERROR, null, false, "", 0, "InternalError",
                        "The eval did not run: " + unwatched + ". Globals from earlier calls are kept.", "", false,
                        System.nanoTime() - start, options.maxResultChars());
            }
            return await(submit(() -> finalOutcome(cell)), t -> abandon(t, start));
        } catch (SandboxBrokenException e) {
            throw e;
        } catch (RuntimeException | Error e) {
            // Every failure of the cell is an outcome already: this one is the sandbox's own.
            if (Engines.noteFailure(e)) {
                throw access.broken(Engines.unusableReason());
            }
            if (Failures.root(e) instanceof OutOfMemoryError) {
                return access.outcome(EvalOutcome.Status.LIMIT, null, false, "", 0, "OutOfMemory",
                        Failures.HEAP_EXHAUSTED, "", true, System.nanoTime() - start, options.maxResultChars());
            }
            return access.outcome(EvalOutcome.Status.ERROR, null, false, "", 0, "InternalError",
                    "The sandbox failed while running the eval (" + Failures.describe(e) + ")."
                            + Failures.GLOBALS_LOST, "", true, System.nanoTime() - start,
                    options.maxResultChars());
        } finally {
            synchronized (cancelLock) {
                busy.set(false);
            }
        }
    }

    /**
     * Runs a cell on this thread. A stop can escalate to a forced close after the cell decided its outcome (the
     * guest left the context just as the grace period ran out): the context and the globals are then gone, and the
     * outcome must say so.
     */
    private EvalOutcome finalOutcome(Supplier<EvalOutcome> cell) {
        lastTicket = null;
        EvalOutcome outcome = cell.get();
        Watchdog.Ticket t = lastTicket;
        if (t == null || !t.forcedClose || t.reason == null || outcome.stateReset()) {
            return outcome;
        }
        Stop stop = describeStop(t.reason, t, options);
        return access.outcome(stop.status(), null, false, outcome.stdout(), outcome.stdoutDropped(),
                stop.type(), stop.message(), "", true, outcome.durationNanos(), options.maxResultChars());
    }

    /** Runs other work (a snapshot, a restore) on this thread; refused while an eval runs. */
    <T> T exclusive(Supplier<T> action) {
        requireCaller("cannot be called from the interpreter's own thread");
        if (!busy.compareAndSet(false, true)) {
            throw new IllegalStateException("an eval is running in this interpreter");
        }
        try {
            return onThread(action);
        } finally {
            busy.set(false);
        }
    }

    /**
     * Whether an eval called on the current thread gave up a guest stuck in a builtin since the last call: that
     * guest's thread still runs somewhere in this JVM, holding a core. Clears the answer. A worker reports it so its
     * client kills the process.
     */
    public static boolean takeAbandoned() {
        boolean abandoned = ABANDONED.get() != null;
        ABANDONED.remove();
        return abandoned;
    }

    /** Whether the running eval was cancelled before it could start. Read on this thread. */
    boolean cancelRequested() {
        return cancelRequested;
    }

    /** Puts {@code context} under the watchdog with {@code heapAllowance} bytes; 0 for no memory limit. */
    Watchdog.Ticket watch(Context context, long heapAllowance) {
        return watch(context, heapAllowance, options.timeout());
    }

    /** As {@link #watch(Context, long)}, with {@code timeout} of guest time left (the cell's preparation took the rest). */
    Watchdog.Ticket watch(Context context, long heapAllowance, Duration timeout) {
        Watchdog.Ticket t = watchdog.watch(context, thread.threadId(), heapAllowance, timeout,
                options.interruptGrace());
        ticket = t;
        lastTicket = t;
        if (cancelRequested) {
            watchdog.stop(t, Watchdog.Reason.CANCELLED);
        }
        return t;
    }

    /** Ends the watch; {@code onForcedClose} runs when the watchdog had to close the context. */
    void unwatch(Watchdog.Ticket t, Runnable onForcedClose) {
        ticket = null;
        if (watchdog.release(t, onForcedClose) && sweepDue == null) {
            sweepDue = watchdog.sweepDue();  // announced now, before the outcome reaches the caller
        }
    }

    /** The running work's ticket, or null. */
    Watchdog.Ticket ticket() {
        return ticket;
    }

    /** Queues a task that settles host calls; thread-safe and non-blocking. */
    void complete(Runnable completion) {
        completions.add(completion);
    }

    /** Drops completions left by an earlier eval. Called on this thread. */
    void clearCompletions() {
        completions.clear();
    }

    boolean hasCompletions() {
        return !completions.isEmpty();
    }

    /**
     * Waits for the next completion with the watchdog's clock stopped, until {@code wallDeadlineNanos}. Returns
     * null when the deadline passed first; a wake-up after a stop returns a no-op, so the caller sees the stop.
     */
    Runnable nextCompletion(long wallDeadlineNanos) throws InterruptedException {
        Watchdog.Ticket t = ticket;
        t.pause();
        try {
            long wait = wallDeadlineNanos - System.nanoTime();
            return wait > 0 ? completions.poll(wait, TimeUnit.NANOSECONDS) : completions.poll();
        } finally {
            t.resume();
        }
    }

    /** Stops the running eval, if any, and wakes it if it waits on host calls. Returns at once. */
    void cancel() {
        synchronized (cancelLock) {
            if (busy.get()) {
                // The eval may still be queued for this thread: it is stopped as soon as it starts.
                cancelRequested = true;
            }
        }
        Watchdog.Ticket t = ticket;
        if (t != null) {
            watchdog.stop(t, Watchdog.Reason.CANCELLED);
        }
        completions.add(WAKE);
    }

    /** Stops any running work and ends the thread, which closes the context. Idempotent. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        Watchdog.Ticket t = ticket;
        if (t != null) {
            watchdog.stop(t, Watchdog.Reason.CANCELLED);
        }
        completions.add(WAKE);
        tasks.add(STOP);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the model reads when the watchdog stopped an eval: its status, error type and message. */
    record Stop(EvalOutcome.Status status, String type, String message, boolean reset) {
    }

    /** Describes a stop; {@code t} is null when the eval was cancelled before it started. */
    static Stop describeStop(Watchdog.Reason reason, Watchdog.Ticket t, SandboxOptions options) {
        boolean reset = t != null && t.forcedClose;
        String lost = " The interpreter was restarted: all globals from earlier calls are gone.";
        return switch (reason) {
            case TIMEOUT -> new Stop(EvalOutcome.Status.TIMEOUT, "Timeout",
                    "Execution exceeded the " + seconds(options.timeout().toMillis()) + " timeout and was stopped."
                            + (reset ? " It did not stop when interrupted." + lost
                                    : " Globals from earlier calls are kept."), reset);
            case MEMORY -> new Stop(EvalOutcome.Status.LIMIT, "OutOfMemory",
                    "Execution kept more than the " + SourceLimits.mib(options.memoryLimitBytes()) + " memory limit (about "
                            + SourceLimits.mib(Math.max(t == null ? 0 : t.retainedEstimate, options.heapAllowanceBytes()))
                            + " of JVM heap) and was stopped." + lost, true);
            case CANCELLED -> new Stop(EvalOutcome.Status.ERROR, "Cancelled",
                    "The eval was cancelled by the host." + (reset ? lost : ""), reset);
        };
    }

    /**
     * What the model reads when an eval could not even start: building the context, or preparing the cell, failed.
     * It happens when the JVM heap is exhausted (an earlier eval's builtin that ignored its stop, or other work in
     * the process filled it); the context is discarded, so the next eval starts afresh.
     */
    static Stop notStarted(RuntimeException e) {
        boolean heap = e instanceof PolyglotException p && p.isResourceExhausted()
                || String.valueOf(e.getMessage()).contains("Java heap space");
        String lost = " The interpreter was restarted: all globals from earlier calls are gone.";
        return heap
                ? new Stop(EvalOutcome.Status.LIMIT, "OutOfMemory", "The JVM heap was exhausted before the eval could"
                        + " start, so it did not run. Try again; keep less data." + lost, true)
                : new Stop(EvalOutcome.Status.ERROR, "InternalError", "The sandbox could not start the eval: "
                        + e.getMessage() + lost, true);
    }

    /** What the model reads when an eval outlived {@link SandboxOptions#maxWallTime()} waiting on the host. */
    static String wallTimeMessage(SandboxOptions options, int running) {
        return "The eval ran for more than " + seconds(options.maxWallTime().toMillis()) + " of wall-clock time,"
                + " waiting on tools or subagents, and was stopped"
                + (running > 0 ? " (" + running + " host call" + (running == 1 ? " was" : "s were") + " still running)"
                        : "")
                + ".";
    }

    /** "5 s", "0.5 s". */
    static String seconds(long millis) {
        return millis % 1000 == 0 ? (millis / 1000) + " s" : (millis / 1000.0) + " s";
    }

    private void requireCaller(String ownThreadMessage) {
        if (closed) {
            throw new IllegalStateException("the interpreter is closed");
        }
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException(ownThreadMessage);
        }
    }

    private <T> T onThread(Supplier<T> action) {
        return await(submit(action), null);
    }

    private <T> CompletableFuture<T> submit(Supplier<T> action) {
        CompletableFuture<T> done = new CompletableFuture<>();
        tasks.add(() -> {
            try {
                done.complete(action.get());
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        return done;
    }

    /**
     * Waits for {@code done}. With {@code onStuck}, a guest that ignores a forced close for {@link #ABANDON_AFTER}
     * is given up and {@code onStuck}'s value returned instead.
     */
    private <T> T await(CompletableFuture<T> done, Function<Watchdog.Ticket, T> onStuck) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (onStuck == null) {
                        return done.get();
                    }
                    return done.get(100, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    Watchdog.Ticket t = ticket;
                    if (t != null && t.reason != null && t.forcedClose
                            && System.nanoTime() - t.stoppedAt > t.grace.toNanos() + ABANDON_AFTER.toNanos()) {
                        return onStuck.apply(t);
                    }
                } catch (InterruptedException e) {
                    // The caller gave up: stop the guest, then still wait so the context is left consistent.
                    interrupted = true;
                    cancel();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IllegalStateException("the interpreter failed", e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Gives up a guest stuck in a builtin that ignores even a forced close: closes this interpreter without
     * waiting, so its thread ends (and closes its context) if the builtin ever returns. The stuck code keeps its
     * CPU and memory until then.
     */
    private EvalOutcome abandon(Watchdog.Ticket t, long start) {
        closed = true;
        ABANDONED.set(Boolean.TRUE);
        ticket = null;
        watchdog.forget(t);
        tasks.add(STOP);
        Stop stop = describeStop(t.reason, t, options);
        return access.outcome(stop.status(), null, false, "", 0, stop.type(), stop.message()
                + " The code was stuck in a builtin that does not check for interrupts; it was left to finish in the"
                + " background.", "", true, System.nanoTime() - start, options.maxResultChars());
    }

    private void loop() {
        try {
            while (true) {
                Runnable task = tasks.take();
                if (task == STOP) {
                    break;
                }
                task.run();
                if (sweepDue != null) {
                    // Here, not in unwatch: the eval's frames, and whatever they still held, are gone.
                    watchdog.sweep(sweepDue);
                    sweepDue = null;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            onExit.run();
        }
    }
}
