package io.github.langchaingraalvm.sandbox.guest;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;

/**
 * One daemon platform thread that enforces the time and memory limits of every running eval.
 *
 * <p>Time: at the deadline it calls {@link Context#interrupt(Duration)}, which keeps the guest's globals; if the
 * guest does not stop within the grace period (a loop in a {@code finally} block, say), it closes the context by
 * force. Memory: it samples the bytes the eval's thread has allocated; once that passes the limit it compares the
 * heap in use after the latest garbage collection with the heap in use when the eval started, and stops the eval
 * if the growth passes the limit too. An eval no collection has measured yet waits for the young generation's own
 * collection, for at most one young generation's worth of allocation past the limit. A suspicion, or an eval still
 * unmeasured after that, is settled with one explicit full collection per limit's worth of allocation, so
 * short-lived garbage never counts.
 *
 * <p>The first full collection of an eval compares the heap with the heap in use when the eval started, garbage
 * included, not with the figure after the last collection: whatever other threads built since that collection (a
 * context created just before, another agent's live data) is then never blamed on this eval. Later collections
 * add the growth since that first one, so garbage lying in the heap at the start cannot hide a guest that keeps
 * allocating: such a guest is stopped by about twice the allowance at most. A heap that is close to full stops an
 * eval on the plain figure.
 *
 * <p>Nothing a guest does may end the watchdog's thread: a full heap (an {@link OutOfMemoryError} where it
 * allocates, or where it hands a stop to the stopper threads) frees a reserve kept for that moment and the next tick
 * tries again. Should the thread end all the same, the next eval starts a new one, and refuses to run when it cannot
 * ({@link #notRunning()}): no eval ever runs without its limits.
 */
public final class Watchdog {
    /** Why an eval was stopped. */
    enum Reason {
        TIMEOUT,
        MEMORY,
        CANCELLED
    }

    /** One running eval under watch. */
    static final class Ticket {
        /** The context watched; dropped when the watch ends, so that a closed context's objects can be collected. */
        volatile Context context;
        final long threadId;
        final long memoryLimit;
        final Duration grace;
        final long allocatedAtStart;
        /** Heap in use when the eval started, garbage included: no live data built before the eval is blamed on it. */
        final long heapAtStart;
        /** Heap in use outside the young generation when the eval started: large arrays are allocated there. */
        long oldAtStart;
        /** Heap after the last collection before the eval started: the plain figure, used when the heap is nearly full. */
        final long heapAfterGcAtStart;
        volatile long deadlineNanos;
        volatile long pausedSince;
        volatile Reason reason;
        volatile long stoppedAt;
        /** Completes when the stop has finished acting, so no late interrupt can reach the next eval. */
        final CompletableFuture<Void> stopDone = new CompletableFuture<>();
        volatile boolean forcedClose;
        volatile long retainedEstimate;
        final long collectionsAtStart;
        volatile long measuredAtAllocated = -1;
        /**
         * Bytes the host handed to the guest during the eval (host-call results, imported modules): built on other
         * threads, so the guest thread's allocation count misses them. Written on the guest thread only.
         */
        volatile long hostBytes;
        /** {@link #hostBytes} when the latest collection was seen: what came in since is not in its figure yet. */
        volatile long hostBytesAtCollection;
        /** Whether a measurement found the eval over its limit (see {@link #overMemory}); guarded by the ticket. */
        boolean overLimit;
        /** Heap after this eval's first full collection, or -1; later measurements count growth from it. */
        long anchorHeap = -1;
        /** What the guest was found to keep at that first full collection. */
        long keptAtAnchor;

        Ticket(Context context, long threadId, long memoryLimit, Duration timeout, Duration grace,
                long allocatedAtStart, long heapAtStart, long heapAfterGcAtStart, long collectionsAtStart) {
            this.context = context;
            this.threadId = threadId;
            this.memoryLimit = memoryLimit;
            this.grace = grace;
            this.allocatedAtStart = allocatedAtStart;
            this.heapAtStart = heapAtStart;
            this.heapAfterGcAtStart = heapAfterGcAtStart;
            this.collectionsAtStart = collectionsAtStart;
            this.deadlineNanos = System.nanoTime() + timeout.toNanos();
        }

        /** Stops the guest clock, while the guest waits on the host. */
        void pause() {
            pausedSince = System.nanoTime();
        }

