package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.text.DataLiterals;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * Prepares REPL cells (see {@code cell.js}) in trusted tooling contexts shared by all interpreters; they never run
 * guest code, only parse and rewrite it. The parser context and the TypeScript context are separate, each with its
 * own lock, so loading the TypeScript stripper never holds up plain JavaScript cells. Results are cached, so a
 * repeated cell costs a map lookup.
 */
public final class CellCompiler {
    /** A prepared cell: either a script to run or a syntax error to report. */
    record Compiled(String script, String syntaxError) {}

    private static final int CACHE_ENTRIES = 512;
    private static final int CACHE_MAX_CODE = 64 * 1024;

    private final Engine engine;
    /** The host access of every context of the sandbox, the guests' included: only our own proxies cross. */
    private final HostAccess hostAccess;
    private final Watchdog watchdog;
    /** The parser ({@code cell.js}), which every cell with a top-level declaration or {@code await} needs. */
    private final Tooling parser = new Tooling("cell.js", f -> f.execute(warmSample(), false));
    /** The TypeScript stripper ({@code typescript.js}), which only cells that are not plain JavaScript need. */
    private final Tooling typescript = new Tooling("typescript.js", f -> f.execute(warmSample()));
    private final Map<String, Compiled> cache = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
            return size() > CACHE_ENTRIES;
        }
    };

    public CellCompiler(Engine engine, HostAccess hostAccess, Watchdog watchdog) {
        this.engine = engine;
        this.hostAccess = hostAccess;
        this.watchdog = watchdog;
    }

    /**
     * The guest time an eval has left for preparing its cell: the tooling contexts' work on the cell is stopped by
     * the watchdog when it runs out, as the cell itself would be. Loading a tooling context is not counted: it
     * happens once per process, whatever the cell.
     */
    static final class Budget {
        long leftNanos;
        final Duration grace;
        /** Whether other cells waiting for a tooling context this budget's cell holds are charged for the wait. */
        final boolean real;

        /** The budget of a model's cell. */
        Budget(Duration timeout, Duration grace) {
            this(timeout, grace, true);
        }

        /** {@code real} false: the warm-up's, which other cells do not pay for waiting on. */
        Budget(Duration timeout, Duration grace, boolean real) {
            this.leftNanos = timeout.toNanos();
            this.grace = grace;
            this.real = real;
        }

        /** No limit: for the warm-up and for tests of the rewrites. */
        static Budget unlimited() {
            return new Budget(Duration.ofDays(365), Duration.ofSeconds(1), false);
        }
    }

    /** Thrown when a cell's preparation used up its {@link Budget}. */
    static final class OutOfTime extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** Whether the time ran out while another interpreter's cell was being prepared, before this one's turn. */
        final boolean waiting;

        OutOfTime() {
            this(false);
        }

        OutOfTime(boolean waiting) {
            super("preparing the cell exceeded the timeout", null, false, false);
            this.waiting = waiting;
        }
    }

    /** How often a cell waiting for a tooling context looks again at its budget. */
    private static final long WAIT_SLICE_NANOS = Duration.ofMillis(50).toNanos();

    /**
     * One tooling context, loaded on first use (and again after the watchdog had to close it), with the lock that
     * makes it one cell's at a time.
     */
    private final class Tooling {
        private final String resource;
        private final Consumer<Value> warmUp;
        private final ReentrantLock lock = new ReentrantLock();
        /** Whether the holder is preparing a model's cell (not loading, not warming up): its waiters then pay. */
        private volatile boolean charged;
        private Context context;
        private Value function;

        Tooling(String resource, Consumer<Value> warmUp) {
            this.resource = resource;
            this.warmUp = warmUp;
        }

        /**
         * Runs {@code work} on the loaded function for a cell with {@code budget}. What {@code work} returns must
         * be a host value: a guest value of the context read after the lock is released would enter the context
         * while another thread may be in it.
         */
        <T> T run(Budget budget, Function<Value, T> work) {
            acquire(budget);
            try {
                if (function == null) {
                    context = newToolingContext();
                    function = load(context, resource);
                    // The first runs compile the tool's own code: part of loading it, not of the cell's budget.
                    warm(() -> warmUp.accept(function));
                }
                charged = budget.real;
                Value f = function;
                return watched(budget, () -> work.apply(f));
            } finally {
                charged = false;
                lock.unlock();
            }
        }

        /**
         * Takes the lock for a cell: the time it waits while another interpreter's cell is prepared counts against
         * its budget, as its own preparation would (the tooling contexts are shared); the time it waits while the
         * context loads or the warm-up uses it does not, as neither is counted in any cell's budget.
         */
        private void acquire(Budget budget) {
            while (true) {
                long start = System.nanoTime();
                try {
                    if (lock.tryLock(Math.max(0, Math.min(budget.leftNanos, WAIT_SLICE_NANOS)), TimeUnit.NANOSECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new OutOfTime(true);
                }
                if (charged) {
                    budget.leftNanos -= System.nanoTime() - start;
                }
                if (budget.leftNanos <= 0) {
                    throw new OutOfTime(true);
                }
            }
        }

        /**
         * Runs {@code work} in the context under the watchdog, for at most what {@code budget} has left; a context
         * the watchdog had to close is loaded again next time.
         */
        private <T> T watched(Budget budget, Supplier<T> work) {
            if (budget.leftNanos <= 0) {
                throw new OutOfTime();
            }
            long start = System.nanoTime();
            Watchdog.Ticket t = watchdog.watch(context, Thread.currentThread().threadId(), 0,
                    Duration.ofNanos(budget.leftNanos), budget.grace);
            try {
                return work.get();
            } catch (PolyglotException e) {
                if (t.reason != null) {
                    throw new OutOfTime();
                }
                throw e;
            } finally {
                watchdog.release(t);
                budget.leftNanos -= System.nanoTime() - start;
                if (t.forcedClose) {
                    function = null;
                }
            }
        }
    }

    /** Loads both tooling contexts ahead of the first cell that needs them. */
    public void warmUp() {
        loadParser();
        loadStripper();
    }

    /** Loads the parser, which every cell with a top-level declaration or {@code await} needs. */
    public void loadParser() {
        parse("let warm = 1", false, Budget.unlimited());
    }

    /** Loads the TypeScript stripper, which only cells that are not plain JavaScript need. */
    public void loadStripper() {
        strip("let warm: number = 1", Budget.unlimited());
    }

    Compiled compile(String code) {
        return compile(code, false, Budget.unlimited());
    }

    /**
     * Prepares a cell; with {@code imports}, static {@code import} declarations become awaited {@code import()}
     * calls (for contexts that may import the agent's files), else they stay syntax errors.
     */
    Compiled compile(String code, boolean imports, Budget budget) {
        String key = imports ? "\u0000imports\u0000" + code : code;
        synchronized (cache) {
            Compiled hit = cache.get(key);
            if (hit != null) {
                return hit;
            }
        }
        Compiled c = null;
        DataLiterals.Elided elided = DataLiterals.elide(code);
        if (elided != null) {
            Compiled shorter = prepare(elided.code(), imports, budget);
            String script = shorter.script() == null ? null : elided.restore(shorter.script());
            if (script != null) {
                c = new Compiled(script, null);
            }
        }
        if (c == null) {
            c = prepare(code, imports, budget);
        }
        if (code.length() <= CACHE_MAX_CODE) {
            synchronized (cache) {
                cache.put(key, c);
            }
        }
        return c;
    }

    /** The cell as a script, or its syntax error: parsed as JavaScript, else with its TypeScript syntax removed. */
    private Compiled prepare(String code, boolean imports, Budget budget) {
        Compiled c = parse(code, imports, budget);
        if (c.syntaxError() != null) {
            String stripped;
            try {
                stripped = strip(code, budget);
            } catch (PolyglotException e) {
                stripped = null;
            }
            if (stripped != null) {
                Compiled typed = parse(stripped, imports, budget);
                if (typed.syntaxError() == null) {
                    c = typed;
                }
            }
        }
        return c;
    }

    private Compiled parse(String code, boolean imports, Budget budget) {
        return parser.run(budget, f -> {
            Value r = f.execute(code, imports);
            return "ok".equals(r.getArrayElement(0).asString())
                    ? new Compiled(r.getArrayElement(1).asString(), null)
                    : new Compiled(null, r.getArrayElement(1).asString());
        });
    }

    /** The code with its TypeScript syntax removed (line numbers kept); for cells and imported modules. */
    String strip(String code) {
        return strip(code, Budget.unlimited());
    }

    private String strip(String code, Budget budget) {
        return typescript.run(budget, f -> f.execute(code).asString());
    }

    /**
     * Typical model cells (the engine warm-up's, {@code warmup.js}), parsed once when a tooling context loads: a
     * cold parser runs several times slower, and a cell's budget should pay for the cell, not for the first use of
     * the parser's code. Also when a cell waits for the context: its own parse would be as good a first use, but
     * would count against its timeout (on a loaded machine a short timeout was seen to run out on it).
     */
    private static String warmSample() {
        return "let warm: number = 1;\n" + resource("warmup.js");
    }

    private static void warm(Runnable parse) {
        try {
            parse.run();
        } catch (PolyglotException e) {
            // Warming only: the sample's outcome does not matter.
        }
    }

    private Context newToolingContext() {
        return Context.newBuilder("js")
                .engine(engine)
                .sandbox(SandboxPolicy.CONSTRAINED)
                .allowHostAccess(hostAccess)
                .allowIO(IOAccess.NONE)
                .out(java.io.OutputStream.nullOutputStream())
                .err(java.io.OutputStream.nullOutputStream())
                .build();
    }

    private static Value load(Context context, String name) {
        ProxyExecutable read = args -> readResource(args[0].asString());
        return context.eval(source("js", name)).execute(read);
    }

    private static final Map<String, Source> SOURCES = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The resource {@code name} as one {@link Source} per process. The engine caches parsed and compiled code per
     * source, and only as long as the source is reachable: a new Source per context would be parsed and compiled
     * again in every context, where one kept source lets every context share its code.
     */
    static Source source(String language, String name) {
        return SOURCES.computeIfAbsent(language + ":" + name,
                k -> Source.newBuilder(language, resource(name), name).buildLiteral());
    }

    /**
     * The text of the guest resource {@code name} (under {@link #RESOURCES}), with its parts put in. A line that is
     * only {@code // @include PATH} (JavaScript) or {@code # @include PATH} (Python) stands for the resource PATH,
     * each of whose lines gets the directive's indentation, so a part reads as the code it replaces would have.
     * Parts are kept in files of their own, linted and unit-tested on their own (java/package.json,
     * tests/guest/); the contexts see one text. Assembled here, at load time, rather than by a build step: the
     * text is read once per process and kept as one {@link Source} by {@link #source}, so every context still
     * shares its compiled code; and the class-path resources, Surefire, the Python package's jar and the Node
     * tests (which assemble with the same rule) all see the same parts without generated files.
     */
    static String resource(String name) {
        String text = packageResource(name);
        Matcher m = INCLUDE.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() * 4);
        int at = 0;
        do {
            out.append(text, at, m.start());
            String indent = m.group(1);
            String part = resource(m.group(2));
            part = part.endsWith("\n") ? part.substring(0, part.length() - 1) : part;
            for (String line : part.split("\n", -1)) {
                out.append(line.isEmpty() ? "" : indent).append(line).append('\n');
            }
            out.setLength(out.length() - 1);
            at = m.end();
        } while (m.find());
        return out.append(text, at, text.length()).toString();
    }

    private static final Pattern INCLUDE = Pattern.compile("^([ \\t]*)(?://|#) @include (\\S+)[ \\t]*$",
            Pattern.MULTILINE);

    /** The folder of the guest resources (JavaScript and Python) on the class path. */
    private static final String RESOURCES = "/io/github/langchaingraalvm/sandbox/";

    private static String packageResource(String name) {
        try (InputStream in = CellCompiler.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readResource(String path) {
        ClassLoader loader = CellCompiler.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(path)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
