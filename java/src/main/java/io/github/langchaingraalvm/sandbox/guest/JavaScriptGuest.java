package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * A persistent JavaScript REPL in its own GraalJS context (see {@link GuestInterpreter}). Cells may use top-level
 * {@code let}, {@code const}, {@code class} and {@code await}, and TypeScript syntax; a final Promise is awaited,
 * and host calls settle Promises on the guest thread. With {@link SandboxOptions#agentModules()}, cells and
 * modules may import the agent's files.
 *
 * <pre>{@code
 * try (GuestInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
 *     js.eval("const total = [1, 2, 3].reduce((a, b) => a + b)");
 *     System.out.println(js.eval("total * 2").value()); // 12
 * }
 * }</pre>
 */
public final class JavaScriptGuest extends AbstractGuestInterpreter<Source> {
    private static final Pattern GRAAL_SYNTAX = Pattern.compile("^(?:SyntaxError: )?cell:(\\d+):(\\d+) ([^\\n]*)");
    // `using` too: text given to eval() in a literal may declare one, which the engine parses without complaint.
    private static final Pattern NEEDS_COMPILER = Pattern.compile("\\b(?:let|const|class|await|using)\\b");
    /** Gathers the prelude's settings into one object; one Source, so every context shares its parsed code. */
    private static final Source CONFIG = Source.newBuilder("js", "(function (clock, epoch, capture, hostCall,"
            + " isErrorObject) { return { frozenClock: clock, epochMillis: epoch, captureConsole: capture, hostCall,"
            + " isErrorObject }; })", "config.js").buildLiteral();

    /**
     * The binding that carries the completion value of a cell whose {@code using} declarations the cell compiler
     * rewrote (cell.js, COMPLETION): a global lexical one, so it is no property of the global object and no
     * snapshot holds it, declared once per context so that the cells only assign it.
     */
    private static final Source COMPLETION_BINDING = Source.newBuilder("js", "let \u0192$cellValue;",
            "completion.js").buildLiteral();

    /**
     * The brand check behind the guest's {@code Error.isError} (prelude/is_error.js): whether a guest object has
     * [[ErrorData]]. GraalJS makes exactly the objects its Error constructors create (subclass instances too)
     * interop exceptions; an object that only inherits {@code Error.prototype}, and a proxy, are not. Reading it
     * runs no guest code.
     */
    private static final ProxyExecutable IS_ERROR_OBJECT = args -> args.length == 1 && args[0].isException();

    private Value api;
    private Value codec;
    /** The polyfill bundle's groups once this context loaded it (null before), and the groups it ran. */
    private Value polyfills;
    private final Set<String> installedPolyfills = ConcurrentHashMap.newKeySet();
    /** How many times a context of this interpreter evaluated the polyfill bundle. */
    private final AtomicInteger polyfillBundleLoads = new AtomicInteger();
    /** Modules imported from the agent's files, and their reader; null when the options do not allow it. */
    private final AgentModules modules;
    private final HostModuleReader moduleReader;

    public JavaScriptGuest(Engines engines, SandboxOptions options) {
        super(engines, options, "graalvm-sandbox", options.stackBytes());
        this.moduleReader = options.agentModules()
                ? new HostModuleReader(engines, options, guest, calls, () -> wallDeadline) : null;
        this.modules = moduleReader == null ? null : new AgentModules(moduleReader);
    }

    @Override
    public String language() {
        return "js";
    }

    /** Whether cells may import the agent's files ({@link SandboxOptions#agentModules()}). */
    @Override
    public boolean importsModules() {
        return moduleReader != null;
    }

    @Override
    public void completeModuleRead(long callId, boolean ok, String text) {
        super.completeModuleRead(callId, ok, text);
        if (moduleReader != null) {
            moduleReader.complete(callId, ok, text);
        }
    }

    @Override
    Context.Builder contextBuilder() {
        Context.Builder builder = guestContext(engines.javaScriptEngine());
        if (modules != null) {
            builder.allowIO(IOAccess.newBuilder().fileSystem(modules).build());
        }
        return builder;
    }

    /** The builder of every JavaScript guest context: the sandbox's restrictions and the language's options. */
    static Context.Builder guestContext(Engine engine) {
        return Engines.restrictedContext("js", engine)
                // The newest level CONSTRAINED accepts; "staging" is refused below TRUSTED.
                .option("js.ecmascript-version", "latest")
                .option("js.strict", "true")
                .option("js.load", "false")
                .option("js.print", "false")
                .option("js.graal-builtin", "false")
                .option("js.console", "false")
                .option("js.locale", "en-US");
    }

    /**
     * Parses the guest resources every context evaluates (the prelude and the snapshot codec) in a throw-away
     * context with the guests' options, so the engine holds their code before the first context needs it. A fresh
     * process's first context is on the way to its first result; parsed here, on another thread, it does not
     * parse them itself.
     */
    public static void parseGuestResources(Engine engine) {
        try (Context c = guestContext(engine).build()) {
            c.parse(CellCompiler.source("js", "prelude.js"));
            c.parse(CellCompiler.source("js", "snapshot.js"));
        }
    }

    @Override
    void initialize(Context c) {
        c.eval(COMPLETION_BINDING);
        Value factory = c.eval(CellCompiler.source("js", "prelude.js"));
        ProxyExecutable emit = args -> {
            // The guest sends at most a capped prefix of a long line, the line's full length to count, and its stream.
            String line = args[0].asString();
            console.appendLine(line, args.length > 1 && args[1].fitsInLong() ? args[1].asLong() : -1);
            if (streamed.active()) {
                streamed.write(StreamedOutput.streamName(args, 2), line + "\n");
            }
            return null;
        };
        ProxyExecutable hostCall = args -> startHostCall(args[0].asString(), args[1].asString(), args[2].asString());
        Value config = c.eval(CONFIG).execute(options.clock() == SandboxOptions.Clock.FROZEN,
                (double) options.frozenEpochMillis(), options.captureConsole(), hostCall, IS_ERROR_OBJECT);
        api = factory.execute(emit, config);
        if (options.snapshots()) {
            // Built before any guest code runs, so the codec's captured intrinsics are the pristine ones.
            codec = c.eval(CellCompiler.source("js", "snapshot.js")).execute();
        }
    }

    @Override
    void forgetContext() {
        api = null;
        codec = null;
        polyfills = null;
        installedPolyfills.clear();
    }

    /** The polyfill groups the current context has run ({@link Polyfills}); empty until a cell names one. */
    Set<String> installedPolyfills() {
        return Set.copyOf(installedPolyfills);
    }

    /** How many times a context of this interpreter has evaluated the polyfill bundle (at most once per context). */
    int polyfillBundleLoads() {
        return polyfillBundleLoads.get();
    }

    /**
     * Runs, once per context, each polyfill group {@code text} names, before the code that names it runs, and makes
     * the built-ins it adds known to the snapshot codec.
     */
    private void installPolyfills(CharSequence text) {
        for (Polyfills.Group g : Polyfills.needed(text, installedPolyfills)) {
            if (polyfills == null) {
                polyfills = context.eval(CellCompiler.source("js", Polyfills.RESOURCE)).execute();
                polyfillBundleLoads.incrementAndGet();
            }
            api.invokeMember("installPolyfill", polyfills.getMember(g.name()));
            installedPolyfills.add(g.name());
            if (codec != null) {
                for (String path : g.paths()) {
                    int dot = path.lastIndexOf('.');
                    codec.invokeMember("adoptIntrinsics", dot < 0 ? null : path.substring(0, dot),
                            path.substring(dot + 1), g.residues().contains(path));
                }
            }
        }
    }

    @Override
    void bindGlobal(String name, Object hostValue) {
        context.getBindings("js").putMember(name, hostValue);
    }

    @Override
    void beginEval() {
        if (modules != null) {
            moduleReader.clear();
            modules.beginEval();
        }
    }

    @Override
    String hostCallErrorType() {
        return "HostError";
    }

    @Override
    void deliverResult(long callId, boolean ok, String resultJson) {
        countHostBytes(resultJson.length());
        api.invokeMember("completeCall", (double) callId, ok, resultJson);
    }

    @Override
    void deliverBatch(long[] callIds, String batchJson) {
        countHostBytes(batchJson.length());
        boolean any = false;
        for (long id : callIds) {
            any |= calls.settleResult(id);
        }
        if (any) {
            api.invokeMember("completeCalls", batchJson);
        }
    }

    @Override
    boolean hostCallsIntact() {
        return api.invokeMember("hostCallsIntact").asBoolean();
    }

    @Override
    void seedRandom(Long seed) {
        // A number, exact: the host draws seeds below 2^53.
        api.invokeMember("seedRandom", seed == null ? null : (Object) seed.doubleValue());
    }

    @Override
    void installHostCalls(HostBridge b) {
        api.invokeMember("installHostCalls", b.exposeTools() ? String.join(",", b.toolNames()) : null,
                b.exposeTask(), b.exposeFs());
    }

    @Override
    String encodeGlobals(long maxBytes) {
        Value names = api.invokeMember("modelGlobals");
        return codec.invokeMember("encode", names, (double) maxBytes).asString();
    }

    @Override
    Value decodeGlobals(String payload) {
        // A restored value may be an instance or a function of a polyfilled built-in: its name is in the payload.
        installPolyfills(payload);
        return codec.invokeMember("decode", payload);
    }

    /** The cell as a script: as it is when it needs no rewrite, else through the cell compiler. */
    @Override
    Source compile(String code, CellCompiler.Budget budget) {
        api.invokeMember("dropCalls");
        long parseStart = System.nanoTime();
        Source source = directSource(code);
        // The engine's parse cannot be interrupted; the size and nesting limits bound it, and it counts.
        budget.leftNanos -= System.nanoTime() - parseStart;
        if (source == null) {
            CellCompiler.Compiled compiled =
                    engines.compiler().compile(code, modules != null, budget);
            if (compiled.syntaxError() != null) {
                throw new CellSyntaxError(compiled.syntaxError());
            }
            source = Source.newBuilder("js", compiled.script(), "cell").buildLiteral();
        }
        return source;
    }

    /**
     * The cell as it is, when it needs no rewrite: it declares nothing lexical at the top level, does not await
     * there, names no {@code using}, and parses as JavaScript. Checking the words is only a filter; the parser
     * decides. Returns null when the cell must go through the cell compiler.
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

    @Override
    EvalOutcome run(Source cell, Watchdog.Ticket t, long start) {
        try {
            // Under the watchdog: a group's set-up reads objects the model may have changed.
            installPolyfills(cell.getCharacters());
            Value value = context.eval(cell);
            Value settled = settle(value);
            if (settled == null) {
                return outcome(EvalOutcome.Status.ERROR, "Deadlock",
                        "The final Promise is still pending and nothing can settle it: no host call is in flight."
                                + " A Promise is missing its resolver, or code waits on something that never happens.",
                        "", false, start);
            }
            // Host calls the cell started without awaiting them still finish inside this eval.
            pump(() -> false);
            Value rendered = api.invokeMember("render", settled, renderBudget());
            String text = rendered.getArrayElement(0).asString();
            boolean cut = rendered.getArrayElement(1).asBoolean();
            // The value's kind and plain form, as LangChain4j's engines print it (EvalOutcome.plainText()).
            if (settled.isNull()) {
                return ok(text, cut, start, EvalOutcome.ValueKind.EMPTY, null);
            }
            if (settled.isString()) {
                return ok(text, cut, start, EvalOutcome.ValueKind.PRIMITIVE, text);
            }
            if (settled.isNumber() || settled.isBoolean()) {
                return ok(text, cut, start, EvalOutcome.ValueKind.PRIMITIVE, String.valueOf(settled.as(Object.class)));
            }
            return ok(text, cut, start, EvalOutcome.ValueKind.OTHER, text);
        } catch (RejectedPromise r) {
            return guestError(r.reason, t, start);
        } catch (StoppedWhileWaiting w) {
            return stopped(t.reason, t, start);
        } catch (WallTimeExceeded w) {
            return outcome(EvalOutcome.Status.TIMEOUT, "Timeout",
                    GuestThread.wallTimeMessage(options, calls.openCount()) + " Globals from earlier calls are kept.",
                    "", false, start);
        }
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
    private boolean pump(BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            if (calls.openCount() == 0 && !guest.hasCompletions()) {
                return false;
            }
            Runnable next;
            try {
                next = nextHostResult();
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

    @Override
    EvalOutcome guestFailure(PolyglotException e, Watchdog.Ticket t, long start) {
        if (e.isSyntaxError() && e.getMessage() != null && GRAAL_SYNTAX.matcher(e.getMessage()).find()) {
            return outcome(EvalOutcome.Status.ERROR, "SyntaxError", syntaxMessage(e.getMessage()), "", false, start);
        }
        if (e.isGuestException() && !e.isInternalError()) {
            return guestError(e.getGuestObject(), t, start);
        }
        return null;
    }

    @Override
    EvalOutcome hostFailure(PolyglotException e, long start) {
        if (e.isHostException()) {
            return outcome(EvalOutcome.Status.ERROR, "HostError", String.valueOf(e.getMessage()), "", false, start);
        }
        return null;
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
        return outcome(EvalOutcome.Status.ERROR, type, message, stack, false, start);
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
}
