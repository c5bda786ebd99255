package io.github.langchaingraalvm.sandbox;

import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The host functions one eval exposes to the guest: a frozen {@code tools} object with one function per name, and
 * optionally a {@code task} function. Calls go to {@link #handler()}; the {@code tools} calls of one eval are
 * capped at {@link #maxToolCalls()}. With {@link #streamOutput()} the handler also gets what the guest prints
 * while the eval runs ({@link HostCallHandler#output(String, String)}).
 *
 * <pre>{@code
 * // Only live output, no host functions:
 * EvalOutcome outcome = interpreter.eval(code, HostBridge.outputOnly((stream, text) -> System.out.print(text)));
 * }</pre>
 *
 * @param handler where the calls go
 * @param toolNames the names under {@code tools}, each a JavaScript identifier; empty for an empty {@code tools}
 * @param exposeTools whether the {@code tools} global exists at all
 * @param exposeTask whether the {@code task} global exists
 * @param maxToolCalls the most {@code tools} calls one eval may start; 0 for no limit
 * @param exposeFs whether the {@code fs} global (JavaScript) or {@code files} global (Python) exists: calls of kind
 *     {@code "fs"}, one of {@link #FS_OPERATIONS}, which the handler serves from the agent's files
 * @param randomSeed the seed of the guest's random numbers ({@code Math.random}, Python's {@code random} module) for
 *     this eval, in [0, 2^53), so a cell run again with the same seed draws the same numbers; null for the engine's
 *     own random numbers
 * @param streamOutput whether what the guest prints during the eval goes to the handler's
 *     {@link HostCallHandler#output(String, String)} as it is written
 */
public record HostBridge(HostCallHandler handler, List<String> toolNames, boolean exposeTools, boolean exposeTask,
        int maxToolCalls, boolean exposeFs, Long randomSeed, boolean streamOutput) {
    /** The names of the {@code fs} calls a guest may make. */
    public static final List<String> FS_OPERATIONS = List.of("readFile", "writeFile", "readdir", "stat", "rm",
            "glob", "module");

    /** A bridge without {@code fs}. */
    public HostBridge(HostCallHandler handler, List<String> toolNames, boolean exposeTools, boolean exposeTask,
            int maxToolCalls) {
        this(handler, toolNames, exposeTools, exposeTask, maxToolCalls, false, null, false);
    }

    /** A bridge with the engine's own random numbers. */
    public HostBridge(HostCallHandler handler, List<String> toolNames, boolean exposeTools, boolean exposeTask,
            int maxToolCalls, boolean exposeFs) {
        this(handler, toolNames, exposeTools, exposeTask, maxToolCalls, exposeFs, null, false);
    }

    /** A bridge whose guest output is not streamed. */
    public HostBridge(HostCallHandler handler, List<String> toolNames, boolean exposeTools, boolean exposeTask,
            int maxToolCalls, boolean exposeFs, Long randomSeed) {
        this(handler, toolNames, exposeTools, exposeTask, maxToolCalls, exposeFs, randomSeed, false);
    }

    /**
     * A bridge that exposes no host functions and streams what the guest prints to {@code listener}, called with
     * the stream ({@code "stdout"} or {@code "stderr"}) and the text as {@link HostCallHandler#output} is.
     */
    public static HostBridge outputOnly(BiConsumer<String, String> listener) {
        Objects.requireNonNull(listener, "listener");
        HostCallHandler handler = new HostCallHandler() {
            @Override
            public void start(long callId, String kind, String name, String inputJson) {
                throw new IllegalStateException("this bridge exposes no host functions");
            }

            @Override
            public void output(String stream, String text) {
                listener.accept(stream, text);
            }
        };
        return new HostBridge(handler, List.of(), false, false, 0, false, null, true);
    }

    /** Checks and copies the arguments. */
    public HostBridge {
        Objects.requireNonNull(handler, "handler");
        toolNames = List.copyOf(toolNames);
        for (String name : toolNames) {
            if (!name.matches("[A-Za-z_$][A-Za-z0-9_$]*")) {
                throw new IllegalArgumentException("a tool name must be a JavaScript identifier, got: " + name);
            }
        }
        if (maxToolCalls < 0) {
            throw new IllegalArgumentException("maxToolCalls must be >= 0, got " + maxToolCalls);
        }
        if (randomSeed != null && (randomSeed < 0 || randomSeed >= 1L << 53)) {
            throw new IllegalArgumentException("randomSeed must be in [0, 2^53), got " + randomSeed);
        }
    }

    /**
     * Why a guest's call is refused, as "Type\0message", or null when it may start. {@code toolCalls} is the number of
     * {@code tools} calls of the eval so far, this one included.
     */
    static String refusal(HostBridge b, String kind, String name, int toolCalls, String errorType) {
        if (b == null) {
            return errorType + "\u0000" + name + " cannot be called here: this eval has no host bridge attached.";
        }
        boolean allowed = switch (kind) {
            case "task" -> b.exposeTask();
            case "tool" -> b.toolNames().contains(name);
            case "fs" -> b.exposeFs() && FS_OPERATIONS.contains(name);
            default -> false;
        };
        if (!allowed) {
            return errorType + "\u0000" + name + " is not available in this eval.";
        }
        if (kind.equals("tool") && b.maxToolCalls() > 0 && toolCalls > b.maxToolCalls()) {
            return "PTCCallBudgetExceeded\u0000PTC call budget exceeded (limit=" + b.maxToolCalls() + ", attempted="
                    + toolCalls + ", function=tools." + name + ")";
        }
        return null;
    }

    /** The globals this bridge installs, as a key for noticing when the installed set must change. */
    String shape() {
        return (exposeTools ? "tools:" + String.join(",", toolNames) : "-") + (exposeTask ? "|task" : "")
                + (exposeFs ? "|fs" : "");
    }
}
