package io.github.langchaingraalvm.sandbox.worker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

/**
 * One worker JVM this JVM started for {@link io.github.langchaingraalvm.sandbox.Isolation#PROCESS}, and the
 * protocol to it ({@link WorkerServer}'s messages over its standard input and output). The same {@code java}, the
 * same class path and module path and this JVM's own options, but a heap capped at {@link #heapBytes} and an empty
 * environment; its standard error is kept, the last 16 KiB of it, to say how it died. It ends when its input ends:
 * when this JVM closes the pipe or dies.
 */
final class WorkerProcess {
    /** How long a new worker may take to answer its first request (a cold JVM on a loaded machine). */
    static final Duration START_DEADLINE = Duration.ofSeconds(180);
    private static final int STDERR_KEPT = 16 * 1024;
    private static final long MIB = 1L << 20;
    /** The option that names a worker's command line, with the pid of the JVM that started it. */
    static final String WORKER_PROPERTY = "-Dlangchain.graalvm.workerOf";
    private static final String UNIVERSAL_BUFFER = "msgpack.universal-buffer";

    final long heapBytes;
    final long pid;
    final String label;
    /** When it was last given back to the pool, in {@link System#nanoTime()}; guarded by the pool. */
    long idleSince;
    private final Process process;
    private final MessagePacker out;
    private final Map<Long, Call> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final ArrayDeque<String> stderr = new ArrayDeque<>();
    private int stderrChars;
    private volatile String lost;
    private volatile String killedWhy;

    /** A request sent and its answer to come; {@code calls} gets an eval's host-call batches in order. */
    record Call(long rid, String kind, CompletableFuture<Value> answer, BlockingQueue<String> calls) {}

    /** The other end died, or stopped answering; the message says how, in a sentence. */
    static final class Lost extends Exception {
        private static final long serialVersionUID = 1L;

        Lost(String message) {
            super(message, null, false, false);
        }
    }

    /** A request answered with an error: {@code kind} is the worker's exception's name, or "snapshot-error". */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final String kind;
        final boolean tooLarge;

