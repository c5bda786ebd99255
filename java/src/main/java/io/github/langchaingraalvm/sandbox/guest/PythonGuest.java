package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.hostcall.HostCallBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * A persistent Python REPL in its own GraalPy context (see {@link GuestInterpreter}), with the same outcome
 * envelope, watchdog, limits and snapshot contract as {@link JavaScriptGuest}.
 *
 * <p>GraalPy runs under {@link SandboxPolicy#CONSTRAINED} like JavaScript, in an engine of its own (all contexts of
 * an engine share its policy and languages): no host access beyond our own proxies, no host files (the guest reads
 * only GraalPy's own standard library), no sockets, native code, threads, processes, environment or polyglot
 * access. Cells run as in a notebook: globals persist, and the value of a final expression is the result. Host
 * calls are {@code tools.<name>(**kwargs)} (blocking), {@code tools.<name>.start(...)} with
 * {@code tools.gather(...)} for concurrent calls, and {@code task(...)}; the guest imports no modules from the
 * agent's files ({@link #importsModules()} is false).
 *
 * <p>The GraalPy jars are optional; {@link #available()} says whether they are on the module path.
 */
public final class PythonGuest extends AbstractGuestInterpreter<String> {
    private Value api;
    /** The number of the context's last cell: the model's cells are sources named "cell 1", "cell 2", ... */
    private int cells;
    /** Results of settled host calls, "1" + value JSON or "0" + error JSON, until the guest collects them. */
    private final Map<Long, String> results = new HashMap<>();

    public PythonGuest(Engines engines, SandboxOptions options) {
        super(requireGraalPy(engines), options, "graalpy-sandbox", engines.access.pythonStackBytes(options));
    }

    private static Engines requireGraalPy(Engines engines) {
        if (!available()) {
            throw new IllegalStateException("GraalPy is not installed: the org.graalvm.polyglot:python jars are not on"
                    + " the module path (build them with `mvn -Ppython package`, which copies them to"
                    + " java/target/runtime/python)");
        }
        return engines;
    }

    /** Whether the GraalPy language is installed. */
    public static boolean available() {
        if (ModuleLayer.boot().findModule("org.graalvm.py").isPresent()) {
            return true;
        }
        try {
            Class.forName("com.oracle.graal.python.PythonLanguage", false, PythonGuest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public String language() {
        return "python";
    }

    @Override
    Context.Builder contextBuilder() {
        return Engines.restrictedContext("python", engines.pythonEngine());
    }

    @Override
    void initialize(Context c) {
        // The guest's code lives in a function's scope, not in the __main__ module where the model's cells run.
        Value entries = c.eval(CellCompiler.source("python", "python_guest.py")).execute();
        // Signals, timers and process spawners act on the whole process: refused before any model code runs.
        entries.getArrayElement(0).execute();
        ProxyExecutable emit = args -> {
            String text = args[0].asString();
            console.append(text);
            streamed.write(StreamedOutput.streamName(args, 1), text);
            return null;
        };
        double frozenSeconds = options.frozenEpochMillis() / 1000.0;
        ProxyExecutable seal = originals -> sealedClock(originals.clone(), frozenSeconds);
        api = entries.getArrayElement(1).execute(emit, options.captureConsole(),
                options.clock() == SandboxOptions.Clock.FROZEN, options.frozenEpochMillis(), seal);
    }

    /**
     * The frozen clock's hold on the time module's {@code gmtime}, {@code asctime} and {@code strftime}
     * (pyguest/clock.py): kept here, out of the guest's reach, and called only with a time given, a missing or
     * None time being the frozen instant, so no guest code can call them for the host's time. Arguments:
     * {@code (0, secs)}, {@code (1, t)} or {@code (2, format, t)}; anything else gives None.
     */
    static ProxyExecutable sealedClock(Value[] originals, double frozenSeconds) {
        return args -> {
            if (args.length < 1 || !args[0].fitsInInt()) {
                return null;
            }
            int which = args[0].asInt();
            if (which == 0 && args.length <= 2) {
                return originals[0].execute(args.length < 2 || args[1].isNull() ? frozenSeconds : args[1]);
            }
            if (which == 1 && args.length <= 2) {
                Value t = args.length < 2 || args[1].isNull() ? originals[0].execute(frozenSeconds) : args[1];
                return originals[1].execute(t);
            }
            if (which == 2 && (args.length == 2 || args.length == 3)) {
                Value t = args.length < 3 || args[2].isNull() ? originals[0].execute(frozenSeconds) : args[2];
                return originals[2].execute(args[1], t);
            }
            return null;
        };
    }

    @Override
    void forgetContext() {
        api = null;
        cells = 0;
    }

    /** Binds the value as a global of the model's module; for the {@code tools} object, {@code task} and tests. */
    @Override
    void bindGlobal(String name, Object hostValue) {
        api.invokeMember("define", name, hostValue);
    }

    @Override
    void beginEval() {
        results.clear();
    }

    @Override
    void seedRandom(Long seed) {
        api.invokeMember("seed_random", seed);
    }

    @Override
    void installHostCalls(HostBridge b) {
        ProxyExecutable startFn = args -> startHostCall(args[0].asString(), args[1].asString(), args[2].asString());
        ProxyExecutable waitFn = args -> awaitHostCall(args[0].asLong());
        api.invokeMember("install_host_calls", startFn, waitFn,
                b.exposeTools() ? String.join(",", b.toolNames()) : null, b.exposeTask(), b.exposeFs());
    }

    @Override
    String hostCallErrorType() {
        return "RuntimeError";
    }

    @Override
    void deliverResult(long callId, boolean ok, String resultJson) {
        results.put(callId, (ok ? "1" : "0") + resultJson);
    }

    @Override
    void deliverBatch(long[] callIds, String batchJson) {
        for (HostCallBatch.Entry entry : HostCallBatch.entries(batchJson)) {
            if (calls.settleResult(entry.callId())) {
                deliverResult(entry.callId(), entry.ok(), entry.valueJson());
            }
        }
    }

    /**
     * The guest's {@code wait(id)}: runs completions until call {@code id} has its result, with the watchdog's
     * clock stopped. Returns "1" + value JSON, "0" + error JSON, or "T"/"C" + a message when the eval's wall-clock
     * cap passed or the eval was stopped meanwhile.
     */
    private String awaitHostCall(long id) {
        Watchdog.Ticket t = guest.ticket();
        while (!results.containsKey(id)) {
            if (!calls.isOpen(id)) {
                return "0{\"type\":\"RuntimeError\",\"message\":\"no such call in this eval\"}";
            }
            Runnable next;
            try {
                next = nextHostResult();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "Cinterrupted";
            }
            if (next == null) {
                return "T" + GuestThread.wallTimeMessage(options, calls.openCount());
            }
            if (t.reason != null) {
                return "CThe eval was stopped while it waited on a host call.";
            }
            next.run();
        }
        return results.remove(id);
    }

    /**
     * The code as it is: GraalPy parses it when {@link #run} evaluates it, and reports a syntax error as any other
     * Python error. Only a null byte is refused here, as CPython's compiler refuses it (GraalPy's parser of a
     * polyglot source would take it).
     */
    @Override
    String compile(String code, CellCompiler.Budget budget) {
        if (code.indexOf('\0') >= 0) {
            throw new CellSyntaxError("source code string cannot contain null bytes");
        }
        return code;
    }

    /**
     * Evaluates the cell in the model's module as a source of its own, named "cell N" for tracebacks; the guest
     * renders its value ({@code finish}) or describes what it raised ({@code fail}). GraalPy gives back the value of
     * a final expression statement, and the module itself for a cell with none (or whose value is None); a
     * {@code SystemExit} that reaches the top of the cell comes as the context's exit, and most often without the
     * exception object.
     */
    @Override
    EvalOutcome run(String code, Watchdog.Ticket t, long start) {
        if (isBlank(code)) {
            return ok("None", false, start); // builds nothing and is not counted, so warming a context is invisible
        }
        int n = ++cells;
        boolean defines = mayDefine(code);
        Value r;
        try {
            Value value = context.eval(Source.newBuilder("python", code, "cell " + n).buildLiteral());
            String shown = api.invokeMember("finish", n, code, value, renderBudget(), defines).asString();
            return ok(shown.substring(1), shown.charAt(0) == '+', start);
        } catch (PolyglotException e) {
            if (e.isCancelled() || e.isInterrupted() || e.isResourceExhausted() || !e.isGuestException()) {
                throw e;
            }
            if (t.reason != null) {
                // The watchdog stopped the eval as the cell raised an error of its own: the stop is the outcome.
                return stopped(t.reason, t, start);
            }
            Value raised = e.getGuestObject();
            if (raised != null && raised.getMetaObject() != null) {
                r = api.invokeMember("fail", n, code, raised, defines);
            } else if (e.isExit()) {
                return outcome(EvalOutcome.Status.ERROR, "SystemExit", Integer.toString(e.getExitStatus()), "",
                        false, start);
            } else {
                throw e;
            }
        }
        return outcome(EvalOutcome.Status.ERROR, r.getArrayElement(1).asString(), r.getArrayElement(2).asString(),
                r.getArrayElement(3).asString(), false, start);
    }

    /** How a line that starts a top-level def or class begins (a superset: "defaults = 1" matches too). */
    private static final String[] DEF_STARTS = {"def", "class", "async", "@", "\f"};

    /**
     * Whether a line of the cell may start a top-level def or class, whose source the guest then records for
     * snapshots (from the cell's AST, which a cell without one does not need). Decided here, not in the guest: the
     * guest's runner runs in GraalPy's interpreter for a young process's first hundreds of cells, where this scan
     * cost about 0.1 ms a cell.
     */
    static boolean mayDefine(String code) {
        for (String start : DEF_STARTS) {
            if (code.startsWith(start) || code.contains("\n" + start)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the code is only white space as Python's {@code str.strip} sees it. */
    static boolean isBlank(String code) {
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (!Character.isWhitespace(c) && !Character.isSpaceChar(c) && c != '\u0085') {
                return false;
            }
        }
        return true;
    }

    @Override
    EvalOutcome hostFailure(PolyglotException e, long start) {
        String denied = deniedOperation(String.valueOf(e.getMessage()));
        if (denied == null) {
            return null;
        }
        // GraalPy reports a denied process or socket as a Java exception that Python code cannot catch; the context
        // itself is fine, so the model gets a plain error and keeps its globals.
        return outcome(EvalOutcome.Status.ERROR, "PermissionError", denied, guestStack(e), false, start);
    }

    /** The model-facing text for a sandbox denial GraalPy raises as a Java exception, or null for anything else. */
    static String deniedOperation(String message) {
        if (message.startsWith("java.lang.SecurityException: Process creation is not allowed")) {
            return "Operation not permitted: this sandbox cannot start processes (os.system, subprocess, ...).";
        }
        if (message.contains("UnsupportedPosixFeatureException: socket was excluded")) {
            return "Operation not permitted: this sandbox has no network access (sockets are disabled).";
        }
        if (message.startsWith("java.lang.IllegalStateException: Creating threads is not allowed")) {
            return "Operation not permitted: this sandbox cannot start threads.";
        }
        if (message.startsWith("java.lang.SecurityException: Operation is not allowed for")) {
            return "Operation not permitted: this sandbox has no file system access.";
        }
        if (message.startsWith("java.lang.SecurityException: ")) {
            return "Operation not permitted in this sandbox: "
                    + message.substring("java.lang.SecurityException: ".length()).split(", to enable it")[0];
        }
        if (message.contains("UnsupportedPosixFeatureException: ")) {
            return "Operation not permitted in this sandbox: "
                    + message.substring(message.indexOf("UnsupportedPosixFeatureException: ") + 34);
        }
        return null;
    }

    /** Frames of the model's cells, innermost last, in Python's traceback layout. */
    private static String guestStack(PolyglotException e) {
        List<String> frames = new ArrayList<>();
        for (PolyglotException.StackFrame f : e.getPolyglotStackTrace()) {
            if (f.isGuestFrame() && f.getSourceLocation() != null
                    && f.getSourceLocation().getSource().getName().startsWith("cell ")) {
                String name = f.getRootName();
                frames.add(0, "  File \"" + f.getSourceLocation().getSource().getName() + "\", line "
                        + f.getSourceLocation().getStartLine()
                        + (name == null || name.isEmpty() || name.equals("<module>") ? "" : ", in " + name));
            }
        }
        return String.join("\n", frames);
    }

    @Override
    String encodeGlobals(long maxBytes) {
        return api.invokeMember("snapshot", maxBytes).asString();
    }

    @Override
    Value decodeGlobals(String payload) {
        Value names = api.invokeMember("restore", payload);
        cells = Math.max(cells, api.invokeMember("cells").asInt());
        return names;
    }

    /**
     * No memory limit, only the time limit: the payload is bounded by the snapshot size cap, and GraalPy parsing the
     * modules it re-imports allocates on this thread as much as model code would, so the memory measure would stop
     * honest restores.
     */
    @Override
    long restoreHeapAllowance() {
        return 0;
    }

    @Override
    String restoreError(String message) {
        return message.startsWith("ValueError: ") ? message.substring("ValueError: ".length()) : message;
    }

    /** print() ends with a newline; the envelope's stdout does not. */
    @Override
    String consoleText() {
        String text = console.text();
        return text.endsWith("\n") && console.dropped() == 0 ? text.substring(0, text.length() - 1) : text;
    }
}
