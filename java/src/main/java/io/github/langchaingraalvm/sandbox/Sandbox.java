package io.github.langchaingraalvm.sandbox;

import io.github.langchaingraalvm.sandbox.guest.EngineWarmUp;
import io.github.langchaingraalvm.sandbox.guest.Engines;
import io.github.langchaingraalvm.sandbox.guest.JavaScriptGuest;
import io.github.langchaingraalvm.sandbox.guest.PythonGuest;
import io.github.langchaingraalvm.sandbox.guest.UnwindGuard;
import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import io.github.langchaingraalvm.sandbox.worker.RemoteInterpreter;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.graalvm.polyglot.SandboxPolicy;

/**
 * The process-wide part of the sandbox: one {@code Engine} per guest language (so the code caches and JIT output
 * of its contexts are shared), one watchdog thread, and the cell compiler (all of them in {@link Engines}).
 * Interpreters are cheap to create from it.
 *
 * <pre>{@code
 * try (GuestInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
 *     System.out.println(js.eval("let x = 20; x + 22").envelope()); // <result>42</result>
 * }
 * }</pre>
 */
public final class Sandbox {
    private static final Properties BUILD = loadBuildProperties();
    private static volatile Sandbox shared;

    /** The one instance of the access to this package's private members; see {@link SandboxAccess}. */
    private static final Access ACCESS = new Access();

    /** Built on first use: a host whose interpreters all run in worker processes never starts an engine. */
    private volatile Engines engines;

    private Sandbox() {
    }

    /**
     * Why this JVM can no longer run guest code, or null while it can: a class the engine needs failed to
     * initialise, which no interpreter can undo. Every eval then throws {@link SandboxBrokenException}.
     */
    public static String unusableReason() {
        return Engines.unusableReason();
    }

    /** The sandbox of this process, created on first use. */
    public static Sandbox shared() {
        Sandbox s = shared;
        if (s == null) {
            synchronized (Sandbox.class) {
                s = shared;
                if (s == null) {
                    s = new Sandbox();
                    shared = s;
                }
            }
        }
        return s;
    }

    /**
     * A new JavaScript interpreter with its own context and guest thread. The first one in this JVM also starts the
     * sandbox's idle-time warm-up of the JavaScript engine. With {@link Isolation#PROCESS} its guest runs in a worker
     * process instead (started now, or taken from the idle ones).
     *
     * @throws IllegalStateException with {@link Isolation#PROCESS}, when no worker process could be started
     */
    public JavaScriptInterpreter newInterpreter(SandboxOptions options) {
        if (options.isolation() == Isolation.PROCESS) {
            return new JavaScriptInterpreter(() -> RemoteInterpreter.open("js", options, ACCESS));
        }
        Engines e = engines();
        JavaScriptInterpreter js = new JavaScriptInterpreter(() -> new JavaScriptGuest(e, options));
        // Started here, above the guests: the warm-up makes JavaScript guests of its own.
        EngineWarmUp.start(e);
        return js;
    }

    /**
     * A new Python interpreter (GraalPy) with its own context and guest thread; with {@link Isolation#PROCESS}, in a
     * worker process.
     *
     * @throws IllegalStateException if the optional GraalPy jars are not on the module path, or with
     *     {@link Isolation#PROCESS} when no worker process could be started
     */
    public PythonInterpreter newPythonInterpreter(SandboxOptions options) {
        if (options.isolation() == Isolation.PROCESS) {
            if (!pythonAvailable()) {
                throw new IllegalStateException("GraalPy's jars are not on this JVM's module path");
            }
            return new PythonInterpreter(() -> RemoteInterpreter.open("python", options, ACCESS));
        }
        Engines e = engines();
        return new PythonInterpreter(() -> new PythonGuest(e, options));
    }

    /** Whether the optional GraalPy jars are installed, so {@link #newPythonInterpreter} can be used. */
    public boolean pythonAvailable() {
        return PythonGuest.available();
    }

    /**
     * Loads the cell compiler (the JavaScript parser and TypeScript stripper) now instead of on the first eval.
     * Safe to call from any thread, any number of times.
     */
    public void warmUp() {
        engines().compiler().warmUp();
    }

    /** The GraalVM version of the polyglot artifacts this library was built against, such as {@code 25.0.3}. */
    public String graalvmVersion() {
        String version = BUILD.getProperty("graalvm.version");
        return version != null ? version : engines().javaScriptEngine().getVersion();
    }

    /** The Truffle runtime's name: "Interpreted" means no JIT compilation of guest code. */
    public String runtimeName() {
        return engines().javaScriptEngine().getImplementationName();
    }

    /** Whether guest code is JIT-compiled. */
    public boolean jitEnabled() {
        return !"Interpreted".equals(runtimeName());
    }

    /**
     * Whether a guest's runaway recursion unwinds its compiled frames without deoptimising them one by one:
     * {@code "on"}, or {@code "off: "} and why (the JVM options it needs are {@code UnwindGuard.JVM_OPTIONS}).
     */
    public String unwindGuard() {
        engines(); // the engines install it
        return UnwindGuard.status();
    }

    /** The sandbox policy every context runs under. */
    public String sandboxPolicy() {
        return SandboxPolicy.CONSTRAINED.name();
    }

    private static Properties loadBuildProperties() {
        Properties p = new Properties();
        try (InputStream in = Sandbox.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // Facts only: fall back to what the engine reports.
        }
        return p;
    }

    /** The engines, watchdog and cell compiler this sandbox's interpreters share. */
    Engines engines() {
        Engines e = engines;
        if (e == null) {
            synchronized (this) {
                e = engines;
                if (e == null) {
                    e = new Engines(ACCESS);
                    engines = e;
                }
            }
        }
        return e;
    }

    /**
     * What the library's sub-packages may call of this package's package-private members; see
     * {@link SandboxAccess}.
     */
    private static final class Access extends SandboxAccess {
        @Override
        public long pythonStackBytes(SandboxOptions options) {
            return options.pythonStackBytes();
        }

        @Override
        public String refusal(HostBridge bridge, String kind, String name, int toolCalls, String errorType) {
            return HostBridge.refusal(bridge, kind, name, toolCalls, errorType);
        }

        @Override
        public String shape(HostBridge bridge) {
            return bridge.shape();
        }

        @Override
        public EvalOutcome outcome(EvalOutcome.Status status, String value, boolean valueIncomplete, String stdout,
                long stdoutDropped, String errorType, String errorMessage, String errorStack, boolean stateReset,
                long durationNanos, int maxResultChars) {
            return new EvalOutcome(status, value, valueIncomplete, stdout, stdoutDropped, errorType, errorMessage,
                    errorStack, stateReset, durationNanos, maxResultChars);
        }

        @Override
        public EvalOutcome outcome(EvalOutcome.Status status, String value, boolean valueIncomplete, String stdout,
                long stdoutDropped, String errorType, String errorMessage, String errorStack, boolean stateReset,
                long durationNanos, int maxResultChars, EvalOutcome.ValueKind valueKind, String plainValue) {
            return new EvalOutcome(status, value, valueIncomplete, stdout, stdoutDropped, errorType, errorMessage,
                    errorStack, stateReset, durationNanos, maxResultChars, valueKind, plainValue);
        }

        @Override
        public SandboxBrokenException broken(String reason) {
            return new SandboxBrokenException(reason);
        }

        @Override
        public SnapshotException snapshotFailure(String message, boolean tooLarge) {
            return new SnapshotException(message, tooLarge);
        }
    }
}
