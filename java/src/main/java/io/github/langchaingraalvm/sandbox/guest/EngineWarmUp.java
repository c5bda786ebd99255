package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Runs a small corpus of typical model cells (see {@code warmup.js}) through a throw-away interpreter while the
 * sandbox is idle. A fresh JVM runs GraalJS's interpreter and the Graal compiler as cold bytecode for its first
 * seconds; afterwards the host JIT has compiled them, and the model's first cells run several times faster. The
 * corpus stops as soon as a real eval starts, or when its time budget is spent, so it only ever uses idle time.
 */
public final class EngineWarmUp {
    private static final int ROUNDS = 2;
    private static final Duration BUDGET = Duration.ofSeconds(20);
    /** The name of the warm-up's thread. */
    private static final String THREAD = "graalvm-sandbox-warmup";
    /** How long the warm-up waits for a first context before it starts anyway. */
    private static final Duration FIRST_CONTEXT_WAIT = Duration.ofSeconds(10);

    private EngineWarmUp() {}

    /**
     * Starts the JavaScript warm-up of {@code engines} on a thread of its own, once per process (never when the
     * system property {@code langchain.graalvm.noWarmUp} is true): it parses the JavaScript guest resources, loads
     * the cell compiler and runs the corpus. {@code Sandbox} calls it as it makes a JavaScript interpreter, so that
     * a process that only runs Python never pays for it: on two processors its parsing and its Truffle
     * compilations, which share one compile queue with GraalPy's, slowed a fresh process's Python cells.
     */
    public static void start(Engines engines) {
        if (!engines.claimWarmUp()) {
            return;
        }
        Thread warm = new Thread(() -> {
            try {
                // A process's first context (its prelude and snapshot codec) is on the way to the first result:
                // the code it runs is parsed here, beside it, and the cell compiler, which slows it down on two
                // processors, loads after it.
                JavaScriptGuest.parseGuestResources(engines.javaScriptEngine());
                engines.awaitFirstContext(FIRST_CONTEXT_WAIT);
                engines.compiler().loadParser();
                // Few cells need the TypeScript stripper; loading it beside an eval would slow that eval down.
                engines.awaitIdle();
                engines.compiler().loadStripper();
                run(engines, engines::realEvalStarted);
            } catch (RuntimeException e) {
                // Warming is an optimisation: the first cells load and compile what it would have.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, THREAD);
        warm.setDaemon(true);
        warm.setPriority(Thread.MIN_PRIORITY);
        warm.start();
    }

    static List<String> cells() {
        List<String> cells = new ArrayList<>();
        StringBuilder current = null;
        for (String line : CellCompiler.resource("warmup.js").split("\n", -1)) {
            if (line.equals("// cell")) {
                if (current != null) {
                    cells.add(current.toString());
                }
                current = new StringBuilder();
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        if (current != null && !current.toString().isBlank()) {
            cells.add(current.toString());
        }
        return cells;
    }

    /**
     * Runs the corpus, each round ended by the snapshot of its globals and their restore into a new interpreter (an
     * agent's end and start of a turn: the snapshot codec is guest code too, and as cold as the rest in a fresh
     * JVM); returns how many cells ran. {@code busy} says whether a real eval is running, and is checked before every
     * cell, snapshot and restore.
     */
    public static int run(Engines engines, BooleanSupplier busy) {
        SandboxOptions options = SandboxOptions.builder()
                .memoryLimitBytes(0)
                .timeout(Duration.ofSeconds(10))
                .snapshots(true)
                .build();
        long deadline = System.nanoTime() + BUDGET.toNanos();
        BooleanSupplier stop = () -> busy.getAsBoolean() || System.nanoTime() - deadline > 0;
        int ran = 0;
        List<String> cells = cells();
        try (JavaScriptGuest js = new JavaScriptGuest(engines, options)) {
            js.markWarmUp();
            for (int round = 0; round < ROUNDS; round++) {
                for (String cell : cells) {
                    if (stop.getAsBoolean()) {
                        return ran;
                    }
                    js.eval(cell.replace("$K", Integer.toString(round)));
                    ran++;
                }
                if (stop.getAsBoolean()) {
                    return ran;
                }
                String payload = js.snapshot(0);
                if (stop.getAsBoolean()) {
                    return ran;
                }
                try (JavaScriptGuest next = new JavaScriptGuest(engines, options)) {
                    next.markWarmUp();
                    next.restore(payload);
                }
            }
        }
        return ran;
    }
}
