package io.github.langchaingraalvm.sandbox;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * A persistent Python REPL in its own GraalPy context, run by its own guest thread: the Python counterpart of
 * {@link Interpreter}, with the same outcome envelope, watchdog, limits and snapshot contract.
 *
 * <p>GraalPy runs under {@link SandboxPolicy#CONSTRAINED} like JavaScript, in an engine of its own (all contexts of
 * an engine share its policy and languages): no host access beyond our own proxies, no host files (the guest reads
 * only GraalPy's own standard library), no sockets, native code, threads, processes, environment or polyglot
 * access. Cells run as in a notebook: globals persist, and the value of a final expression is the result.
 *
 * <p>The GraalPy jars are optional; {@link #available()} says whether they are on the module path.
 */
public final class PythonInterpreter implements AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static volatile Engine engine;

    private final SandboxOptions options;
    private final ConsoleBuffer console;
    private final GuestThread guest;
    private Context context;
    private Value api;
    // Host calls (tools.*, task): touched on the guest thread only.
    private final Map<Long, String> results = new HashMap<>();
    private final HostCallBook calls = new HostCallBook();
    private String installedShape = "";
    private long wallDeadline;
    private final Sandbox sandbox;

    PythonInterpreter(Sandbox sandbox, SandboxOptions options) {
        if (!available()) {
            throw new IllegalStateException("GraalPy is not installed: the org.graalvm.polyglot:python jars are not on"
                    + " the module path (build them with `mvn -Ppython package`, which copies them to"
                    + " java/target/runtime/python)");
        }
        this.sandbox = sandbox;
        this.options = options;
        this.console = new ConsoleBuffer(Math.max(0, options.maxResultChars()));
        this.guest = new GuestThread("graalpy-sandbox-" + IDS.incrementAndGet(), options,
                options.pythonStackBytes(), sandbox.watchdog(), this::discardContext);
    }

    /** Whether the GraalPy language is installed. */
    public static boolean available() {
        if (ModuleLayer.boot().findModule("org.graalvm.py").isPresent()) {
            return true;
        }
        try {
            Class.forName("com.oracle.graal.python.PythonLanguage", false, PythonInterpreter.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The process-wide GraalPy engine, created on first use; shared so parsed standard-library code is shared. */
    static Engine engine() {
        Engine e = engine;
        if (e == null) {
            synchronized (PythonInterpreter.class) {
                e = engine;
                if (e == null) {
                    e = Sandbox.tunedEngine("python");
                    engine = e;
                }
            }
        }
        return e;
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

    /** Runs one cell; never throws for anything the guest does. See {@link Interpreter#eval(String)}. */
    public EvalOutcome eval(String code) {
        return eval(code, null);
    }

    /**
     * Runs one cell with host functions: {@code tools.<name>(**kwargs)} (blocking), {@code tools.<name>.start(...)}
     * with {@code tools.gather(...)} for concurrent calls, and {@code task(...)}. See
     * {@link Interpreter#eval(String, HostBridge)}; calls are settled with {@link #completeHostCall}.
     */
    public EvalOutcome eval(String code, HostBridge hostBridge) {
        sandbox.noteRealEval();
        return guest.eval(() -> runCell(code, hostBridge));
    }

    /** The model's globals as a versioned JSON text (no pickle). See {@link Interpreter#snapshot(long)}. */
    public String snapshot(long maxBytes) {
        return guest.exclusive(() -> takeSnapshot(maxBytes));
    }

    /** Restores globals saved by {@link #snapshot(long)}, before any eval. Returns the restored names. */
    public List<String> restore(String payload) {
        return guest.exclusive(() -> restoreSnapshot(payload));
    }

    /**
     * Binds a host value (a polyglot proxy) as a global of the model's module; it is not part of snapshots. For host
     * bridges (the {@code tools} object, {@code task}) and tests in this package.
     */
    void defineGlobal(String name, Object hostValue) {
        guest.exclusive(() -> {
            ensureContext();
            api.invokeMember("define", name, hostValue);
            return null;
        });
    }

    /** Settles a host call; thread-safe and non-blocking. A call that no longer belongs to an eval is ignored. */
    public void completeHostCall(long callId, boolean ok, String resultJson) {
        Objects.requireNonNull(resultJson, "resultJson");
        guest.complete(() -> {
            if (calls.settle(callId)) {
                results.put(callId, (ok ? "1" : "0") + resultJson);
            }
        });
    }

    /** The guest's {@code start(kind, name, inputJson)}: the call's id, or "Type\0message" when it is refused. */
    private Object startHostCall(String kind, String name, String inputJson) {
        return calls.start(kind, name, inputJson, "RuntimeError");
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
                next = guest.nextCompletion(wallDeadline);
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
        Context c = Sandbox.restrictedContext("python", engine()).build();
        try {
            c.eval(CellCompiler.source("python", "python_guest.py"));
            Value setup = c.getBindings("python").getMember("setup");
            ProxyExecutable emit = args -> {
                console.append(args[0].asString());
                return null;
            };
            api = setup.execute(emit, options.captureConsole(), options.clock() == SandboxOptions.Clock.FROZEN,
                    options.frozenEpochMillis());
            context = c;
        } catch (RuntimeException e) {
            api = null;
            c.close(true);
            throw e;
        }
    }

    private void discardContext() {
        Context c = context;
        context = null;
        api = null;
        installedShape = "";
        if (c != null) {
            try {
                c.close(true);
            } catch (IllegalStateException | PolyglotException e) {
                // Closed already, by the watchdog.
            }
        }
    }

    private Watchdog.Ticket watch() {
        return watch(options.heapAllowanceBytes());
    }

    private Watchdog.Ticket watch(long heapAllowance) {
        return guest.watch(context, heapAllowance);
    }

    private void unwatch(Watchdog.Ticket t) {
        guest.unwatch(t, this::discardContext);
    }

    private EvalOutcome runCell(String code, HostBridge hostBridge) {
        long start = System.nanoTime();
        console.clear();
        guest.clearCompletions();
        results.clear();
        calls.begin(hostBridge);
        wallDeadline = start + options.maxWallTime().toNanos();
        try {
            ensureContext();
            if (hostBridge != null && !hostBridge.shape().equals(installedShape)) {
                ProxyExecutable startFn = args -> startHostCall(args[0].asString(), args[1].asString(),
                        args[2].asString());
                ProxyExecutable waitFn = args -> awaitHostCall(args[0].asLong());
                api.invokeMember("install_bridges", startFn, waitFn,
                        hostBridge.exposeTools() ? String.join(",", hostBridge.toolNames()) : null,
                        hostBridge.exposeTask(), hostBridge.exposeFs());
                installedShape = hostBridge.shape();
            }
        } catch (RuntimeException e) {
            calls.end();
            discardContext();
            GuestThread.Stop stop = GuestThread.notStarted(e);
            return outcome(stop.status(), stop.type(), stop.message(), "", stop.reset(), start);
        }
        if (guest.cancelRequested()) {
            return stopped(Watchdog.Reason.CANCELLED, null, start);
        }
        Watchdog.Ticket t = watch();
        try {
            Value r = api.invokeMember("run", code, Math.max(1000, options.maxResultChars()) * 4);
            if ("ok".equals(r.getArrayElement(0).asString())) {
                return new EvalOutcome(EvalOutcome.Status.OK, r.getArrayElement(1).asString(),
                        r.getArrayElement(2).asBoolean(), consoleText(), console.dropped(), null, null, null, false,
                        System.nanoTime() - start, options.maxResultChars());
            }
            if (t.reason != null) {
                return stopped(t.reason, t, start);
            }
            return outcome(EvalOutcome.Status.ERROR, r.getArrayElement(1).asString(),
                    r.getArrayElement(2).asString(), r.getArrayElement(3).asString(), false, start);
        } catch (PolyglotException e) {
            return failure(e, t, start);
        } finally {
            calls.end();
            unwatch(t);
        }
    }

    private EvalOutcome failure(PolyglotException e, Watchdog.Ticket t, long start) {
        Watchdog.Reason reason = t.reason;
        if (reason != null && (e.isCancelled() || e.isInterrupted() || t.forcedClose)) {
            return stopped(reason, t, start);
        }
        if (e.isResourceExhausted()) {
            t.forcedClose = true;
            return outcome(EvalOutcome.Status.LIMIT, "OutOfMemory", "The guest exhausted a host resource ("
                    + e.getMessage() + "). The interpreter was restarted: all globals from earlier calls are gone.",
                    "", true, start);
        }
        String denied = deniedOperation(String.valueOf(e.getMessage()));
        if (denied != null) {
            // GraalPy reports a denied process or socket as a Java exception that Python code cannot catch; the
            // context itself is fine, so the model gets a plain error and keeps its globals.
            return outcome(EvalOutcome.Status.ERROR, "PermissionError", denied, guestStack(e), false, start);
        }
        t.forcedClose = true;
        return outcome(EvalOutcome.Status.ERROR, "InternalError", String.valueOf(e.getMessage())
                + " The interpreter was restarted: all globals from earlier calls are gone.", "", true, start);
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

    private EvalOutcome stopped(Watchdog.Reason reason, Watchdog.Ticket t, long start) {
        GuestThread.Stop stop = GuestThread.describeStop(reason, t, options);
        return outcome(stop.status(), stop.type(), stop.message(), "", stop.reset(), start);
    }

    private String takeSnapshot(long maxBytes) {
        requireSnapshots();
        ensureContext();
        Watchdog.Ticket t = watch();
        try {
            return api.invokeMember("snapshot", maxBytes > 0 ? maxBytes : -1L).asString();
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
        // No memory limit here, only the time limit: the payload is bounded by the snapshot size cap, and GraalPy
        // parsing the modules it re-imports allocates on this thread as much as model code would, so the memory
        // measure would stop honest restores.
        Watchdog.Ticket t = watch(0);
        try {
            Value restored = api.invokeMember("restore", payload);
            List<String> names = new ArrayList<>();
            for (long i = 0; i < restored.getArraySize(); i++) {
                names.add(restored.getArrayElement(i).asString());
            }
            return names;
        } catch (PolyglotException e) {
            t.forcedClose = t.forcedClose || t.reason != null;
            String message = String.valueOf(e.getMessage());
            throw new SnapshotException(t.reason != null ? "restoring the snapshot was stopped: " + t.reason
                    : message.startsWith("ValueError: ") ? message.substring("ValueError: ".length()) : message,
                    false);
        } finally {
            unwatch(t);
        }
    }

    private void requireSnapshots() {
        if (!options.snapshots()) {
            throw new IllegalStateException("snapshots are off for this interpreter; enable SandboxOptions.snapshots");
        }
    }

    /** print() ends with a newline; the envelope's stdout does not. */
    private String consoleText() {
        String text = console.text();
        return text.endsWith("\n") && console.dropped() == 0 ? text.substring(0, text.length() - 1) : text;
    }

    private EvalOutcome outcome(EvalOutcome.Status status, String errorType, String errorMessage, String stack,
            boolean reset, long start) {
        return new EvalOutcome(status, null, false, consoleText(), console.dropped(), errorType, errorMessage, stack,
                reset, System.nanoTime() - start, options.maxResultChars());
    }
}
