package io.github.langchaingraalvm.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.atomic.AtomicInteger;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * A persistent JavaScript REPL in its own GraalVM context, run by its own guest thread. Globals persist across
 * {@link #eval(String)} calls; every call is bounded by the options' time and memory limits.
 *
 * <p>Thread-safe: any thread may call {@code eval}; one eval runs at a time, and a call made while another is
 * running returns a {@code ConcurrentEval} error at once instead of waiting.
 *
 * <pre>{@code
 * try (Interpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
 *     js.eval("const total = [1, 2, 3].reduce((a, b) => a + b)");
 *     EvalOutcome outcome = js.eval("total * 2");
 *     System.out.println(outcome.value()); // 12
 * }
 * }</pre>
 */
public final class Interpreter implements AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final Pattern GRAAL_SYNTAX = Pattern.compile("^(?:SyntaxError: )?cell:(\\d+):(\\d+) ([^\\n]*)");
    private static final Pattern NEEDS_COMPILER = Pattern.compile("\\b(?:let|const|class|await)\\b");

    private final Sandbox sandbox;
    private final SandboxOptions options;
    private final ConsoleBuffer console;
    private final GuestThread guest;
    private Context context;
    private Value api;
    private Value codec;
    // Host calls: touched on the owner thread only.
    private final HostCallBook calls = new HostCallBook();
    private String installedShape = "";
    private long wallDeadline;
    private volatile boolean warmUp;
    /** Modules imported from the agent's files, and their reader; null when the options do not allow it. */
    private final AgentModules modules;
    private final HostModuleReader moduleReader;

    Interpreter(Sandbox sandbox, SandboxOptions options) {
        this.sandbox = sandbox;
        this.options = options;
        this.console = new ConsoleBuffer(Math.max(0, options.maxResultChars()));
        this.guest = new GuestThread("graalvm-sandbox-" + IDS.incrementAndGet(), options, options.stackBytes(),
                sandbox.watchdog(), () -> discardContext(true));
        this.moduleReader = options.agentModules()
                ? new HostModuleReader(sandbox, options, guest, calls, () -> wallDeadline) : null;
        this.modules = moduleReader == null ? null : new AgentModules(moduleReader);
    }

    /** The options this interpreter runs under. */
    public SandboxOptions options() {
        return options;
    }

    /** Whether an eval is running. */
    public boolean isBusy() {
        return guest.isBusy();
    }

    /**
     * Whether this interpreter is closed: by {@link #close()}, or by an eval whose guest was stuck in a builtin that
     * ignores interrupts and was given up (its outcome says so). A closed interpreter refuses further calls; create
     * a new one.
     */
    public boolean isClosed() {
        return guest.isClosed();
    }

    /**
     * Runs one cell and returns its outcome. Never throws for anything the guest does: syntax errors, guest
     * exceptions, timeouts and limits all come back as an {@link EvalOutcome}. A guest stuck in a builtin that
     * ignores interrupts (a long Java loop inside GraalJS or GraalPy) cannot be stopped; {@code eval} then returns
     * about {@link SandboxOptions#interruptGrace()} plus 5 s after the stop, and this interpreter is closed
     * ({@link #isClosed()}).
     *
     * @throws IllegalStateException if the interpreter is closed, or if called from its own guest thread
     */
    public EvalOutcome eval(String code) {
        return eval(code, null);
    }

    /**
     * Runs one cell with host functions: the guest sees {@code tools} and {@code task} as {@code bridge} describes,
     * and its calls go to the bridge's handler, which settles them with {@link #completeHostCall}. Time the guest
     * spends waiting on host calls does not count against the timeout; the whole eval is capped by
     * {@link SandboxOptions#maxWallTime()}. Calls still running when the eval ends are abandoned: their later
     * completions are ignored.
     *
     * @param bridge the host functions of this eval, or null for none (globals installed by an earlier bridge
     *     stay, and calling them rejects)
     */
    public EvalOutcome eval(String code, HostBridge bridge) {
        if (!warmUp) {
            sandbox.noteRealEval();
        }
        return guest.eval(() -> runCell(code, bridge));
    }

    /**
     * Builds this interpreter's context now, on its guest thread, so the first eval does not wait for it. Safe to
     * call at any time; it counts as no eval (the sandbox's idle-time warm-up keeps running).
     */
    public void prepare() {
        guest.exclusive(() -> {
            ensureContext();
            return null;
        });
    }

    /** Marks this interpreter as the sandbox's engine warm-up, whose evals do not stop the warm-up. */
    void markWarmUp() {
        warmUp = true;
    }

    /**
     * Saves the model's globals as a versioned JSON text: data values exactly, functions and classes by their
     * source, and anything else as a residue that throws a clear error when touched after a restore.
     *
     * @param maxBytes the largest snapshot allowed, in UTF-8 bytes; 0 or less for no limit
     * @throws SnapshotException if it is larger than {@code maxBytes}, or the guest made it fail or time out
     * @throws IllegalStateException if an eval is running or the interpreter is closed
     */
    public String snapshot(long maxBytes) {
        return guest.exclusive(() -> takeSnapshot(maxBytes));
    }

    /**
     * Restores globals saved by {@link #snapshot(long)} into this interpreter, before any eval. A payload that
     * fails validation changes nothing.
     *
     * @return the names that were restored
     * @throws SnapshotException if the payload is corrupt, foreign, or its restore did not finish
     */
    public List<String> restore(String payload) {
        return guest.exclusive(() -> restoreSnapshot(payload));
    }

    /**
     * Settles a host call started through a {@link HostCallHandler}. Thread-safe and non-blocking: the Promise is
     * settled on the guest thread. A call that no longer belongs to a running eval is ignored.
     *
     * @param callId the id the handler was given
     * @param ok true to resolve with {@code resultJson}, false to reject with it
     * @param resultJson when resolving, the value as JSON (with the tagged forms {@link HostCallHandler} describes);
     *     when rejecting, {@code {"type": "...", "message": "..."}}
     */
    public void completeHostCall(long callId, boolean ok, String resultJson) {
        Objects.requireNonNull(resultJson, "resultJson");
        guest.complete(() -> finishHostCall(callId, ok, resultJson));
    }

    /**
     * Settles many host calls at once: {@code batchJson} is a JSON array of {@code [callId, ok, value]} entries,
     * where {@code value} is what {@link #completeHostCall} takes as JSON, embedded. {@code callIds} lists the same
     * ids. Thread-safe and non-blocking.
     */
    public void completeHostCalls(long[] callIds, String batchJson) {
        Objects.requireNonNull(batchJson, "batchJson");
        long[] ids = callIds.clone();
        guest.complete(() -> {
            countHostBytes(batchJson.length());
            boolean any = false;
            for (long id : ids) {
                any |= calls.settle(id);
            }
            if (any) {
                api.invokeMember("completeCalls", batchJson);
            }
        });
    }

    /**
     * Delivers the source of a module the guest imports (a host call of kind {@code "fs"} named {@code "module"}),
     * or why it cannot be read. Thread-safe and non-blocking; the guest thread waits for it.
     *
     * @param ok true when {@code text} is the module's source; false when it is the error's message, which starts
     *     with a Node error code such as {@code ENOENT:} or {@code EACCES:}
     */
    public void completeModuleRead(long callId, boolean ok, String text) {
        Objects.requireNonNull(text, "text");
        if (moduleReader != null) {
            moduleReader.complete(callId, ok, text);
        }
    }

    private void finishHostCall(long callId, boolean ok, String resultJson) {
        if (!calls.settle(callId)) {
            return;
        }
        countHostBytes(resultJson.length());
        api.invokeMember("completeCall", (double) callId, ok, resultJson);
    }

    /** Counts text the host sent into the running eval against its memory limit (as UTF-16, the upper bound). */
    private void countHostBytes(long chars) {
        Watchdog.Ticket t = guest.ticket();
        if (t != null) {
            t.hostBytes += 2 * chars;
        }
    }

    /** Called by the guest's bridge functions: returns the call's id, or "Type\0message" when it is refused. */
    private Object startHostCall(String kind, String name, String inputJson) {
        return calls.start(kind, name, inputJson, "HostError");
    }

    /** Binds a host value (a polyglot proxy) as a guest global. For host bridges and tests in this package. */
    void defineGlobal(String name, Object hostValue) {
        guest.exclusive(() -> {
            ensureContext();
            context.getBindings("js").putMember(name, hostValue);
            return null;
        });
    }

    private void requireSnapshots() {
        if (!options.snapshots()) {
            throw new IllegalStateException("snapshots are off for this interpreter; enable SandboxOptions.snapshots");
        }
    }

    private String takeSnapshot(long maxBytes) {
        requireSnapshots();
        ensureContext();
        Watchdog.Ticket t = watch();
        try {
            Value names = api.invokeMember("modelGlobals");
            return codec.invokeMember("encode", names, maxBytes > 0 ? (double) maxBytes : -1.0).asString();
        } catch (PolyglotException e) {
            if (t.reason != null) {
                throw new SnapshotException("taking the snapshot was stopped: " + t.reason, false);
            }
            boolean tooLarge = String.valueOf(e.getMessage()).contains("snapshot exceeds maxBytes");
            throw new SnapshotException(tooLarge ? "the snapshot is larger than " + maxBytes + " bytes"
                    : "the snapshot could not be taken: " + e.getMessage(), tooLarge);
        } finally {
            unwatch(t);
        }
    }

    private List<String> restoreSnapshot(String payload) {
        requireSnapshots();
        ensureContext();
        Watchdog.Ticket t = watch();
        try {
            Value restored = codec.invokeMember("decode", payload);
            List<String> names = new ArrayList<>();
            for (long i = 0; i < restored.getArraySize(); i++) {
                names.add(restored.getArrayElement(i).asString());
            }
            return names;
        } catch (PolyglotException e) {
            // decode validates before it changes anything, but a restore stopped half-way leaves a mixed state.
            t.forcedClose = t.forcedClose || t.reason != null;
            throw new SnapshotException(t.reason != null ? "restoring the snapshot was stopped: " + t.reason
                    : String.valueOf(e.getMessage()), false);
        } finally {
            unwatch(t);
        }
    }

    private Watchdog.Ticket watch() {
        return guest.watch(context, options.heapAllowanceBytes());
    }

    private void unwatch(Watchdog.Ticket t) {
        guest.unwatch(t, () -> discardContext(true));
    }

    /** Stops the running eval, if any; it returns a {@code Cancelled} error. Returns at once. */
    public void cancel() {
        guest.cancel();
    }

    /** Stops any running eval, closes the context and ends the guest thread. Idempotent. */
    @Override
    public void close() {
        guest.close();
    }

    private void ensureContext() {
        if (context != null) {
            return;
        }
        Context.Builder builder = Sandbox.restrictedContext("js", sandbox.engine())
                // The newest level CONSTRAINED accepts; "staging" is refused below TRUSTED.
                .option("js.ecmascript-version", "latest")
                .option("js.strict", "true")
                .option("js.load", "false")
                .option("js.print", "false")
                .option("js.graal-builtin", "false")
                .option("js.console", "false")
                .option("js.locale", "en-US");
        if (modules != null) {
            builder.allowIO(IOAccess.newBuilder().fileSystem(modules).build());
        }
        Context c = builder.build();
        try {
            Value factory = c.eval(CellCompiler.source("js", "prelude.js"));
            ProxyExecutable emit = args -> {
                // The guest sends at most a capped prefix of a long line, and the line's full length to count.
                console.appendLine(args[0].asString(), args.length > 1 && args[1].fitsInLong() ? args[1].asLong() : -1);
                return null;
            };
            ProxyExecutable hostCall = args -> startHostCall(args[0].asString(), args[1].asString(),
                    args[2].asString());
            Value config = c.eval("js", "(function (clock, epoch, capture, hostCall) {"
                    + " return { frozenClock: clock, epochMillis: epoch, captureConsole: capture, hostCall }; })")
                    .execute(options.clock() == SandboxOptions.Clock.FROZEN, (double) options.frozenEpochMillis(),
                            options.captureConsole(), hostCall);
            api = factory.execute(emit, config);
            if (options.snapshots()) {
                // Built before any guest code runs, so the codec's captured intrinsics are the pristine ones.
                codec = c.eval(CellCompiler.source("js", "snapshot.js")).execute();
            }
            context = c;
        } catch (RuntimeException e) {
            c.close(true);
            throw e;
        }
    }

    private void discardContext(boolean force) {
        Context c = context;
        context = null;
        api = null;
        codec = null;
        installedShape = "";
        if (c != null) {
            try {
                c.close(force);
            } catch (IllegalStateException | PolyglotException e) {
                // Closed already, by the watchdog.
            }
        }
    }

    private EvalOutcome runCell(String code, HostBridge hostBridge) {
        long start = System.nanoTime();
        console.clear();
        guest.clearCompletions();
        calls.begin(hostBridge);
        if (modules != null) {
            moduleReader.clear();
            modules.beginEval();
        }
        wallDeadline = start + options.maxWallTime().toNanos();
        Source source;
        try {
            ensureContext();
            api.invokeMember("dropCalls");
            installBridge(hostBridge);
            source = directSource(code);
            if (source == null) {
                CellCompiler.Compiled compiled = sandbox.compiler().compile(code, modules != null);
                if (compiled.syntaxError() != null) {
                    return outcome(EvalOutcome.Status.ERROR, null, "SyntaxError", compiled.syntaxError(), "", false,
                            start);
                }
                source = Source.newBuilder("js", compiled.script(), "cell").buildLiteral();
            }
        } catch (RuntimeException e) {
            calls.end();
            discardContext(true);
            GuestThread.Stop stop = GuestThread.notStarted(e);
            return outcome(stop.status(), null, stop.type(), stop.message(), "", stop.reset(), start);
        }
        if (guest.cancelRequested()) {
            return stopped(Watchdog.Reason.CANCELLED, null, start);
        }
        Watchdog.Ticket t = watch();
        try {
            Value value = context.eval(source);
            Value settled = settle(value);
            if (settled == null) {
                return outcome(EvalOutcome.Status.ERROR, null, "Deadlock",
                        "The final Promise is still pending and nothing can settle it: no host call is in flight."
                                + " A Promise is missing its resolver, or code waits on something that never happens.",
                        "", false, start);
            }
            // Host calls the cell started without awaiting them still finish inside this eval.
            pump(() -> false);
            // Render a little more than is kept, so the marker can say how much was cut without rendering it all.
            Value rendered = api.invokeMember("render", settled, renderBudget());
            return new EvalOutcome(EvalOutcome.Status.OK, rendered.getArrayElement(0).asString(),
                    rendered.getArrayElement(1).asBoolean(), console.text(), console.dropped(), null, null, null,
                    false, System.nanoTime() - start, options.maxResultChars());
        } catch (PolyglotException e) {
            return failure(e, t, start);
        } catch (RejectedPromise r) {
            return guestError(r.reason, t, start);
        } catch (StoppedWhileWaiting w) {
            return stopped(t.reason, t, start);
        } catch (WallTimeExceeded w) {
            return outcome(EvalOutcome.Status.TIMEOUT, null, "Timeout",
                    GuestThread.wallTimeMessage(options, calls.openCount()) + " Globals from earlier calls are kept.", "", false,
                    start);
        } finally {
            calls.end();
            unwatch(t);
        }
    }

    /** Installs the globals of {@code b} when they differ from the ones installed; null leaves them as they are. */
    private void installBridge(HostBridge b) {
        if (b == null || (b.shape().equals(installedShape) && api.invokeMember("bridgesIntact").asBoolean())) {
            return;
        }
        api.invokeMember("installBridges", b.exposeTools() ? String.join(",", b.toolNames()) : null,
                b.exposeTask(), b.exposeFs());
        installedShape = b.shape();
    }

    /** Thrown inside the owner thread when the eval is stopped while it waits on host calls. */
    private static final class StoppedWhileWaiting extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoppedWhileWaiting() {
            super(null, null, false, false);
        }
    }

    /** Thrown inside the owner thread when an eval outlives {@link SandboxOptions#maxWallTime()}. */
    private static final class WallTimeExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WallTimeExceeded() {
            super(null, null, false, false);
        }
    }

    /**
     * The cell as it is, when it needs no rewrite: it declares nothing lexical at the top level, does not await
     * there, and parses as JavaScript. Checking the words is only a filter; the parser decides. Returns null when
     * the cell must go through the cell compiler.
     */
    private Source directSource(String code) {
        if (NEEDS_COMPILER.matcher(code).find()) {
            return null;
        }
        Source source = Source.newBuilder("js", code, "cell").buildLiteral();
        try {
            context.parse(source);
            return source;
        } catch (PolyglotException e) {
            return null;
        }
    }

    /** Thrown inside the owner thread when the final Promise rejects. */
    private static final class RejectedPromise extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Value reason;

        RejectedPromise(Value reason) {
            super(null, null, false, false);
            this.reason = reason;
        }
    }

    /** Awaits a thenable result on this thread; returns null when it can never settle. */
    private Value settle(Value value) {
        if (!api.invokeMember("isThenable", value).asBoolean()) {
            return value;
        }
        Value[] result = new Value[2];
        boolean[] state = new boolean[2];
        ProxyExecutable onValue = args -> {
            state[0] = true;
            result[0] = args.length > 0 ? args[0] : null;
            return null;
        };
        ProxyExecutable onError = args -> {
            state[1] = true;
            result[1] = args.length > 0 ? args[0] : null;
            return null;
        };
        api.invokeMember("settle", value, onValue, onError);
        if (!pump(() -> state[0] || state[1])) {
            return null;
        }
        if (state[1]) {
            throw new RejectedPromise(result[1]);
        }
        return result[0] == null ? context.eval("js", "undefined") : result[0];
    }

    /**
     * Runs host-call completions on this thread until {@code done} holds or no call is left in flight. The
     * watchdog's clock stops while it waits. Returns whether {@code done} holds.
     *
     * @throws WallTimeExceeded when the eval's wall-clock cap passes first
     */
    private boolean pump(java.util.function.BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            if (calls.openCount() == 0 && !guest.hasCompletions()) {
                return false;
            }
            Runnable next;
            try {
                next = guest.nextCompletion(wallDeadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for host calls", e);
            }
            if (next == null) {
                throw new WallTimeExceeded();
            }
            if (guest.ticket().reason != null) {
                throw new StoppedWhileWaiting();
            }
            next.run();
        }
        return true;
    }

    private int renderBudget() {
        return Math.max(1000, options.maxResultChars()) * 4;
    }

    private EvalOutcome failure(PolyglotException e, Watchdog.Ticket t, long start) {
        Watchdog.Reason reason = t.reason;
        if (reason != null && (e.isCancelled() || e.isInterrupted() || t.forcedClose)) {
            return stopped(reason, t, start);
        }
        if (e.isSyntaxError() && e.getMessage() != null && GRAAL_SYNTAX.matcher(e.getMessage()).find()) {
            return outcome(EvalOutcome.Status.ERROR, null, "SyntaxError", syntaxMessage(e.getMessage()), "", false,
                    start);
        }
        if (e.isGuestException() && !e.isInternalError()) {
            return guestError(e.getGuestObject(), t, start);
        }
        if (e.isResourceExhausted()) {
            t.forcedClose = true;
            return outcome(EvalOutcome.Status.LIMIT, null, "OutOfMemory",
                    "The guest exhausted a host resource (" + e.getMessage() + "). The interpreter was restarted:"
                            + " all globals from earlier calls are gone.", "", true, start);
        }
        if (e.isHostException()) {
            return outcome(EvalOutcome.Status.ERROR, null, "HostError", String.valueOf(e.getMessage()), "", false,
                    start);
        }
        t.forcedClose = true;
        return outcome(EvalOutcome.Status.ERROR, null, "InternalError", String.valueOf(e.getMessage())
                + " The interpreter was restarted: all globals from earlier calls are gone.", "", true, start);
    }

    private EvalOutcome guestError(Value thrown, Watchdog.Ticket t, long start) {
        String type = "Error";
        String message;
        String stack = "";
        try {
            Value d = api.invokeMember("describeError", thrown);
            type = d.getArrayElement(0).asString();
            message = d.getArrayElement(1).asString();
            stack = d.getArrayElement(2).asString();
        } catch (PolyglotException inner) {
            if (t.reason != null) {
                return stopped(t.reason, t, start);
            }
            message = thrown == null ? "null" : String.valueOf(thrown);
        }
        return outcome(EvalOutcome.Status.ERROR, null, type, message, stack, false, start);
    }

    private EvalOutcome stopped(Watchdog.Reason reason, Watchdog.Ticket t, long start) {
        GuestThread.Stop stop = GuestThread.describeStop(reason, t, options);
        return outcome(stop.status(), null, stop.type(), stop.message(), "", stop.reset(), start);
    }

    /** GraalJS says "cell:1:0 Expected ...\nsource line\n^"; the model gets "Expected ... (1:1)". */
    static String syntaxMessage(String raw) {
        if (raw == null) {
            return "invalid syntax";
        }
        Matcher m = GRAAL_SYNTAX.matcher(raw);
        if (m.find()) {
            return m.group(3) + " (" + m.group(1) + ":" + (Integer.parseInt(m.group(2)) + 1) + ")";
        }
        return raw.strip();
    }

    private EvalOutcome outcome(EvalOutcome.Status status, String value, String errorType, String errorMessage,
            String stack, boolean reset, long start) {
        return new EvalOutcome(status, value, false, console.text(), console.dropped(), errorType, errorMessage, stack,
                reset, System.nanoTime() - start, options.maxResultChars());
    }
}
