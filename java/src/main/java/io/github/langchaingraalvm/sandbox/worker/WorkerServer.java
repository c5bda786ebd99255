package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SnapshotException;
import io.github.langchaingraalvm.sandbox.guest.GuestThread;
import io.github.langchaingraalvm.sandbox.HostCallQueue;
import io.github.langchaingraalvm.sandbox.text.UnicodeText;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;

/**
 * Serves the sandbox to one client over a pair of streams: each message is one MessagePack array whose first item
 * names it. The client (the Python package's worker backend) keeps the tools, the review and the snapshot keys;
 * this side holds the interpreters and sends each eval's host calls back to be run there.
 *
 * <p>Requests, client to server ({@code rid} is the client's request id, {@code gid} an interpreter's id):
 * <pre>
 * ["hello", rid]                          -> ["ok", rid, {protocol, build, graalvm, python}]
 * ["new", rid, options]                   -> ["ok", rid, [gid, importsModules]]
 * ["prepare", rid, gid]                   -> ["ok", rid, nil]
 * ["eval", rid, gid, code, bridge|nil]    -> ["calls", rid, batch]*, then ["outcome", rid, outcome]
 * ["complete", gid, [callId...], batch]   (no answer: settles host calls)
 * ["module", gid, callId, ok, text]       (no answer: settles a module read)
 * ["cancel", gid]                         (no answer: stops the running eval)
 * ["snapshot", rid, gid, maxBytes]        -> ["ok", rid, text] or ["snapshot-error", rid, message, tooLarge]
 * ["restore", rid, gid, text]             -> ["ok", rid, [name...]] or ["snapshot-error", rid, message, false]
 * ["close", rid, gid]                     -> ["ok", rid, nil]
 * ["facts", rid]                          -> ["ok", rid, {graalvm, runtime, jit, policy, python, unusable, heapMax,
 *                                              pid, guests, sessions}] (the JVM's, over every session)
 * </pre>
 * Any request may instead get {@code ["error", rid, kind, message]}; {@code kind} {@code "broken"} means the JVM
 * can no longer run guest code, {@code "busy"} that the session already has {@link #MAX_IN_FLIGHT} requests in
 * flight. Text from the client that holds lone surrogates comes as binary UTF-16LE; text to
 * the client has them escaped ({@link UnicodeText#visible(String)}). The end of the input ends the server.
 */
public final class WorkerServer {
    /** The protocol's version: a client of another version is refused at {@code hello}. */
    public static final int PROTOCOL = 1;

    /**
     * The SHA-256 of the jar this class was loaded from, in hex: a client built from another jar refuses a server
     * whatever its protocol says. {@code "classes"} when loaded from a folder.
     */
    public static final String BUILD = buildId();

