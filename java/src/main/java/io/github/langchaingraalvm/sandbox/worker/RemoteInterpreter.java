package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.HostCallHandler;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import io.github.langchaingraalvm.sandbox.text.UnicodeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.msgpack.value.Value;

/**
 * A guest interpreter in a worker process of its own ({@link WorkerPool}), spoken to with {@link WorkerServer}'s
 * protocol: the guest of {@link io.github.langchaingraalvm.sandbox.Isolation#PROCESS}. The host calls and live
 * output of an eval come back over the pipe and go to its bridge's handler, on the thread that called
 * {@code eval}; the handler's results go back the same way.
 *
 * <p>A lost worker (it died, was killed, or missed its deadline) and a guest stuck in a builtin close this guest:
 * the worker is killed and never reused, the eval returns an {@code InternalError} outcome that says the globals
 * are gone, and the public interpreter builds a new guest, in another worker, for its next call.
 */
public final class RemoteInterpreter implements GuestInterpreter {
    /** Added to every request's own bound (an eval's max wall time, a snapshot's timeout) as its deadline. */
    static final Duration SLACK = Duration.ofSeconds(60);
    private static final String LOST = ". The interpreter was restarted: all globals from earlier calls are gone.";

    private final WorkerPool pool;
    private final String language;
    private final SandboxOptions options;
    private final SandboxAccess access;
    private final WorkerProcess worker;
    private final long gid;
    private final boolean imports;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * A guest interpreter of {@code language} ({@code "js"} or {@code "python"}) in a worker of this JVM's pool: the
     * sandbox's way to {@link io.github.langchaingraalvm.sandbox.Isolation#PROCESS}. {@code access} is the
     * sandbox's own, which makes its outcomes.
     *
     * @throws IllegalStateException when no worker could be started or it could not build the interpreter
     */
    @SuppressWarnings("exports")
    public static GuestInterpreter open(String language, SandboxOptions options, SandboxAccess access) {
        return new RemoteInterpreter(WorkerPool.shared(), language, options, access);
    }

    private RemoteInterpreter(WorkerPool pool, String language, SandboxOptions options, SandboxAccess access) {
        this.pool = pool;
        this.language = language;
        this.options = options;
        this.access = access;
        this.worker = pool.checkout(WorkerPool.heapBytes(language, options));
        try {
            List<Value> answer = worker.request("new", WorkerProcess.START_DEADLINE, Wire.options(language, options))
                    .asArrayValue().list();
            gid = answer.get(0).asIntegerValue().toLong();
            imports = answer.get(1).asBooleanValue().getBoolean();
        } catch (WorkerProcess.Lost | WorkerProcess.Refused e) {
            pool.discard(worker, "it could not build an interpreter");
            throw new IllegalStateException(worker.label + " could not build an interpreter: " + e.getMessage());
        }
    }

    @Override
    public String language() {
        return language;
    }

    @Override
    public SandboxOptions options() {
        return options;
    }

    @Override
    public boolean isBusy() {
        return busy.get();
    }

    @Override
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public EvalOutcome eval(String code) {
        return eval(code, null);
    }

    @Override
    public EvalOutcome eval(String code, HostBridge bridge) {
        if (closed.get()) {
            throw new IllegalStateException("the interpreter is closed");
        }
        if (!busy.compareAndSet(false, true)) {
            return access.outcome(EvalOutcome.Status.ERROR, null, false, "", 0, "ConcurrentEval",
                    "Another eval is already running in this interpreter; wait for it to finish.", "", false, 0,
                    options.maxResultChars());
        }
        long start = System.nanoTime();
        try {
            if (!worker.alive()) {
                lose("it died after the last eval");
                return lost(start, worker.describeLoss());
            }
            BlockingQueue<String> calls = bridge == null ? null : new LinkedBlockingQueue<>();
            WorkerProcess.Call call = worker.call("eval", calls, gid, Wire.wireText(code),
                    bridge == null ? null : Wire.bridgeSpec(bridge));
            long deadline = start + bound(options.maxWallTime());
            Value answer = calls == null ? worker.await(call, deadline, this::cancel)
                    : pump(call, bridge.handler(), deadline);
            Map<Value, Value> fields = answer.asMapValue().map();
            EvalOutcome outcome = Wire.outcome(fields, access, options.maxResultChars());
            Value stuck = fields.get(org.msgpack.value.ValueFactory.newString("closed"));
            if (stuck != null && stuck.isBooleanValue() && stuck.asBooleanValue().getBoolean()) {
                // Its thread still runs in the worker, holding a core: only killing the worker frees it.
                lose("its guest was stuck in a builtin past the grace");
            }
            return outcome;
        } catch (WorkerProcess.Lost e) {
            lose("it was lost");
            return lost(start, e.getMessage());
        } catch (WorkerProcess.Refused e) {
            lose("it could not run an eval (" + e.kind + ")");
            return lost(start, "the sandbox worker failed: " + e.getMessage());
        } finally {
            busy.set(false);
        }
    }

