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

    private EngineWarmUp() {}

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