        Refused(String kind, String message, boolean tooLarge) {
            super(message, null, false, false);
            this.kind = kind;
            this.tooLarge = tooLarge;
        }
    }

    static {
        // msgpack-core reads byte arrays through sun.misc.Unsafe unless told otherwise, and JDK 24 and later then
        // print a warning on the host's standard error. Where the JVM would (its options do not allow that access),
        // the host's side of the protocol takes msgpack's ByteBuffer-based buffers instead.
        if (Runtime.version().feature() >= 24 && System.getProperty(UNIVERSAL_BUFFER) == null
                && ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .noneMatch(a -> a.startsWith("--sun-misc-unsafe-memory-access"))) {
            System.setProperty(UNIVERSAL_BUFFER, "true");
        }
    }

    private WorkerProcess(long heapBytes) throws IOException {
        this.heapBytes = heapBytes;
        ProcessBuilder builder = new ProcessBuilder(command(heapBytes));
        builder.environment().clear();
        process = builder.start();
        pid = process.pid();
        label = "the sandbox worker process (pid " + pid + ")";
        out = MessagePack.newDefaultPacker(new BufferedOutputStream(process.getOutputStream(), 1 << 16));
        Thread.ofPlatform().daemon().name("sandbox-worker-" + pid).start(this::read);
        Thread.ofPlatform().daemon().name("sandbox-worker-err-" + pid).start(this::drainStderr);
    }

    /**
     * A new worker that answered {@code hello} with this jar's protocol and build.
     *
     * @throws IllegalStateException when it could not be started or did not answer as it should
     */
    static WorkerProcess start(long heapBytes) {
        WorkerProcess w;
        try {
            w = new WorkerProcess(heapBytes);
        } catch (IOException e) {
            throw new IllegalStateException("could not start a sandbox worker process: " + e.getMessage(), e);
        }
        try {
            Map<Value, Value> hello = w.request("hello", START_DEADLINE).asMapValue().map();
            long protocol = hello.get(ValueFactory.newString("protocol")).asIntegerValue().toLong();
            String build = Wire.text(hello.get(ValueFactory.newString("build")));
            if (protocol != WorkerServer.PROTOCOL || !build.equals(WorkerServer.BUILD)) {
                w.kill("it runs another build of the sandbox");
                throw new IllegalStateException(w.label + " runs another build of the sandbox (protocol " + protocol
                        + ")");
            }
            return w;
        } catch (Lost | Refused e) {
            w.kill("it did not start");
            throw new IllegalStateException("the sandbox worker process did not start: " + e.getMessage()
                    + tail(w.stderrTail()));
        }
    }

    /**
     * The command line of a worker: this JVM's {@code java} and options (its compiler flags, module options and
     * system properties), less its heap size, agents, debugger and crash hooks, with {@code -Xmx} at
     * {@code heapBytes}, then this JVM's class path and module path and {@link WorkerMain}.
     */
    static List<String> command(long heapBytes) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (inherited(arg)) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx" + (heapBytes + MIB - 1) / MIB + "m");
        // Names the process as a sandbox worker of this JVM for ps and the like, early in a long command line.
        cmd.add(WORKER_PROPERTY + "=" + ProcessHandle.current().pid());
        // A crash report goes to the temporary folder, not to the host's working directory.
        cmd.add("-XX:ErrorFile="
                + Path.of(System.getProperty("java.io.tmpdir"), "langchain-graalvm-worker-hs_err_pid%p.log"));
        String modulePath = System.getProperty("jdk.module.path", "");
        if (!modulePath.isEmpty()) {
            cmd.add("--module-path=" + modulePath);
        }
        String classPath = System.getProperty("java.class.path", "");
        if (!classPath.isEmpty()) {
            cmd.add("-cp");
            cmd.add(classPath);
        }
        Module module = WorkerMain.class.getModule();
        if (module.isNamed()) {
            cmd.add("-m");
            cmd.add(module.getName() + "/" + WorkerMain.class.getName());
        } else {
            cmd.add(WorkerMain.class.getName());
        }
        return cmd;
    }

    private static boolean inherited(String arg) {
        for (String dropped : List.of("-Xmx", "-Xms", "-XX:MaxHeapSize", "-XX:InitialHeapSize", "-XX:MinHeapSize",
                "-XX:MaxRAM", "-javaagent", "-agentlib", "-agentpath", "-Xrunjdwp", "-Xdebug", "-XX:ErrorFile",
                "-XX:StartFlightRecording", "-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath",
                "-XX:OnOutOfMemoryError", "-XX:OnError", "-Djava.class.path", "-Djdk.module.path", "-Djdk.module.main",
                "-Dsun.java.command", "--module-path", "-Djava.security.manager", WORKER_PROPERTY)) {
            if (arg.startsWith(dropped)) {
                return false;
            }
        }
        return true;
    }

    boolean alive() {
        return lost == null && process.isAlive();
    }

    /** Sends a request; its answer comes to the returned call. */
    Call call(String kind, BlockingQueue<String> calls, Object... args) throws Lost {
        long rid = ids.incrementAndGet();
        Call call = new Call(rid, kind, new CompletableFuture<>(), calls);
        pending.put(rid, call);
        Object[] message = new Object[args.length + 2];
        message[0] = kind;
        message[1] = rid;
        System.arraycopy(args, 0, message, 2, args.length);
        try {
            write(message);
        } catch (Lost e) {
            pending.remove(rid);
            throw e;
        }
        return call;
    }

    /**
     * The answer to {@code call}, waited for until {@code deadlineNanos} ({@link System#nanoTime()}); a worker
     * that misses it is killed. An interrupted caller runs {@code onInterrupt} (a cancel) once and goes on waiting,
     * so the worker is left consistent; the interrupt is kept for the caller.
     */
    Value await(Call call, long deadlineNanos, Runnable onInterrupt) throws Lost, Refused {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return call.answer().get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    if (!interrupted && onInterrupt != null) {
                        onInterrupt.run();
                    }
                    interrupted = true;
                }
            }
        } catch (TimeoutException e) {
            kill("it did not answer a \"" + call.kind() + "\" request in time");
            throw new Lost(describeLoss());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Refused r) {
                throw r;
            }
            throw e.getCause() instanceof Lost l ? l : new Lost(String.valueOf(e.getCause()));
        } finally {
            pending.remove(call.rid());
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sends a request and waits up to {@code bound} for its answer. */
    Value request(String kind, Duration bound, Object... args) throws Lost, Refused {
        return await(call(kind, null, args), System.nanoTime() + bound.toNanos(), null);
    }

    /** Sends a message that has no answer (host-call results, a cancel); a lost worker ignores it. */
    void send(String kind, Object... args) {
        try {
            write(prepend(kind, args));
        } catch (Lost e) {
            // The eval it belonged to ends with the loss.
        }
    }

    private static Object[] prepend(String kind, Object[] args) {
        Object[] message = new Object[args.length + 1];
        message[0] = kind;
        System.arraycopy(args, 0, message, 1, args.length);
        return message;
    }

    private void write(Object[] message) throws Lost {
        synchronized (out) {
            if (lost != null) {
                throw new Lost(lost);
            }
            try {
                Wire.pack(out, Arrays.asList(message));
                out.flush();
            } catch (IOException e) {
                failAll(describeLoss());
                throw new Lost(lost);
            }
        }
    }

    /** Kills the worker (SIGKILL) and fails whatever waits on it. */
    void kill(String why) {
        if (killedWhy == null) {
            killedWhy = why;
        }
        process.destroyForcibly();
        failAll(describeLoss());
    }

    /** Ends the worker: closes its input (it exits on its own), then kills it if it has not within 5 s. */
    void close() {
        synchronized (out) {
            try {
                out.close();
            } catch (IOException e) {
                // Gone already.
            }
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                kill("it did not exit when its input closed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill("the thread closing it was interrupted");
        }
    }

    /** How the worker was lost, in a sentence without its final full stop. */
    String describeLoss() {
        String how;
        if (killedWhy != null) {
            how = "was killed because " + killedWhy;
        } else {
            try {
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (process.isAlive()) {
                how = "closed its pipe";
            } else {
                int code = process.exitValue();
                how = code > 128 ? "was killed by " + signalName(code - 128) : "exited with status " + code;
            }
        }
        String tail = stderrTail();
        if (tail.contains("OutOfMemoryError")) {
            how += " after its heap ran out";
        } else if (tail.contains("A fatal error has been detected")) {
            how += " after the JVM crashed";
        }
        return label + " " + how;
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 9 -> "SIGKILL";
            case 15 -> "SIGTERM";
            case 6 -> "SIGABRT";
            case 11 -> "SIGSEGV";
            case 2 -> "SIGINT";
            default -> "signal " + signal;
        };
    }

    /** The last of what the worker wrote to its standard error. */
    String stderrTail() {
        synchronized (stderr) {
            return String.join("\n", stderr);
        }
    }

    private static String tail(String text) {
        return text.isBlank() ? "" : " (its last output: " + text.strip() + ")";
    }

    private void failAll(String why) {
        if (lost == null) {
            lost = why;
        }
        for (Call call : pending.values()) {
            call.answer().completeExceptionally(new Lost(lost));
        }
    }

    /** The reader thread: dispatches answers until the stream ends, then fails whatever still waits. */
    private void read() {
        try (MessageUnpacker in = MessagePack.newDefaultUnpacker(
                new BufferedInputStream(process.getInputStream(), 1 << 16))) {
            while (in.hasNext()) {
                dispatch(in.unpackValue().asArrayValue());
            }
        } catch (IOException e) {
            // The pipe broke: the worker is gone.
        } catch (RuntimeException e) {
            kill("it sent an unreadable message");
        }
        failAll(describeLoss());
    }

    private void dispatch(ArrayValue m) {
        String kind = m.get(0).asStringValue().asString();
        Call call = pending.get(m.get(1).asIntegerValue().toLong());
        if (call == null) {
            return; // its waiter gave up
        }
        switch (kind) {
            case "calls" -> {
                if (call.calls() != null) {
                    call.calls().add(Wire.text(m.get(2)));
                }
            }
            case "ok", "outcome" -> call.answer().complete(m.get(2));
            case "snapshot-error" -> call.answer().completeExceptionally(
                    new Refused(kind, Wire.text(m.get(2)), m.get(3).asBooleanValue().getBoolean()));
            default -> call.answer().completeExceptionally(
                    new Refused(Wire.text(m.get(2)), Wire.text(m.get(3)), false));
        }
    }

    private void drainStderr() {
        try (BufferedReader err = new BufferedReader(
                new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null) {
                if (line.length() > STDERR_KEPT) {
                    line = line.substring(line.length() - STDERR_KEPT);
                }
                synchronized (stderr) {
                    stderr.add(line);
                    stderrChars += line.length();
                    while (stderrChars > STDERR_KEPT && stderr.size() > 1) {
                        stderrChars -= stderr.removeFirst().length();
                    }
                }
            }
        } catch (IOException e) {
            // The worker is gone.
        }
    }
}
