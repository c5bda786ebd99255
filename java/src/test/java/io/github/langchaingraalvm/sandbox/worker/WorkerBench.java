package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Isolation;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Measures the worker tier from a Java host (not a test: run it by hand, see docs/java.md): the host heap a heap
 * bomb and a heap-filling builtin leave under a 64 MiB limit, the time from a worker's SIGKILL to its eval's
 * outcome, a warm eval's overhead against the in-process tier, and the CPU the host and its workers use once every
 * interpreter is closed. Prints one line per figure.
 */
public final class WorkerBench {
    private WorkerBench() {
    }

    public static void main(String[] args) throws Exception {
        SandboxOptions limited = SandboxOptions.builder().isolation(Isolation.PROCESS)
                .timeout(Duration.ofSeconds(2)).memoryLimitBytes(64L << 20).build();
        heap(limited);
        killToOutcome();
        overhead(Integer.parseInt(args.length > 0 ? args[0] : "2000"));
        idleCpu();
        System.exit(0);
    }

    private static void heap(SandboxOptions options) {
        long before = usedHeap();
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(options)) {
            EvalOutcome bomb = js.eval("const keep = []; while (true) keep.push(new Float64Array(1 << 20))");
            EvalOutcome builtin = js.eval("Array.from({length: 2 ** 31})");
            long after = usedHeap();
            System.out.printf("heap: host used heap %+.1f MiB after a heap bomb (%s) and a heap-filling builtin (%s)"
                    + " under 64 MiB%n", (after - before) / 1048576.0, bomb.errorType(), builtin.errorType());
        }
    }

    private static void killToOutcome() throws Exception {
        SandboxOptions options = SandboxOptions.builder().isolation(Isolation.PROCESS)
                .timeout(Duration.ofSeconds(60)).build();
        double[] seconds = new double[3];
        for (int i = 0; i < seconds.length; i++) {
            GuestInterpreter[] holder = new GuestInterpreter[1];
            long pid = Workers.newWorker(() -> holder[0] = Sandbox.shared().newInterpreter(options));
            try (GuestInterpreter js = holder[0]) {
                js.eval("1");
                CompletableFuture<EvalOutcome> running = Workers.async(() -> js.eval("while (true) {}"));
                Thread.sleep(1000);
                long killed = System.nanoTime();
                Workers.kill9(pid);
                EvalOutcome outcome = running.get(120, TimeUnit.SECONDS);
                seconds[i] = (System.nanoTime() - killed) / 1e9;
                if (!"InternalError".equals(outcome.errorType())) {
                    throw new AssertionError(outcome.envelope());
                }
            }
        }
        System.out.println("kill -9 mid-eval: seconds to outcome " + Arrays.toString(seconds));
    }

    private static void overhead(int n) {
        SandboxOptions in = SandboxOptions.builder().build();
        SandboxOptions out = SandboxOptions.builder().isolation(Isolation.PROCESS).build();
        try (GuestInterpreter local = Sandbox.shared().newInterpreter(in);
                GuestInterpreter remote = Sandbox.shared().newInterpreter(out)) {
            String cell = "let x = 1; x + 1";
            for (int round = 0; round < 3; round++) { // the last round is the one reported: both warm
                double l = median(local, cell, n);
                double r = median(remote, cell, n);
                if (round == 2) {
                    System.out.printf("warm eval (%s, median of %d): in-process %.3f ms, worker %.3f ms,"
                            + " overhead %+.3f ms%n", cell, n, l, r, r - l);
                }
            }
        }
    }

    private static double median(GuestInterpreter js, String cell, int n) {
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            EvalOutcome o = js.eval(cell);
            nanos[i] = System.nanoTime() - t;
            if (o.status() != EvalOutcome.Status.OK) {
                throw new AssertionError(o.envelope());
            }
        }
        Arrays.sort(nanos);
        return nanos[n / 2] / 1e6;
    }

    private static void idleCpu() throws Exception {
        // One figure a second for 8 s: the JIT's compile queues drain after the last eval, so the goal is the
        // cores still busy 5 s after every interpreter closed (the sixth second onwards).
        double[] cores = new double[8];
        for (int i = 0; i < cores.length; i++) {
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            Thread.sleep(1000);
            cores[i] = Math.round((cpuNanos() - cpu0) / (double) (System.nanoTime() - t0) * 100) / 100.0;
        }
        System.out.printf("after every interpreter closed: cores busy in each second %s (host and %d idle workers)%n",
                Arrays.toString(cores), Workers.pids().size());
    }

    /** CPU time of this JVM and every worker it started. */
    private static long cpuNanos() {
        long total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        for (long pid : Workers.pids()) {
            total += ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos)
                    .orElse(0L);
        }
        return total;
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
