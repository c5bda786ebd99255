package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.Isolation;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** What the tests of the worker tier share: its options, and the worker processes this JVM has started. */
public final class Workers {
    private Workers() {
    }

    /** Options for a guest in a worker process, with generous limits for a loaded machine. */
    public static SandboxOptions.Builder process() {
        return SandboxOptions.builder().isolation(Isolation.PROCESS).timeout(Duration.ofSeconds(60));
    }

    /** The pids of the worker processes this JVM started that are alive now. */
    public static Set<Long> pids() {
        return ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().orElse("").contains(WorkerProcess.WORKER_PROPERTY))
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    /** The one worker started by {@code action}: the pid that is new after it. */
    public static long newWorker(Runnable action) {
        WorkerPool.shared().closeIdle();
        Set<Long> before = pids();
        action.run();
        Set<Long> after = pids();
        after.removeAll(before);
        if (after.size() != 1) {
            throw new AssertionError("expected one new worker process, got " + after + " (before: " + before + ")");
        }
        return after.iterator().next();
    }

    /** Kills a worker with SIGKILL, as {@code kill -9} would. */
    public static void kill9(long pid) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** Whether the process {@code pid} ends within {@code seconds} (a hang guard, not a timing). */
    public static boolean ends(long pid, long seconds) {
        ProcessHandle p = ProcessHandle.of(pid).orElse(null);
        if (p == null) {
            return true;
        }
        try {
            p.onExit().get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return !p.isAlive();
        }
    }

    /** Runs {@code work} on another thread, so a test can act while it runs. */
    public static <T> CompletableFuture<T> async(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, r -> Thread.ofPlatform().daemon().start(r));
    }
}