    /** Hands the eval's host calls and output to {@code handler} as they come, until its outcome. */
    private Value pump(WorkerProcess.Call call, HostCallHandler handler, long deadline)
            throws WorkerProcess.Lost, WorkerProcess.Refused {
        boolean interrupted = false;
        try {
            while (true) {
                String batch;
                try {
                    batch = call.calls().poll(20, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    // As in-process: the caller gave up, so the eval is cancelled, and still waited for.
                    if (!interrupted) {
                        cancel();
                    }
                    interrupted = true;
                    continue;
                }
                if (batch != null) {
                    deliver(batch, handler);
                } else if (call.answer().isDone() || System.nanoTime() > deadline) {
                    // Every batch of the eval came before its outcome.
                    while ((batch = call.calls().poll()) != null) {
                        deliver(batch, handler);
                    }
                    return worker.await(call, deadline, this::cancel);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void deliver(String batch, HostCallHandler handler) {
        for (CallBatch.Entry e : CallBatch.entries(batch)) {
            switch (e.kind()) {
                case "output" -> {
                    try {
                        handler.output(e.name(), e.text());
                    } catch (RuntimeException dropped) {
                        // As in-process: the text is lost and the eval goes on.
                    }
                }
                case "wait" -> handler.waiting(e.number());
                default -> {
                    try {
                        handler.start(e.number(), e.kind(), e.name(), e.text());
                    } catch (RuntimeException failed) {
                        String type = language.equals("python") ? "RuntimeError" : "HostError";
                        completeHostCall(e.number(), false, "{\"type\":\"" + type + "\",\"message\":"
                                + UnicodeText.jsonString("The host could not start " + e.name() + ": " + failed) + "}");
                    }
                }
            }
        }
    }

    @Override
    public void prepare() {
        requireOpen();
        try {
            worker.request("prepare", Duration.ofNanos(bound(options.timeout())), gid);
        } catch (WorkerProcess.Lost | WorkerProcess.Refused e) {
            lose("it failed while preparing a context");
        }
    }

    @Override
    public String snapshot(long maxBytes) {
        requireOpen();
        try {
            return Wire.text(worker.request("snapshot", Duration.ofNanos(bound(options.timeout())), gid, maxBytes));
        } catch (WorkerProcess.Refused e) {
            throw refusal(e);
        } catch (WorkerProcess.Lost e) {
            lose("it was lost");
            throw access.snapshotFailure("the snapshot failed: " + e.getMessage() + LOST, false);
        }
    }

    @Override
    public List<String> restore(String payload) {
        requireOpen();
        try {
            List<String> names = new ArrayList<>();
            for (Value name : worker.request("restore", Duration.ofNanos(bound(options.timeout())), gid, Wire.wireText(payload))
                    .asArrayValue()) {
                names.add(Wire.text(name));
            }
            return names;
        } catch (WorkerProcess.Refused e) {
            throw refusal(e);
        } catch (WorkerProcess.Lost e) {
            lose("it was lost");
            throw access.snapshotFailure("the restore failed: " + e.getMessage() + LOST, false);
        }
    }

    /** The worker's refusal as the exception the in-process interpreter throws. */
    private RuntimeException refusal(WorkerProcess.Refused e) {
        return switch (e.kind) {
            case "snapshot-error" -> access.snapshotFailure(e.getMessage(), e.tooLarge);
            case "IllegalStateException" -> new IllegalStateException(e.getMessage());
            case "IllegalArgumentException" -> new IllegalArgumentException(e.getMessage());
            default -> {
                lose("it failed (" + e.kind + ")");
                yield new IllegalStateException(worker.label + " failed: " + e.getMessage());
            }
        };
    }

    @Override
    public void completeHostCall(long callId, boolean ok, String resultJson) {
        java.util.Objects.requireNonNull(resultJson, "resultJson");
        worker.send("complete", gid, List.of(callId),
                Wire.wireText("[[" + callId + "," + ok + "," + resultJson + "]]"));
    }

    @Override
    public void completeHostCalls(long[] callIds, String batchJson) {
        java.util.Objects.requireNonNull(batchJson, "batchJson");
        List<Long> ids = new ArrayList<>(callIds.length);
        for (long id : callIds) {
            ids.add(id);
        }
        worker.send("complete", gid, ids, Wire.wireText(batchJson));
    }

    @Override
    public boolean importsModules() {
        return imports;
    }

    @Override
    public void completeModuleRead(long callId, boolean ok, String text) {
        java.util.Objects.requireNonNull(text, "text");
        worker.send("module", gid, callId, ok, Wire.wireText(text));
    }

    @Override
    public void cancel() {
        if (!closed.get()) {
            worker.send("cancel", gid);
        }
    }

    /** Closes the guest in its worker and gives the worker back to the pool. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        worker.send("cancel", gid);
        try {
            worker.request("close", Duration.ofSeconds(30), gid);
            pool.checkin(worker);
        } catch (WorkerProcess.Lost | WorkerProcess.Refused e) {
            pool.discard(worker, "it failed to close an interpreter");
        }
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the interpreter is closed");
        }
    }

    /** Closes this guest for good and kills its worker ({@code why} finishes "killed because ..."). */
    private void lose(String why) {
        if (closed.compareAndSet(false, true)) {
            pool.discard(worker, why);
        }
    }

    private EvalOutcome lost(long start, String why) {
        return access.outcome(EvalOutcome.Status.ERROR, null, false, "", 0, "InternalError", why + LOST, "", true,
                System.nanoTime() - start, options.maxResultChars());
    }

    private long bound(Duration own) {
        return own.plus(options.interruptGrace()).plus(SLACK).toNanos();
    }
}
