package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.io.IOAccess;

/**
 * What every guest interpreter of the process shares: one {@link Engine} per guest language (so the code caches
 * and JIT output of its contexts are shared), one watchdog thread, the cell compiler, the warm-up that runs while
 * the process is idle, and whether the JVM can still run guest code at all. The public {@code Sandbox} owns the one
 * instance and hands it to the interpreters it creates, with its {@link SandboxAccess} (the constructors of the
 * outcomes and exceptions the guests return, which users do not see).
 */
public final class Engines {
    /**
     * No host methods, fields, or implicit mappings: only our own proxies cross the boundary. This is
     * {@link HostAccess#NONE} without its mutable target mappings, which the CONSTRAINED policy forbids.
     */
    static final HostAccess HOST_ACCESS = HostAccess.newBuilder().allowMutableTargetMappings().build();

    /**
     * A context builder for {@code language} in {@code engine} with every guest language's restrictions: the
     * CONSTRAINED policy, {@link #HOST_ACCESS}, no IO, native code, threads, processes, environment or polyglot
     * access, no standard streams, and UTC as the time zone.
     */
    static Context.Builder restrictedContext(String language, Engine engine) {
        return Context.newBuilder(language)
                .engine(engine)
                .sandbox(SandboxPolicy.CONSTRAINED)
                .allowHostAccess(HOST_ACCESS)
                .allowIO(IOAccess.NONE)
                .allowNativeAccess(false)
                .allowCreateThread(false)
                .allowCreateProcess(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .in(InputStream.nullInputStream())
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .timeZone(ZoneOffset.UTC);
    }

    /** Why no guest code can run in this JVM any more, or null while it can (see {@link #unusableReason()}). */
    private static volatile String unusable;

    /**
     * Why this JVM can no longer run guest code, or null while it can: a class the engine needs failed to
     * initialise, which no interpreter can undo. Every eval then throws {@code SandboxBrokenException}.
     */
    public static String unusableReason() {
        return unusable;
    }

    /**
     * Records {@code failure} when it leaves the JVM unusable (a class that failed to initialise stays broken);
     * returns whether it did.
     */
    static boolean noteFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String broken = brokenClass(t);
            if (broken != null) {
                if (unusable == null) {
                    unusable = "a class of the engine failed to initialise (" + broken + ")";
                }
                return true;
            }
        }
        return false;
    }

    /**
     * The message of {@code t} when it says that a class failed to initialise, or null. The engine hands its own
     * failures over as a {@link PolyglotException} internal error that carries the Java error only in its text
     * ("java.lang.NoClassDefFoundError: Could not initialize class ..."); a guest's own exception never counts,
     * whatever its text, so no guest code can declare the JVM unusable.
     */
    static String brokenClass(Throwable t) {
        String message = String.valueOf(t.getMessage());
        if (t instanceof ExceptionInInitializerError
                || t instanceof NoClassDefFoundError && message.startsWith(COULD_NOT_INITIALIZE)) {
            return message;
        }
        return t instanceof PolyglotException p ? brokenClass(message, p.isInternalError() && !p.isGuestException())
                : null;
    }

    /** {@link #brokenClass(Throwable)} for a polyglot failure's text: only the engine's own failures count. */
    static String brokenClass(String message, boolean internalError) {
        return internalError && (message.startsWith("java.lang.NoClassDefFoundError: " + COULD_NOT_INITIALIZE)
                || message.startsWith("java.lang.ExceptionInInitializerError")) ? message : null;
    }

    private static final String COULD_NOT_INITIALIZE = "Could not initialize";

    /** The outcomes' and exceptions' constructors, from the API package. */
    final SandboxAccess access;
    private final Engine javaScriptEngine;
    /** GraalPy's engine, created on first use: the language is optional, and most processes never run it. */
    private final Object pythonEngineLock = new Object();
    private Engine pythonEngine;
    /** The {@link RedefinitionProbe} annotation instance seen when {@link #pythonEngine} was created. */
    private Annotation pythonEngineProbe;
    private final Watchdog watchdog;
    private volatile CellCompiler compiler;
    /** Whether an interpreter other than the warm-up's has started an eval: the warm-up stops at the first one. */
    private volatile boolean realEvalStarted;
    /** How many evals of interpreters other than the warm-up's are running now. */
    private final AtomicInteger realEvalsRunning = new AtomicInteger();
    /** Whether the warm-up was claimed ({@link #claimWarmUp}): it runs once per process. */
    private final AtomicBoolean warmUpClaimed = new AtomicBoolean();
    /** How often the warm-up looks whether the evals running have ended. */
    private static final Duration IDLE_POLL = Duration.ofMillis(20);
    /** Counted down when the process's first context is ready (or failed); the warm-up starts after it. */
    private final CountDownLatch firstContext = new CountDownLatch(1);

    /**
     * Creates the JavaScript engine and the watchdog and installs the unwind guard. The JavaScript warm-up starts
     * with the first JavaScript interpreter, and asks this instance when to go on.
     */
    public Engines(SandboxAccess access) {
        this.access = access;
        javaScriptEngine = tunedEngine("js");
        UnwindGuard.install();
        watchdog = new Watchdog();
    }

    /**
     * The engine options every guest language shares. {@code engine.Mode=latency} compiles sooner and with less
     * effort: model code is new source on every call and mostly runs once, so a compilation that arrives late is
     * wasted, while hot loops still get compiled (see docs/performance.md for the figures). The system property
     * {@code langchain.graalvm.engineMode} overrides it ({@code default}, {@code latency} or {@code throughput}).
     */
    private static Engine tunedEngine(String language) {
        try {
            return engineBuilder(language)
                    .option("engine.Mode", System.getProperty("langchain.graalvm.engineMode", "latency"))
                    .build();
        } catch (IllegalArgumentException e) {
            if (!String.valueOf(e.getMessage()).startsWith("Could not find option")) {
                throw e;
            }
            // Without JIT (the fallback runtime, JDK 21 to 24) there is no compilation to tune and no such option.
            return engineBuilder(language).build();
        }
    }

    private static Engine.Builder engineBuilder(String language) {
        return Engine.newBuilder(language)
                .sandbox(SandboxPolicy.CONSTRAINED)
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .option("engine.WarnInterpreterOnly", "false");
    }

    /** The engine of every JavaScript context, the cell compiler's included. */
    public Engine javaScriptEngine() {
        return javaScriptEngine;
    }

    /**
     * The engine of every new GraalPy context, created on first use; shared so parsed standard-library code is.
     *
     * <p>It is replaced by a new one when classes were redefined since it was created (a Java agent retransformed
     * {@code java.lang.Object}, as Mockito's inline mock maker does for a spy or mock). HotSpot then counts every
     * subclass as redefined, which drops the JDK's cached annotation instances of all classes; GraalPy keeps the
     * call targets of its builtins in the engine's language instance, each with the {@code @Builtin} annotation it
     * was made from, and checks with an assertion that it is the very instance a fresh
     * {@code getAnnotation(Builtin.class)} returns. In the old engine that check fails (with {@code -ea}, as
     * Surefire runs tests) for every new context; a new engine starts with no cached call targets. Contexts of the
     * old engine keep working; it is not closed, since closing an engine closes its contexts.
     */
    Engine pythonEngine() {
        synchronized (pythonEngineLock) {
            Annotation seen = RedefinitionProbe.class.getAnnotation(RedefinitionProbe.Mark.class);
            if (pythonEngine == null || seen != pythonEngineProbe) {
                pythonEngine = tunedEngine("python");
                pythonEngineProbe = seen;
            }
            return pythonEngine;
        }
    }

    /**
     * A class whose annotation instance the JDK creates anew when the class, or a class it extends, was redefined:
     * {@link #pythonEngine()} compares it with the instance seen when its engine was created.
     */
    @RedefinitionProbe.Mark
    private static final class RedefinitionProbe {
        @Retention(RetentionPolicy.RUNTIME)
        @Target(ElementType.TYPE)
        @interface Mark {
        }
    }

    /** Called when an interpreter's context is ready, or failed to build: the warm-up may start. */
    void noteContextBuilt() {
        firstContext.countDown();
    }

    /** Called as a real eval starts, so the warm-up leaves the machine to it; {@link #noteRealEvalEnded} follows. */
    void noteRealEval() {
        realEvalStarted = true;
        realEvalsRunning.incrementAndGet();
    }

    void noteRealEvalEnded() {
        realEvalsRunning.decrementAndGet();
    }

    /**
     * Claims the warm-up for the caller: true once per instance, and never when the system property
     * {@code langchain.graalvm.noWarmUp} is true.
     */
    boolean claimWarmUp() {
        return !Boolean.getBoolean("langchain.graalvm.noWarmUp") && warmUpClaimed.compareAndSet(false, true);
    }

    /** Waits at most {@code limit} for the process's first context to be ready (or to fail building). */
    void awaitFirstContext(Duration limit) throws InterruptedException {
        firstContext.await(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether an interpreter other than the warm-up's has started an eval: the warm-up stops at the first one. */
    boolean realEvalStarted() {
        return realEvalStarted;
    }

    /** Returns once no real eval runs. */
    void awaitIdle() {
        while (realEvalsRunning.get() > 0) {
            LockSupport.parkNanos(this, IDLE_POLL.toNanos());
        }
    }

    Watchdog watchdog() {
        return watchdog;
    }

    /** The cell compiler (the JavaScript parser and TypeScript stripper), created on first use. */
    public CellCompiler compiler() {
        CellCompiler c = compiler;
        if (c == null) {
            synchronized (this) {
                c = compiler;
                if (c == null) {
                    c = new CellCompiler(javaScriptEngine, HOST_ACCESS, watchdog);
                    compiler = c;
                }
            }
        }
        return c;
    }
}
