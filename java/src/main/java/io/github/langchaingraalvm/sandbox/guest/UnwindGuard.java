package io.github.langchaingraalvm.sandbox.guest;

import com.oracle.truffle.api.Truffle;
import com.oracle.truffle.api.frame.Frame;
import com.oracle.truffle.api.nodes.RootNode;
import com.oracle.truffle.runtime.AbstractCompilationTask;
import com.oracle.truffle.runtime.OptimizedCallTarget;
import com.oracle.truffle.runtime.OptimizedDirectCallNode;
import com.oracle.truffle.runtime.OptimizedTruffleRuntime;
import com.oracle.truffle.runtime.OptimizedTruffleRuntimeListener;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the unwinding of a guest's runaway recursion from deoptimising its compiled frames one by one.
 *
 * <p>Truffle profiles the exceptions that leave each call site and each call target, and compiles that profile as
 * a constant: compiled code for a site that no exception has left yet transfers to the interpreter (and is
 * invalidated) when one does. A recursion whose function is compiled while it runs (the compilation is queued after
 * a few hundred calls and lands while the recursion is still descending) fills the rest of the stack with frames of
 * that code, and the stack overflow's error then passes tens of thousands of them: each is deoptimised on its own
 * (230,000 deoptimisations in one unwinding, measured with JFR), for seconds during which no interrupt can act, so
 * the RangeError came after the timeout as a forced close that lost the globals.
 *
 * <p>This listener marks, as each compilation starts, the exception profile of every direct call site in the
 * target and in the targets it may inline, and of those targets, as already generic: compiled code then never
 * speculates that no exception leaves a call, and an error unwinds compiled frames as fast as interpreted ones. The
 * profiles are Truffle's private fields ({@code OptimizedDirectCallNode.exceptionProfile},
 * {@code OptimizedCallTarget.exceptionProfile}), reached through the JVM options {@link #JVM_OPTIONS}; without them,
 * or on a Truffle whose fields differ, nothing is installed and {@link #status()} says why.
 */
public final class UnwindGuard {
    /** The JVM options that open Truffle's runtime package to code on the class path. */
    public static final String[] JVM_OPTIONS = {
        "--add-exports=org.graalvm.truffle.runtime/com.oracle.truffle.runtime=ALL-UNNAMED",
        "--add-opens=org.graalvm.truffle.runtime/com.oracle.truffle.runtime=ALL-UNNAMED",
    };
    private static final String RUNTIME_MODULE = "org.graalvm.truffle.runtime";
    private static final String RUNTIME_PACKAGE = "com.oracle.truffle.runtime";
    /**
     * How far one compilation's marking reaches: the target's own call sites, and those of the targets they call and
     * of the targets those call (a recursion, or two functions that call each other, is inside), at most this many
     * nodes. It runs on the compiler's thread before each compilation, so it is kept small.
     */
    private static final int DEPTH = 2;
    private static final int NODE_BUDGET = 5_000;

    private static String status;

    private UnwindGuard() {}

    /**
     * Installs the guard once per JVM and returns its state: {@code "on"}, or {@code "off: "} and why not. The
     * system property {@code langchain.graalvm.unwindGuard=false} keeps it off (for comparisons).
     */
    public static synchronized String install() {
        if (status == null) {
            status = tryInstall();
        }
        return status;
    }

    /** The guard's state, without installing it. */
    public static synchronized String status() {
        return status == null ? "off: not installed yet" : status;
    }

    private static String tryInstall() {
        if ("false".equals(System.getProperty("langchain.graalvm.unwindGuard"))) {
            return "off: langchain.graalvm.unwindGuard=false";
        }
        Module runtime = ModuleLayer.boot().findModule(RUNTIME_MODULE).orElse(null);
        if (runtime == null) {
            return "off: Truffle's optimizing runtime is not a module of this JVM";
        }
        Module self = UnwindGuard.class.getModule();
        if (!runtime.isExported(RUNTIME_PACKAGE, self) || !runtime.isOpen(RUNTIME_PACKAGE, self)) {
            return "off: the JVM was started without " + String.join(" ", JVM_OPTIONS);
        }
        try {
            // Loaded only now: its class links against the package the check above found open.
            return Listener.register();
        } catch (LinkageError | ReflectiveOperationException | RuntimeException e) {
            return "off: " + e;
        }
    }

    /**
     * Since the guard was installed: the compilations it marked, the markings that failed (those compilations kept
     * Truffle's own profiles), and the compiled guest frames that were deoptimised and finished in the interpreter.
     */
    public static synchronized long[] counts() {
        // Listener's class links only where the guard could be installed.
        return "on".equals(status)
                ? new long[] {Listener.MARKED.get(), Listener.FAILED.get(), Listener.DEOPTIMIZED.get()}
                : new long[3];
    }

    private static final class Listener implements OptimizedTruffleRuntimeListener {
        static final AtomicLong MARKED = new AtomicLong();
        static final AtomicLong FAILED = new AtomicLong();
        static final AtomicLong DEOPTIMIZED = new AtomicLong();
        /** {@code OptimizedCallTarget.PROFILE_GENERIC}: any exception, no speculation. */
        private static final byte TARGET_GENERIC = 3;
        private static final byte TARGET_UNINITIALIZED = 0;

        private final VarHandle siteProfile;
        private final VarHandle targetProfile;

        private Listener(VarHandle siteProfile, VarHandle targetProfile) {
            this.siteProfile = siteProfile;
            this.targetProfile = targetProfile;
        }

        static String register() throws ReflectiveOperationException {
            if (!(Truffle.getRuntime() instanceof OptimizedTruffleRuntime runtime)) {
                return "off: guest code runs interpreted (no optimizing runtime)";
            }
            VarHandle site = MethodHandles.privateLookupIn(OptimizedDirectCallNode.class, MethodHandles.lookup())
                    .findVarHandle(OptimizedDirectCallNode.class, "exceptionProfile", Class.class);
            VarHandle target = MethodHandles.privateLookupIn(OptimizedCallTarget.class, MethodHandles.lookup())
                    .findVarHandle(OptimizedCallTarget.class, "exceptionProfile", byte.class);
            runtime.addListener(new Listener(site, target));
            return "on";
        }

        @Override
        public void onCompilationStarted(OptimizedCallTarget target, AbstractCompilationTask task) {
            try {
                mark(target);
                MARKED.incrementAndGet();
            } catch (RuntimeException | LinkageError e) {
                // A compilation is never held up by the guard: this one keeps Truffle's own profiles.
                FAILED.incrementAndGet();
            }
        }

        @Override
        public void onCompilationDeoptimized(OptimizedCallTarget target, Frame frame) {
            DEOPTIMIZED.incrementAndGet();
        }

        private void mark(OptimizedCallTarget target) {
            Set<RootNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            List<OptimizedCallTarget> level = List.of(target);
            int[] budget = {NODE_BUDGET};
            for (int depth = 0; depth <= DEPTH && !level.isEmpty() && budget[0] > 0; depth++) {
                List<OptimizedCallTarget> next = new ArrayList<>();
                for (OptimizedCallTarget t : level) {
                    RootNode root = t.getRootNode();
                    if (root == null || !seen.add(root) || budget[0] <= 0) {
                        continue;
                    }
                    markTarget(t);
                    root.accept(node -> {
                        if (node instanceof OptimizedDirectCallNode call) {
                            siteProfile.setVolatile(call, Throwable.class);
                            next.add(call.getCurrentCallTarget());
                        }
                        return --budget[0] > 0;
                    });
                }
                level = next;
            }
        }

        private void markTarget(OptimizedCallTarget target) {
            targetProfile.compareAndSet(target, TARGET_UNINITIALIZED, TARGET_GENERIC);
        }
    }
}