        /** Restarts the guest clock, moving the deadline by the time spent paused. */
        void resume() {
            long since = pausedSince;
            if (since != 0) {
                deadlineNanos += System.nanoTime() - since;
                pausedSince = 0;
            }
        }
    }

    private static final long TICK_NANOS = Duration.ofMillis(5).toNanos();
    private static final long STUCK_NANOS = Duration.ofSeconds(1).toNanos();
    private static final int RESERVE_BYTES = 1 << 20;
    private static final long SWEEP_WAIT_SECONDS = 10;

    private final Set<Ticket> active = ConcurrentHashMap.newKeySet();
    private final ExecutorService stopper = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "graalvm-sandbox-stopper");
        t.setDaemon(true);
        return t;
    });
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final long maxHeap = Runtime.getRuntime().maxMemory();
    /** The pools objects are allocated in first (G1 Eden Space, PS Eden Space, Eden Space). */
    private final List<MemoryPoolMXBean> youngPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.getName().contains("Eden"))
            .toList();
    private final AtomicLong heapAfterGc = new AtomicLong();
    /** Heap outside the young generation after the latest collection: what grows there since came in directly. */
    private final AtomicLong outsideYoungAfterGc = new AtomicLong();
    private final AtomicLong collections = new AtomicLong();
    private volatile Thread thread;
    /** Freed when the heap is full, so the watchdog's own next steps can allocate; taken again once they can. */
    private volatile byte[] reserve = new byte[RESERVE_BYTES];
    /** The collections due or running (see {@link #sweepDue()}); each leaves the set when it is done. */
    private final Set<CompletableFuture<Void>> sweeps = ConcurrentHashMap.newKeySet();
    /** The last failure the watchdog's thread met, for the message of an eval it cannot watch. */
    private volatile Throwable lastFailure;

    public Watchdog() {
        heapAfterGc.set(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        outsideYoungAfterGc.set(heapAfterGc.get() - youngInUse());
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((n, h) -> {
                    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                        return;
                    }
                    var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                    long used = 0;
                    long young = 0;
                    for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                        if (!e.getKey().contains("Metaspace") && !e.getKey().contains("CodeHeap")
                                && !e.getKey().contains("Compressed Class")) {
                            used += e.getValue().getUsed();
                            young += e.getKey().contains("Eden") ? e.getValue().getUsed() : 0;
                        }
                    }
                    outsideYoungAfterGc.set(used - young);
                    heapAfterGc.set(used);
                    collections.incrementAndGet();
                    for (Ticket t : active) {
                        t.hostBytesAtCollection = t.hostBytes;
                    }
                }, null, null);
            }
        }
        thread = startThread();
    }

    private Thread startThread() {
        Thread t = new Thread(this::run, "graalvm-sandbox-watchdog");
        t.setDaemon(true);
        t.setPriority(Thread.MAX_PRIORITY);
        t.start();
        return t;
    }

    /**
     * Null while the watchdog's thread runs; otherwise (it ended, and a new one could not be started) why no eval
     * may run now, in plain words.
     */
    synchronized String notRunning() {
        if (thread.isAlive()) {
            return null;
        }
        try {
            thread = startThread();
            return null;
        } catch (Throwable e) {
            Throwable cause = lastFailure != null ? lastFailure : e;
            return "the sandbox's watchdog thread, which enforces every eval's time and memory limits, has stopped ("
                    + Failures.describe(cause) + ") and could not be restarted";
        }
    }

    long allocatedBytes(long threadId) {
        return threads.getThreadAllocatedBytes(threadId);
    }

    Ticket watch(Context context, long threadId, long memoryLimit, Duration timeout, Duration grace) {
        boolean measure = memoryLimit > 0;
        if (measure) {
            awaitSweep();
        }
        Ticket t = new Ticket(context, threadId, memoryLimit, timeout, grace,
                measure ? allocatedBytes(threadId) : 0, measure ? heapInUse() : 0, heapAfterGc.get(),
                collections.get());
        t.oldAtStart = measure ? heapInUse() - youngInUse() : 0;
        active.add(t);
        LockSupport.unpark(thread);
        return t;
    }

    /** Stops watching {@code ticket} without waiting for its stop to finish: its guest is being given up. */
    void forget(Ticket ticket) {
        active.remove(ticket);
    }

    /**
     * Ends the watch of an eval. Its end is one more measurement: a cell that kept more than its limit in one step
     * between two ticks (one large array, say) is stopped as if a tick had seen it, its context closed by force.
     */
    void release(Ticket ticket) {
        if (release(ticket, () -> { })) {
            sweepLater();
        }
    }

    /**
     * As {@link #release(Ticket)}, for an eval on a guest thread: {@code onForcedClose} runs when the context was
     * closed by force, and the result says whether the heap needs the collection of {@link #sweepDue()}, which
     * the guest thread starts once the eval's frames are gone. Until then they can still hold what a stopped eval
     * built (a caught exception that refers to its data, in a slot the interpreter keeps alive): a collection that
     * ran first found a gigabyte the model had been refused still held, and the next eval's measurements started
     * from a heap that held it as garbage, which hid as much kept by that eval.
     */
    boolean release(Ticket ticket, Runnable onForcedClose) {
        active.remove(ticket);
        if (ticket.reason == null && ticket.memoryLimit > 0 && overMemory(ticket)) {
            ticket.stoppedAt = System.nanoTime();
            ticket.reason = Reason.MEMORY;
            closeAndSettle(ticket);
        }
        if (ticket.reason != null) {
            try {
                ticket.stopDone.get(ticket.grace.toNanos() + STUCK_NANOS * 2, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // The stopper is stuck on a context that is being closed: nothing more to wait for.
            }
        }
        if (ticket.forcedClose) {
            onForcedClose.run();
        }
        if (ticket.reason == null || ticket.stopDone.isDone()) {
            // A ticket is kept a while after its eval (the outcome reads it): it must not keep its context's
            // objects reachable when the collection runs.
            ticket.context = null;
        }
        return ticket.memoryLimit > 0 && (ticket.reason == Reason.MEMORY
                || allocatedBytes(ticket.threadId) - ticket.allocatedAtStart + ticket.hostBytes >= ticket.memoryLimit);
    }

    /**
     * Collects the heap in the background after an eval that may have left more garbage than a limit: its own
     * temporaries, or a context closed for keeping too much. An eval's measurements start from the heap in use
     * when it starts, garbage included (so live data other threads build is never blamed on it); garbage of that
     * size lying there could hide as much kept by the next eval, so every eval under a memory limit that starts
     * later waits for this collection first. Evals that allocate less than their limit never cause one.
     */
    void sweepLater() {
        sweep(sweepDue());
    }

    /**
     * Announces a collection that {@link #sweep} starts later: every eval under a memory limit that starts from now
     * on waits for it, in any interpreter. A guest thread announces it as its eval ends, before the outcome reaches
     * the caller, and starts it once the eval's frames are gone: a caller that went straight on to an eval in
     * another interpreter once measured that eval from a heap still holding the last one's gigabyte as garbage,
     * which hid a gigabyte it kept. A collection never started is given up after {@link #SWEEP_WAIT_SECONDS}.
     */
    CompletableFuture<Void> sweepDue() {
        CompletableFuture<Void> due = new CompletableFuture<>();
        sweeps.add(due);
        due.completeOnTimeout(null, SWEEP_WAIT_SECONDS, TimeUnit.SECONDS).whenComplete((r, e) -> sweeps.remove(due));
        return due;
    }

    /** Runs the collection {@code due} announced, on a stopper thread, and completes it. */
    void sweep(CompletableFuture<Void> due) {
        try {
            stopper.execute(() -> {
                try {
                    System.gc();
                    long used = heapInUse();
                    heapAfterGc.set(used);
                    outsideYoungAfterGc.set(used - youngInUse());
                } finally {
                    due.complete(null);
                }
            });
        } catch (Throwable e) {
            due.complete(null);
        }
    }

    /** Waits for every collection due or running, for {@link #SWEEP_WAIT_SECONDS} at most. */
    private void awaitSweep() {
        try {
            CompletableFuture.allOf(sweeps.toArray(CompletableFuture[]::new)).get(SWEEP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // A collection that takes this long is not waited for: the eval is measured as it would be without.
        }
    }

    /** Stops a running eval from outside, for the given reason. Returns at once. */
    void stop(Ticket ticket, Reason reason) {
        if (ticket.reason != null || !active.contains(ticket)) {
            return;
        }
        ticket.stoppedAt = System.nanoTime();
        ticket.reason = reason;
        try {
            stopper.execute(() -> {
                try {
                    escalate(ticket);
                } finally {
                    ticket.stopDone.complete(null);
                }
            });
        } catch (Throwable e) {
            // No stopper could take it (a full heap, no thread to be had): the watchdog's next tick closes the
            // context by force instead of waiting for the grace period.
            ticket.stoppedAt = System.nanoTime() - ticket.grace.toNanos() - STUCK_NANOS;
        }
    }

    private void escalate(Ticket ticket) {
        try {
            if (ticket.reason == Reason.MEMORY) {
                // The guest already holds more than it may: do not let it run its finally blocks first.
                forceClose(ticket);
                return;
            }
            Context context = ticket.context;
            if (context != null) {
                context.interrupt(ticket.grace);
            }
        } catch (TimeoutException e) {
            forceClose(ticket);
        } catch (IllegalStateException | PolyglotException e) {
            // The context finished or closed on its own while we were stopping it.
        }
    }

    private static void forceClose(Ticket ticket) {
        if (ticket.forcedClose) {
            return;
        }
        ticket.forcedClose = true;
        Context context = ticket.context;
        if (context == null) {
            return; // the watch ended, and its owner has closed the context
        }
        try {
            context.close(true);
        } catch (IllegalStateException | PolyglotException e) {
            // Already closed: nothing left to stop.
        }
    }

    private void run() {
        while (true) {
            try {
                tick();
                if (reserve == null) {
                    reserve = new byte[RESERVE_BYTES];
                }
            } catch (Throwable e) {
                // A full heap, most likely: let go of the reserve so the next tick can act, and keep watching.
                reserve = null;
                lastFailure = e;
                LockSupport.parkNanos(this, TICK_NANOS);
            }
        }
    }

    private void tick() {
        if (active.isEmpty()) {
            LockSupport.parkNanos(this, Duration.ofMillis(100).toNanos());
            return;
        }
        long now = System.nanoTime();
        Throwable failed = null;
        for (Ticket t : active) {
            try {
                check(t, now);
            } catch (Throwable e) {
                // One eval's failure never keeps the others from being watched.
                failed = e;
            }
        }
        if (failed instanceof Error error) {
            throw error;
        } else if (failed != null) {
            throw new IllegalStateException(failed);
        }
        LockSupport.parkNanos(this, TICK_NANOS);
    }

    private void check(Ticket t, long now) {
        if (t.reason != null) {
            // A stop that did not take (an interrupt that arrived before the guest started, say) ends in a forced
            // close once the grace period is well past.
            if (!t.forcedClose && now - t.stoppedAt > t.grace.toNanos() + STUCK_NANOS) {
                forceCloseLater(t);
            }
            return;
        }
        if (t.pausedSince == 0 && now - t.deadlineNanos > 0) {
            stop(t, Reason.TIMEOUT);
        } else if (t.memoryLimit > 0 && overMemory(t)) {
            stop(t, Reason.MEMORY);
        }
    }

    /** Closes a stopped eval's context by force on a stopper thread, or here when none can be had. */
    private void forceCloseLater(Ticket t) {
        try {
            stopper.execute(() -> closeAndSettle(t));
        } catch (Throwable e) {
            closeAndSettle(t);
        }
    }

    private static void closeAndSettle(Ticket t) {
        try {
            forceClose(t);
        } finally {
            t.stopDone.complete(null);
        }
    }

    private boolean overMemory(Ticket t) {
        // The watchdog's tick and the eval's release can measure one ticket at once; each must see the other's
        // verdict, not its half-done measurement (a mark of "measured at this allocation", say, while the full
        // collection that decides still runs), and a verdict of "over" holds until the ticket ends.
        synchronized (t) {
            if (!t.overLimit) {
                t.overLimit = measureOverMemory(t);
            }
            return t.overLimit;
        }
    }

    private boolean measureOverMemory(Ticket t) {
        long allocated = allocatedBytes(t.threadId) - t.allocatedAtStart + t.hostBytes;
        if (allocated < t.memoryLimit) {
            return false;
        }
        // A collection since the eval started measured the heap, and it is within the allowance. Before our own
        // first full collection the figure is taken against the heap after the last collection before the eval:
        // the lower of the two starting figures, so a guest that keeps what it allocates is never waved through.
        long sinceCollection = t.anchorHeap < 0 ? heapAfterGc.get() - t.heapAfterGcAtStart
                : t.keptAtAnchor + heapAfterGc.get() - t.anchorHeap;
        // What the host handed in since that collection is not in its figure: count it as kept until one says.
        sinceCollection += t.hostBytes - t.hostBytesAtCollection;
        boolean collectedSinceStart = collections.get() != t.collectionsAtStart;
        // Large arrays are allocated outside the young generation, and the collection that makes room for one
        // runs before it is there: growth outside the young generation since that collection is not in its figure.
        if (collectedSinceStart && Math.min(sinceCollection, allocated) < t.memoryLimit
                && heapInUse() - youngInUse() - outsideYoungAfterGc.get() < t.memoryLimit) {
            return false;
        }
        // No collection has measured this eval yet. Its allocations fill the young generation, whose next
        // collection measures what it keeps at no extra cost: wait for it while the guest has allocated less than
        // the allowance plus the young generation's size, and the heap has room. A forced full collection here
        // would cost a walk of the whole heap for every allowance's worth of garbage, which is most of the time
        // of allocation-heavy cells. Allocations that bypass the young generation (large arrays go straight to
        // the old one) are seen as growth outside it, and measured as soon as that passes the allowance. So is
        // what the host handed in (tool results, files, modules), which was built on other threads and which the
        // guest may well keep.
        if (!collectedSinceStart && allocated < t.memoryLimit + youngRoom()) {
            long used = heapInUse();
            if (used - youngInUse() - t.oldAtStart + t.hostBytes < t.memoryLimit && used < maxHeap / 10 * 9) {
                return false;
            }
        }
        // Over by the last collection (whose old generation may still hold garbage), or not measured at all:
        // measure with a full collection, at most once per allowance's worth of allocation.
        if (t.measuredAtAllocated >= 0 && allocated - t.measuredAtAllocated < t.memoryLimit) {
            return false;
        }
        t.measuredAtAllocated = allocated;
        System.gc();
        // Read the heap now, not from the collection's notification: that one arrives later, on another thread,
        // and until it does the figure is the previous collection's, which may be a young one with old garbage.
        long used = heapInUse();
        heapAfterGc.set(used);
        outsideYoungAfterGc.set(used - youngInUse());
        t.hostBytesAtCollection = t.hostBytes;
        long kept;
        if (t.anchorHeap < 0) {
            // The first full collection of this eval: growth from the heap in use at the start, garbage included,
            // so live data other threads built before the eval is not counted. It anchors later measurements.
            kept = Math.max(0, guestGrowth(used, t.heapAtStart, allocated));
            t.anchorHeap = used;
            t.keptAtAnchor = kept;
        } else {
            // Later ones: what the first one found, plus the growth since, which garbage at the start cannot hide.
            kept = Math.min(t.keptAtAnchor + used - t.anchorHeap, allocated);
        }
        t.retainedEstimate = Math.max(kept, 0);
        if (kept >= t.memoryLimit) {
            return true;
        }
        // When the heap is close to full, the plain figure (growth since the last collection before the eval)
        // decides, so the JVM itself stays safe.
        long plain = guestGrowth(used, t.heapAfterGcAtStart, allocated);
        if (used > maxHeap / 10 * 9 && plain >= t.memoryLimit) {
            t.retainedEstimate = plain;
            return true;
        }
        return false;
    }

    /**
     * How much the guest can allocate before the young generation is collected: its current size, capped at a
     * quarter of the heap, so that the overshoot before the first measurement stays bounded.
     */
    private long youngRoom() {
        long young = 0;
        for (MemoryPoolMXBean pool : youngPools) {
            young += Math.max(0, pool.getUsage().getCommitted());
        }
        return Math.min(young, maxHeap / 4);
    }

    private long youngInUse() {
        long young = 0;
        for (MemoryPoolMXBean pool : youngPools) {
            young += Math.max(0, pool.getUsage().getUsed());
        }
        return young;
    }

    private long heapInUse() {
        return memory.getHeapMemoryUsage().getUsed();
    }

    /**
     * Heap growth from {@code heapBefore} to {@code heapNow}, capped by what the eval's thread allocated: growth
     * beyond that came from elsewhere (other threads, the cell compiler) and is not the guest's.
     */
    private static long guestGrowth(long heapNow, long heapBefore, long allocated) {
        return Math.min(heapNow - heapBefore, allocated);
    }
}
