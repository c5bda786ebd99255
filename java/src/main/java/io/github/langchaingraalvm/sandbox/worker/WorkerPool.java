package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The worker processes of this JVM's {@link io.github.langchaingraalvm.sandbox.Isolation#PROCESS} interpreters.
 * Each interpreter checks out a worker of its own and gives it back when it closes (its contexts closed, its JIT
 * warmth kept); an idle worker is reused by the next interpreter of the same heap size, and ends after
 * {@link #IDLE_EXIT} unused. At most {@link #MAX_WORKERS} are alive at once. A worker that died, missed a deadline or was left running a stuck guest is killed and
 * never given back. When this JVM exits its workers' input closes and they end; a shutdown hook kills any left.
 *
 * <p>The sandbox reaches it through {@link #newInterpreter}; it is no API of its own.
 */
public final class WorkerPool {
    /** How long an idle worker is kept for the next interpreter. */
    static final Duration IDLE_EXIT = Duration.ofSeconds(60);
    /** The most idle workers kept per heap size. */
    static final int MAX_IDLE = 4;
    /** The system property that sets {@link #MAX_WORKERS}. */
    static final String MAX_WORKERS_PROPERTY = "langchain.graalvm.maxWorkers";
    /** The most workers alive at once, busy and idle: 16, or the system property {@link #MAX_WORKERS_PROPERTY}. */
    static final int MAX_WORKERS = Math.max(1, Integer.getInteger(MAX_WORKERS_PROPERTY, 16));
    /** How long a checkout waits for a worker when {@link #MAX_WORKERS} are busy. */
    static final Duration CHECKOUT_WAIT = Duration.ofSeconds(60);
    private static final long MIB = 1L << 20;
    private static final WorkerPool SHARED = new WorkerPool();

    /** Idle workers by heap size, the most recently used last; guarded by this pool. */
    private final Map<Long, ArrayDeque<WorkerProcess>> idle = new HashMap<>();
    private final Set<WorkerProcess> all = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "sandbox-worker-reaper");
        thread.setDaemon(true);
        return thread;
    });
    private boolean reaping;
    /** Workers being started; guarded by this pool. */
    private int starting;

    private WorkerPool() {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (WorkerProcess w : all) {
                w.kill("the host JVM is exiting");
            }
        }, "sandbox-worker-shutdown"));
    }

    /**
     * The {@code -Xmx} of a worker for these options: the engine's own needs (384 MiB for JavaScript, 640 MiB for
     * Python) plus twice the guest's heap allowance (the watchdog stops a guest that keeps more, and it measures at
     * collections); 2 GiB when there is no memory limit. The Python package's workers follow the same rule.
     */
    static long heapBytes(String language, SandboxOptions options) {
        if (options.memoryLimitBytes() == 0) {
            return 2048 * MIB;
        }
        long base = (language.equals("python") ? 640 : 384) * MIB;
        long allowance = (long) Math.ceil(options.memoryLimitBytes() * options.heapFactor());
        long size = base + 2 * allowance;
        return (size + MIB - 1) / MIB * MIB;
    }

    /**
     * A worker of this heap size: an idle one (the last given back), else a new one. Past {@link #MAX_WORKERS}
     * alive it ends the longest-idle worker of another size, or waits up to {@link #CHECKOUT_WAIT} for one.
     *
     * @throws IllegalStateException when none could be had in that time, or a new one did not start
     */
    WorkerProcess checkout(long heapBytes) {
        List<WorkerProcess> dead = new ArrayList<>();
        List<WorkerProcess> ended = new ArrayList<>();
        WorkerProcess found = null;
        long giveUp = System.nanoTime() + CHECKOUT_WAIT.toNanos();
        synchronized (this) {
            while (true) {
                ArrayDeque<WorkerProcess> kept = idle.get(heapBytes);
                while (kept != null && !kept.isEmpty() && found == null) {
                    WorkerProcess w = kept.pollLast();
                    if (w.alive()) {
                        found = w;
                    } else {
                        all.remove(w);
                        dead.add(w);
                    }
                }
                if (found != null) {
                    break;
                }
                WorkerProcess oldest = all.size() + starting < MAX_WORKERS ? null : oldestIdle();
                if (oldest != null) {
                    idle.get(oldest.heapBytes).remove(oldest);
                    all.remove(oldest);
                    ended.add(oldest);
                }
                if (oldest != null || all.size() + starting < MAX_WORKERS) {
                    starting++;
                    break;
                }
                long left = giveUp - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("all " + MAX_WORKERS + " sandbox worker processes of this JVM are"
                            + " in use: close an interpreter first, or allow more with -D" + MAX_WORKERS_PROPERTY);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for a sandbox worker process");
                }
            }
        }
        for (WorkerProcess w : dead) {
            w.kill("it died while idle");
        }
        for (WorkerProcess w : ended) {
            w.close();
        }
        if (found != null) {
            return found;
        }
        try {
            WorkerProcess w = WorkerProcess.start(heapBytes);
            all.add(w);
            return w;
        } finally {
            synchronized (this) {
                starting--;
                notifyAll();
            }
        }
    }

    /** The idle worker given back longest ago, of any heap size, or null. Caller holds the lock. */
    private WorkerProcess oldestIdle() {
        WorkerProcess oldest = null;
        for (ArrayDeque<WorkerProcess> kept : idle.values()) {
            WorkerProcess w = kept.peekFirst();
            if (w != null && (oldest == null || w.idleSince < oldest.idleSince)) {
                oldest = w;
            }
        }
        return oldest;
    }

    /** Takes back a worker whose interpreter closed, to keep it for the next one. */
    void checkin(WorkerProcess w) {
        if (!w.alive()) {
            discard(w, "it died");
            return;
        }
        boolean keep;
        synchronized (this) {
            notifyAll();
            ArrayDeque<WorkerProcess> kept = idle.computeIfAbsent(w.heapBytes, k -> new ArrayDeque<>());
            keep = kept.size() < MAX_IDLE;
            if (keep) {
                w.idleSince = System.nanoTime();
                kept.addLast(w);
                if (!reaping) {
                    reaping = true;
                    long every = IDLE_EXIT.toMillis() / 4;
                    reaper.scheduleWithFixedDelay(this::reap, every, every, TimeUnit.MILLISECONDS);
                }
            }
        }
        if (!keep) {
            all.remove(w);
            w.close();
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /** Kills a worker that must not be reused. */
    void discard(WorkerProcess w, String why) {
        synchronized (this) {
            all.remove(w);
            ArrayDeque<WorkerProcess> kept = idle.get(w.heapBytes);
            if (kept != null) {
                kept.remove(w);
            }
            notifyAll();
        }
        w.kill(why);
    }

    /** Ends the workers idle for longer than {@link #IDLE_EXIT}. */
    private void reap() {
        List<WorkerProcess> stale = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            for (ArrayDeque<WorkerProcess> kept : idle.values()) {
                for (Iterator<WorkerProcess> it = kept.iterator(); it.hasNext(); ) {
                    WorkerProcess w = it.next();
                    if (!w.alive() || now - w.idleSince > IDLE_EXIT.toNanos()) {
                        it.remove();
                        stale.add(w);
                    }
                }
            }
        }
        for (WorkerProcess w : stale) {
            all.remove(w);
            w.close();
        }
    }

    /** This JVM's pool. */
    static WorkerPool shared() {
        return SHARED;
    }

    /** Idle workers now, over every heap size. For tests in this package. */
    synchronized int idleCount() {
        return idle.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    /** Ends every idle worker now. For tests in this package, which must tell which worker an interpreter got. */
    void closeIdle() {
        List<WorkerProcess> stale = new ArrayList<>();
        synchronized (this) {
            idle.values().forEach(stale::addAll);
            idle.clear();
        }
        for (WorkerProcess w : stale) {
            all.remove(w);
            w.close();
        }
    }
}
