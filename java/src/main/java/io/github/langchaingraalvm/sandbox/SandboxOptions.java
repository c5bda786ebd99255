package io.github.langchaingraalvm.sandbox;

import io.github.langchaingraalvm.sandbox.text.SourceLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * The limits and policy of one interpreter. Immutable; build one with {@link #builder()}.
 *
 * <pre>{@code
 * SandboxOptions options = SandboxOptions.builder()
 *     .timeout(Duration.ofSeconds(2))
 *     .memoryLimitBytes(32L << 20)
 *     .build();
 * }</pre>
 */
public final class SandboxOptions {
    /** What {@code Date} shows the guest. */
    public enum Clock {
        /** {@code Date.now()} and {@code new Date()} return a fixed instant; the host's time is never seen. */
        FROZEN,
        /** The host's wall clock, at millisecond resolution. */
        HOST
    }

    private final Duration timeout;
    private final Duration interruptGrace;
    private final Duration maxWallTime;
    private final long memoryLimitBytes;
    private final int maxResultChars;
    private final boolean captureConsole;
    private final Clock clock;
    private final long frozenEpochMillis;
    private final long stackBytes;
    /**
     * The stack of a guest thread: over four times the 8 MiB that Python gives its threads by default (the process's
     * stack limit), because of glibc's stack cache, which hands a new thread the stack of an exited one when that is
     * at least the size asked for and at most four times it. A Python thread that called into the JVM (JPype
     * attaches it) and ended leaves the guard pages HotSpot gave it protected, one page higher than on a thread the
     * JVM creates (under them lies glibc's own guard page, which JVM threads go without). A guest thread that got
     * that stack next had a protected page in its usable stack, just above its own guard pages: the stack bang of a
     * deep recursion hit it, HotSpot took the fault for a stack still to be mapped, and the process died of SIGSEGV
     * with no error report. At 34 MiB an 8 MiB Python thread never takes a guest's stack, nor a guest a Python
     * thread's. A smaller {@link Builder#stackBytes(long)} gives that up.
     */
    private static final long GUEST_STACK_BYTES = 34L << 20;
    private static final long JS_STACK_BYTES = GUEST_STACK_BYTES;
    private static final long PYTHON_STACK_BYTES = GUEST_STACK_BYTES;
    private final boolean snapshots;
    private final double heapFactor;
    private final boolean agentModules;
    private final long maxCodeBytes;
    private final int maxNesting;
    private final long maxStreamedChars;
    private final Isolation isolation;

    private SandboxOptions(Builder b) {
        this.timeout = b.timeout;
        this.interruptGrace = b.interruptGrace;
        this.maxWallTime = b.maxWallTime;
        this.memoryLimitBytes = b.memoryLimitBytes;
        this.maxResultChars = b.maxResultChars;
        this.captureConsole = b.captureConsole;
        this.clock = b.clock;
        this.frozenEpochMillis = b.frozenEpochMillis;
        this.stackBytes = b.stackBytes;
        this.snapshots = b.snapshots;
        this.heapFactor = b.heapFactor;
        this.agentModules = b.agentModules;
        this.maxCodeBytes = b.maxCodeBytes;
        this.maxNesting = b.maxNesting;
        this.maxStreamedChars = b.maxStreamedChars;
        this.isolation = b.isolation;
    }

    /** A builder with the defaults: 5 s, 64 MiB, 4000 characters, console captured, frozen clock at 0. */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults. */
    public static SandboxOptions defaults() {
        return builder().build();
    }

    /** Guest execution time allowed per eval. */
    public Duration timeout() {
        return timeout;
    }

    /** How long an interrupt may take before the context is closed by force. */
    public Duration interruptGrace() {
        return interruptGrace;
    }

    /**
     * The wall-clock cap of one eval, host-call waits included. {@link #timeout()} counts guest execution only,
     * so this is what stops an eval whose tool never answers. Default 5 minutes.
     */
    public Duration maxWallTime() {
        return maxWallTime;
    }

    /** Bytes the guest may retain during one eval; 0 means no limit. */
    public long memoryLimitBytes() {
        return memoryLimitBytes;
    }

    /** Characters kept of the result, the error and the console output, each. */
    public int maxResultChars() {
        return maxResultChars;
    }

    /** Whether the guest gets a {@code console} global. */
    public boolean captureConsole() {
        return captureConsole;
    }

    /** What {@code Date} shows. */
    public Clock clock() {
        return clock;
    }

    /** The instant a {@link Clock#FROZEN} clock shows, in milliseconds since the epoch. */
    public long frozenEpochMillis() {
        return frozenEpochMillis;
    }

    /** Stack size of the thread that runs a JavaScript guest; bounds recursion depth. */
    public long stackBytes() {
        return stackBytes > 0 ? stackBytes : JS_STACK_BYTES;
    }

    /**
     * Stack size of the thread that runs a Python guest: {@link #stackBytes()} when set, else the same 34 MiB as a
     * JavaScript guest's (see {@link #GUEST_STACK_BYTES}). GraalPy stops recursion at {@code sys.getrecursionlimit()}
     * frames, well within that; only a raised limit reaches the end of the stack.
     */
    long pythonStackBytes() {
        return stackBytes > 0 ? stackBytes : PYTHON_STACK_BYTES;
    }

    /**
     * JVM heap allowed per byte of {@link #memoryLimitBytes()}. GraalJS objects on the JVM heap are larger than
     * QuickJS's (100k small objects plus their JSON text and parsed copy keep 81 MiB here, and fit in 64 MiB in
     * QuickJS), so the default of 2 lets programs written for a QuickJS limit run under the same number.
     */
    public double heapFactor() {
        return heapFactor;
    }

    /** The JVM heap an eval may keep: {@code memoryLimitBytes * heapFactor}, or 0 for no limit. */
    public long heapAllowanceBytes() {
        return (long) (memoryLimitBytes * heapFactor);
    }

    /** Whether {@link GuestInterpreter#snapshot(long)} and {@link GuestInterpreter#restore(String)} are available. */
    public boolean snapshots() {
        return snapshots;
    }

    /**
     * Whether JavaScript contexts may import ES modules from the agent's files: {@code import()} and static
     * {@code import} read modules through the eval's host bridge (its {@code fs} calls), and nothing else.
     */
    public boolean agentModules() {
        return agentModules;
    }

    /**
     * The largest cell accepted, in bytes of UTF-8; a larger one gets a {@code CodeTooLarge} error before anything
     * parses it. Default 1 MiB.
     */
    public long maxCodeBytes() {
        return maxCodeBytes;
    }

    /**
     * The deepest nesting a cell may have (brackets, template substitutions, regular expression groups, and the
     * operators chained in one expression, see {@link SourceLimits}); a deeper one gets a {@code CodeTooDeep} error
     * before anything parses it. Default 1000.
     */
    public int maxNesting() {
        return maxNesting;
    }

    /**
     * The most characters of one eval's output streamed to its bridge's handler (see
     * {@link HostCallHandler#output(String, String)}); past them the handler gets one notice and nothing more for
     * that eval. 0 streams nothing. Default 1,000,000. The outcome's console output is capped by
     * {@link #maxResultChars()} alone.
     */
    public long maxStreamedChars() {
        return maxStreamedChars;
    }

    /** Where the guest runs: in this JVM (the default) or in a worker process of its own; see {@link Isolation}. */
    public Isolation isolation() {
        return isolation;
    }

    /** Builder of {@link SandboxOptions}. */
    public static final class Builder {
        private Duration timeout = Duration.ofSeconds(5);
        private Duration interruptGrace = Duration.ofMillis(500);
        private Duration maxWallTime = Duration.ofMinutes(5);
        private long memoryLimitBytes = 64L << 20;
        private int maxResultChars = 4000;
        private boolean captureConsole = true;
        private Clock clock = Clock.FROZEN;
        private long frozenEpochMillis = 0L;
        // 0: the default (GUEST_STACK_BYTES). Interpreted GraalJS frames of a one-line function take about
        // 1.7 KiB, compiled ones far less: 24 MiB kept 10,000 frames (13,900 to 14,800) on a first call, 34 MiB
        // keeps 22,000 to 28,500. More would make each runaway recursion slower to unwind, and the unwinding does
        // not stop for a timeout. Thread stacks are reserved, not committed, so an idle interpreter costs no
        // memory for it.
        private long stackBytes = Long.getLong("langchain.graalvm.stackBytes", 0L);

        private boolean snapshots = false;
        private double heapFactor = 2.0;
        private boolean agentModules = false;
        private long maxCodeBytes = 1L << 20;
        private int maxNesting = 1000;
        private long maxStreamedChars = 1_000_000L;
        private Isolation isolation = Isolation.IN_PROCESS;

        private Builder() {}

        /**
         * Where the guest runs: {@link Isolation#IN_PROCESS} (the default) or {@link Isolation#PROCESS}, a worker
         * JVM of its own.
         */
        public Builder isolation(Isolation value) {
            this.isolation = Objects.requireNonNull(value, "isolation");
            return this;
        }

        /** The most characters of one eval's output streamed as it is written; 0 streams nothing. */
        public Builder maxStreamedChars(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("maxStreamedChars must be >= 0, got " + value);
            }
            this.maxStreamedChars = value;
            return this;
        }

        /** The largest cell accepted, in bytes of UTF-8; at least 1. */
        public Builder maxCodeBytes(long value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxCodeBytes must be >= 1, got " + value);
            }
            this.maxCodeBytes = value;
            return this;
        }

        /** The deepest nesting a cell may have; at least 1. */
        public Builder maxNesting(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxNesting must be >= 1, got " + value);
            }
            this.maxNesting = value;
            return this;
        }

        /**
         * Lets cells import ES modules from the agent's files, served by an eval's host bridge with {@code fs}
         * ({@link HostBridge#exposeFs()}). Off by default: contexts then have no file system at all.
         */
        public Builder agentModules(boolean value) {
            this.agentModules = value;
            return this;
        }

        /**
         * Prepares every context for snapshots: the codec is set up before any guest code runs, which costs a few
         * milliseconds per context.
         */
        public Builder snapshots(boolean value) {
            this.snapshots = value;
            return this;
        }

        /** Guest execution time allowed per eval; must be positive. */
        public Builder timeout(Duration value) {
            Objects.requireNonNull(value, "timeout");
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, got " + value);
            }
            this.timeout = value;
            return this;
        }

        /** How long to wait for an interrupt before closing the context by force; must be positive. */
        public Builder interruptGrace(Duration value) {
            Objects.requireNonNull(value, "interruptGrace");
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("interruptGrace must be positive, got " + value);
            }
            this.interruptGrace = value;
            return this;
        }

        /** The wall-clock cap of one eval, waits on host calls included; see {@link SandboxOptions#maxWallTime()}. */
        public Builder maxWallTime(Duration value) {
            Objects.requireNonNull(value, "maxWallTime");
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("maxWallTime must be positive, got " + value);
            }
            this.maxWallTime = value;
            return this;
        }

        /** Bytes the guest may retain during one eval; 0 disables the limit. */
        public Builder memoryLimitBytes(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("memoryLimitBytes must be >= 0, got " + value);
            }
            this.memoryLimitBytes = value;
            return this;
        }

        /** JVM heap allowed per byte of the memory limit; at least 1. */
        public Builder heapFactor(double value) {
            if (!(value >= 1.0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("heapFactor must be a finite number >= 1, got " + value);
            }
            this.heapFactor = value;
            return this;
        }

        /** Characters kept of each part of the outcome. */
        public Builder maxResultChars(int value) {
            this.maxResultChars = value;
            return this;
        }

        /** Whether the guest gets a {@code console} global. */
        public Builder captureConsole(boolean value) {
            this.captureConsole = value;
            return this;
        }

        /** What {@code Date} shows the guest. */
        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** The instant a frozen clock shows. */
        public Builder frozenEpochMillis(long value) {
            this.frozenEpochMillis = value;
            return this;
        }

        /** Stack size of the guest thread, at least 256 KiB. */
        public Builder stackBytes(long value) {
            if (value < (256L << 10)) {
                throw new IllegalArgumentException("stackBytes must be >= 262144, got " + value);
            }
            this.stackBytes = value;
            return this;
        }

        /** The options. */
        public SandboxOptions build() {
            return new SandboxOptions(this);
        }
    }
}