    private final MessageUnpacker in;
    private final MessagePacker out;
    private final Map<Long, GuestInterpreter> guests = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    /** Interpreters and sessions alive in this JVM, over every server. */
    private static final AtomicLong LIVE_GUESTS = new AtomicLong();
    private static final AtomicLong LIVE_SESSIONS = new AtomicLong();
    /** Contexts built ahead of need, by their options (as JSON), shared by every session of this JVM. */
    private static final Map<String, GuestInterpreter> SPARES = new ConcurrentHashMap<>();
    private static final java.util.Set<String> SPARES_BUILDING = ConcurrentHashMap.newKeySet();
    private static final int MAX_SPARES = 4;
    /** Requests of one session being answered at once (an eval counts until its outcome is sent). */
    static final int MAX_IN_FLIGHT = 1024;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final ExecutorService requests = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "worker-request");
        thread.setDaemon(true);
        return thread;
    });

    /** A server reading requests from {@code input} and writing answers to {@code output}. */
    public WorkerServer(InputStream input, OutputStream output) {
        this.in = MessagePack.newDefaultUnpacker(new BufferedInputStream(input, 1 << 16));
        this.out = MessagePack.newDefaultPacker(new BufferedOutputStream(output, 1 << 16));
    }

    /** Serves until the input ends, then closes every interpreter. */
    public void serve() throws IOException {
        LIVE_SESSIONS.incrementAndGet();
        try {
            while (in.hasNext()) {
                ArrayValue message = in.unpackValue().asArrayValue();
                dispatch(message);
            }
        } finally {
            for (GuestInterpreter guest : guests.values()) {
                guest.close();
                LIVE_GUESTS.decrementAndGet();
            }
            guests.clear();
            LIVE_SESSIONS.decrementAndGet();
        }
    }

    private void dispatch(ArrayValue m) {
        String kind = m.get(0).asStringValue().asString();
        switch (kind) {
            case "complete" -> {
                GuestInterpreter guest = guests.get(m.get(1).asIntegerValue().toLong());
                if (guest != null) {
                    List<Value> list = m.get(2).asArrayValue().list();
                    long[] callIds = new long[list.size()];
                    for (int i = 0; i < callIds.length; i++) {
                        callIds[i] = list.get(i).asIntegerValue().toLong();
                    }
                    guest.completeHostCalls(callIds, Wire.text(m.get(3)));
                }
            }
            case "module" -> {
                GuestInterpreter guest = guests.get(m.get(1).asIntegerValue().toLong());
                if (guest != null) {
                    guest.completeModuleRead(m.get(2).asIntegerValue().toLong(), m.get(3).asBooleanValue().getBoolean(),
                            Wire.text(m.get(4)));
                }
            }
            case "cancel" -> {
                GuestInterpreter guest = guests.get(m.get(1).asIntegerValue().toLong());
                if (guest != null) {
                    guest.cancel();
                }
            }
            default -> {
                long rid = m.get(1).asIntegerValue().toLong();
                // A client that sends requests and reads no answers would otherwise leave a thread per request
                // blocked on its full socket. Past the bound it is refused on this thread, whose own write then
                // waits for the client: back-pressure on that session alone, while "complete" messages of a client
                // that does read still get through.
                if (!inFlight.tryAcquire()) {
                    send("error", rid, "busy", "more than " + MAX_IN_FLIGHT + " requests are in flight in this session");
                    return;
                }
                requests.execute(() -> {
                    try {
                        answer(kind, rid, m);
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
    }

    private void answer(String kind, long rid, ArrayValue m) {
        try {
            switch (kind) {
                case "hello" -> send("ok", rid, Map.of("protocol", (long) PROTOCOL, "build", BUILD,
                        "graalvm", Sandbox.shared().graalvmVersion(),
                        "python", Sandbox.shared().pythonAvailable()));
                case "new" -> {
                    MapValue options = m.get(2).asMapValue();
                    String key = options.toJson();
                    GuestInterpreter guest = SPARES.remove(key);
                    if (guest == null || guest.isClosed()) {
                        guest = Wire.newGuest(options.map());
                    }
                    long gid = ids.incrementAndGet();
                    guests.put(gid, guest);
                    LIVE_GUESTS.incrementAndGet();
                    send("ok", rid, List.of(gid, guest.importsModules()));
                    makeSpare(key, options);
                }
                case "prepare" -> {
                    guest(m).prepare();
                    send("ok", rid, (Object) null);
                }
                case "eval" -> eval(rid, m);
                case "snapshot" -> {
                    try {
                        send("ok", rid, UnicodeText.visible(guest(m).snapshot(m.get(3).asIntegerValue().toLong())));
                    } catch (SnapshotException e) {
                        send("snapshot-error", rid, UnicodeText.visible(String.valueOf(e.getMessage())), e.tooLarge());
                    }
                }
                case "restore" -> {
                    try {
                        List<String> names = new ArrayList<>();
                        for (String name : guest(m).restore(Wire.text(m.get(3)))) {
                            names.add(UnicodeText.visible(name));
                        }
                        send("ok", rid, names);
                    } catch (SnapshotException e) {
                        send("snapshot-error", rid, UnicodeText.visible(String.valueOf(e.getMessage())), false);
                    }
                }
                case "close" -> {
                    GuestInterpreter guest = guests.remove(m.get(2).asIntegerValue().toLong());
                    if (guest != null) {
                        guest.close();
                        LIVE_GUESTS.decrementAndGet();
                    }
                    send("ok", rid, (Object) null);
                }
                case "facts" -> send("ok", rid, facts());
                default -> send("error", rid, "protocol", "unknown request: " + kind);
            }
        } catch (RuntimeException | Error e) {
            String reason = Sandbox.unusableReason();
            send("error", rid, reason != null ? "broken" : e.getClass().getSimpleName(),
                    UnicodeText.visible(reason != null ? reason : String.valueOf(e.getMessage())));
        }
    }

    /**
     * Builds, on this request's thread and after its answer, a context with these options for the next {@code new}
     * to take, so that it finds one ready (a Python context takes about a second). A spare has run no cell: a
     * Python one an empty eval, a JavaScript one its preparation. At most {@link #MAX_SPARES} option sets are kept.
     */
    private static void makeSpare(String key, MapValue options) {
        if (SPARES.containsKey(key) || !SPARES_BUILDING.add(key)) {
            return;
        }
        try {
            GuestInterpreter spare = Wire.newGuest(options.map());
            if (spare.language().equals("python")) {
                spare.eval("");
            } else if (spare.options().snapshots()) {
                spare.snapshot(0);
            } else {
                spare.prepare();
            }
            while (SPARES.size() >= MAX_SPARES) {
                String oldest = SPARES.keySet().iterator().next();
                GuestInterpreter dropped = SPARES.remove(oldest);
                if (dropped != null) {
                    dropped.close();
                }
            }
            if (SPARES.putIfAbsent(key, spare) != null) {
                spare.close();
            }
        } catch (RuntimeException e) {
            // A spare is an optimisation: the next `new` builds its own context and reports any error itself.
        } finally {
            SPARES_BUILDING.remove(key);
        }
    }

    private GuestInterpreter guest(ArrayValue m) {
        GuestInterpreter guest = guests.get(m.get(2).asIntegerValue().toLong());
        if (guest == null) {
            throw new IllegalStateException("no such interpreter on this worker");
        }
        return guest;
    }

    private void eval(long rid, ArrayValue m) {
        GuestInterpreter guest = guest(m);
        GuestThread.takeAbandoned(); // this request thread's answer from an earlier eval is not this one's
        String code = Wire.text(m.get(3));
        Value spec = m.get(4);
        if (spec.isNilValue()) {
            sendOutcome(rid, guest, guest.eval(code));
            return;
        }
        HostCallQueue queue = new HostCallQueue();
        HostBridge bridge = Wire.bridge(queue, spec.asMapValue().map());
        Thread pump = Thread.ofPlatform().daemon().name("worker-calls-" + rid).start(() -> {
            try {
                String batch;
                while ((batch = queue.poll(50)) != null) {
                    if (!batch.equals("[]")) {
                        send("calls", rid, UnicodeText.visible(batch));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        EvalOutcome outcome;
        try {
            outcome = guest.eval(code, bridge);
        } finally {
            queue.close();
        }
        try {
            pump.join();  // every call the guest made is sent before its outcome
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sendOutcome(rid, guest, outcome);
    }

    private void sendOutcome(long rid, GuestInterpreter guest, EvalOutcome o) {
        Map<String, Object> fields = Wire.fields(o);
        // An interpreter rebuilds its context after a guest stuck in a builtin was given up, but that guest's thread
        // still runs here: "closed" tells the client, which kills a private worker to free its core.
        fields.put("closed", GuestThread.takeAbandoned() || guest.isClosed());
        send("outcome", rid, fields);
    }

    private Map<String, Object> facts() {
        Sandbox sandbox = Sandbox.shared();
        Map<String, Object> facts = new java.util.HashMap<>();
        facts.put("graalvm", sandbox.graalvmVersion());
        facts.put("runtime", sandbox.runtimeName());
        facts.put("jit", sandbox.jitEnabled());
        facts.put("policy", sandbox.sandboxPolicy());
        facts.put("python", sandbox.pythonAvailable());
        facts.put("unusable", Sandbox.unusableReason());
        facts.put("heapMax", Runtime.getRuntime().maxMemory());
        facts.put("pid", ProcessHandle.current().pid());
        facts.put("guests", LIVE_GUESTS.get());
        facts.put("sessions", LIVE_SESSIONS.get());
        return facts;
    }

    private static String buildId() {
        try {
            Path jar = Path.of(WorkerServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(jar)) {
                return "classes";
            }
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar)));
        } catch (IOException | URISyntaxException | NoSuchAlgorithmException | SecurityException e) {
            return "unknown";
        }
    }

    private synchronized void send(String kind, long rid, Object... items) {
        try {
            out.packArrayHeader(2 + items.length);
            out.packString(kind);
            out.packLong(rid);
            for (Object item : items) {
                Wire.pack(out, item);
            }
            out.flush();
        } catch (IOException e) {
            // The client is gone: the input ends next and the server with it.
        }
    }
}
