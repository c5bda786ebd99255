package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.HostCallQueue;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.internal.SandboxAccess;
import io.github.langchaingraalvm.sandbox.text.UnicodeText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

/**
 * The MessagePack forms the Python package sends and receives, for both of its backends: what a worker's messages
 * carry ({@link WorkerServer}), and what the in-process backend passes across JPype in one call each. An
 * interpreter's options ({@link #newGuest}), an eval's host functions ({@link #bridge}) and its outcome
 * ({@link #outcome}) are decoded and encoded here alone; the Python side's counterpart is its {@code _wire} module.
 * A Java host's own worker client, in this package, writes and reads the same forms here.
 */
public final class Wire {
    private Wire() {
    }

    /** An outcome's fields by their wire names; its texts hold no lone surrogates (the outcome escaped them). */
    static Map<String, Object> fields(EvalOutcome o) {
        Map<String, Object> fields = new HashMap<>();
        fields.put("status", o.status().wireName());
        fields.put("text", o.envelope());
        fields.put("value", o.value());
        fields.put("stdout", o.stdout());
        fields.put("stdoutDropped", o.stdoutDropped());
        fields.put("errorType", o.errorType());
        fields.put("errorMessage", o.errorMessage());
        fields.put("errorStack", o.errorStack());
        fields.put("stateReset", o.stateReset());
        fields.put("durationNanos", o.durationNanos());
        // For a Java client, which rebuilds the outcome itself; the Python package reads the fields above only.
        fields.put("valueIncomplete", o.valueIncomplete());
        fields.put("valueKind", o.valueKind().name());
        fields.put("plainValue", o.plainValue());
        return fields;
    }

    /** The outcome a worker's {@code outcome} message carries, as {@link #fields} wrote it. */
    static EvalOutcome outcome(Map<Value, Value> f, SandboxAccess access, int maxResultChars) {
        Value kind = f.get(ValueFactory.newString("valueKind"));
        return access.outcome(EvalOutcome.Status.valueOf(string(f, "status").toUpperCase(Locale.ROOT)),
                string(f, "value"), optionalBool(f, "valueIncomplete"), string(f, "stdout"),
                get(f, "stdoutDropped").asIntegerValue().toLong(), string(f, "errorType"), string(f, "errorMessage"),
                string(f, "errorStack"), bool(f, "stateReset"), get(f, "durationNanos").asIntegerValue().toLong(),
                maxResultChars, kind == null || kind.isNilValue() ? EvalOutcome.ValueKind.EMPTY
                        : EvalOutcome.ValueKind.valueOf(kind.asStringValue().asString()), string(f, "plainValue"));
    }

    /** {@code options} as {@link #newGuest(Map)} reads them, for an interpreter of {@code language}. */
    static Map<String, Object> options(String language, SandboxOptions o) {
        Map<String, Object> m = new HashMap<>();
        m.put("language", language);
        m.put("timeoutNanos", o.timeout().toNanos());
        m.put("interruptGraceNanos", o.interruptGrace().toNanos());
        m.put("memoryLimitBytes", o.memoryLimitBytes());
        m.put("maxResultChars", o.maxResultChars());
        m.put("captureConsole", o.captureConsole());
        m.put("clock", o.clock().name());
        m.put("frozenEpochMillis", o.frozenEpochMillis());
        m.put("snapshots", o.snapshots());
        m.put("heapFactor", o.heapFactor());
        m.put("maxWallTimeNanos", o.maxWallTime().toNanos());
        m.put("agentModules", o.agentModules() && language.equals("js"));
        m.put("maxCodeBytes", o.maxCodeBytes());
        m.put("maxNesting", o.maxNesting());
        m.put("maxStreamedChars", o.maxStreamedChars());
        return m;
    }

    /**
     * {@code b} as {@link #bridge(HostCallQueue, Map)} reads it. Waits are always reported: the client passes them
     * to the bridge's handler ({@link io.github.langchaingraalvm.sandbox.HostCallHandler#waiting(long)}).
     */
    static Map<String, Object> bridgeSpec(HostBridge b) {
        Map<String, Object> m = new HashMap<>();
        m.put("tools", b.toolNames());
        m.put("exposeTools", b.exposeTools());
        m.put("exposeTask", b.exposeTask());
        m.put("maxToolCalls", b.maxToolCalls());
        m.put("exposeFs", b.exposeFs());
        m.put("randomSeed", b.randomSeed());
        m.put("reportWaits", true);
        m.put("streamOutput", b.streamOutput());
        return m;
    }

    /** Text to send: a string, or binary UTF-16LE when it holds lone surrogates (UTF-8 cannot carry them). */
    static Object wireText(String text) {
        if (!UnicodeText.hasLoneSurrogate(text)) {
            return text;
        }
        byte[] bytes = new byte[text.length() * 2];
        for (int i = 0; i < text.length(); i++) {
            bytes[2 * i] = (byte) text.charAt(i);
            bytes[2 * i + 1] = (byte) (text.charAt(i) >> 8);
        }
        return bytes;
    }

    private static String string(Map<Value, Value> map, String key) {
        Value value = map.get(ValueFactory.newString(key));
        return value == null || value.isNilValue() ? null : text(value);
    }

    /** {@code o}'s fields as one MessagePack map, as a worker's {@code outcome} message carries them. */
    public static byte[] outcome(EvalOutcome o) {
        try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
            pack(packer, fields(o));
            return packer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a buffer in memory: not reached
        }
    }

    /**
     * A guest interpreter built from the options a client sent, as one MessagePack map: the in-process backend's
     * way to the sandbox, and the same one a worker's {@code new} request takes. {@code maxStreamedChars} may be
     * left out (the default, 1,000,000).
     *
     * @throws IllegalStateException when the options ask for Python and GraalPy's jars are not on the module path
     */
    public static GuestInterpreter newGuest(byte[] options) {
        return newGuest(unpackMap(options));
    }

    /** {@link #newGuest(byte[])} from an unpacked map. */
    static GuestInterpreter newGuest(Map<Value, Value> o) {
        SandboxOptions.Builder builder = SandboxOptions.builder()
                .timeout(Duration.ofNanos(get(o, "timeoutNanos").asIntegerValue().toLong()))
                .interruptGrace(Duration.ofNanos(get(o, "interruptGraceNanos").asIntegerValue().toLong()))
                .memoryLimitBytes(get(o, "memoryLimitBytes").asIntegerValue().toLong())
                .maxResultChars((int) get(o, "maxResultChars").asIntegerValue().toLong())
                .captureConsole(bool(o, "captureConsole"))
                .clock(SandboxOptions.Clock.valueOf(get(o, "clock").asStringValue().asString()))
                .frozenEpochMillis(get(o, "frozenEpochMillis").asIntegerValue().toLong())
                .snapshots(bool(o, "snapshots"))
                .heapFactor(get(o, "heapFactor").asFloatValue().toDouble())
                .maxWallTime(Duration.ofNanos(get(o, "maxWallTimeNanos").asIntegerValue().toLong()))
                .agentModules(bool(o, "agentModules"))
                .maxCodeBytes(get(o, "maxCodeBytes").asIntegerValue().toLong())
                .maxNesting((int) get(o, "maxNesting").asIntegerValue().toLong());
        Value maxStreamed = o.get(ValueFactory.newString("maxStreamedChars"));
        if (maxStreamed != null && !maxStreamed.isNilValue()) {
            builder.maxStreamedChars(maxStreamed.asIntegerValue().toLong());
        }
        SandboxOptions options = builder.build();
        Sandbox sandbox = Sandbox.shared();
        if (get(o, "language").asStringValue().asString().equals("python")) {
            if (!sandbox.pythonAvailable()) {
                throw new IllegalStateException("GraalPy's jars are not on this JVM's module path");
            }
            return sandbox.newPythonInterpreter(options);
        }
        return sandbox.newInterpreter(options);
    }

    /**
     * The host functions of one eval, from the spec a client sent as one MessagePack map ({@code tools},
     * {@code exposeTools}, {@code exposeTask}, {@code maxToolCalls}, {@code exposeFs}, {@code randomSeed},
     * {@code reportWaits}, and {@code streamOutput}, false when absent); their calls, and the guest's output when
     * {@code streamOutput} is true, are collected in {@code queue}.
     */
    public static HostBridge bridge(HostCallQueue queue, byte[] spec) {
        return bridge(queue, unpackMap(spec));
    }

    /** {@link #bridge(HostCallQueue, byte[])} from an unpacked map. */
    static HostBridge bridge(HostCallQueue queue, Map<Value, Value> s) {
        if (bool(s, "reportWaits")) {
            queue.reportWaits();
        }
        List<String> tools = new ArrayList<>();
        for (Value name : get(s, "tools").asArrayValue()) {
            tools.add(name.asStringValue().asString());
        }
        Value seed = get(s, "randomSeed");
        return new HostBridge(queue, tools, bool(s, "exposeTools"), bool(s, "exposeTask"),
                (int) get(s, "maxToolCalls").asIntegerValue().toLong(), bool(s, "exposeFs"),
                seed.isNilValue() ? null : seed.asIntegerValue().toLong(), optionalBool(s, "streamOutput"));
    }

    /** Text from the client: a string, or binary UTF-16LE when it holds lone surrogates. */
    static String text(Value value) {
        if (value.isBinaryValue()) {
            return UnicodeText.fromUtf16LE(value.asBinaryValue().asByteArray());
        }
        return value.asStringValue().asString();
    }

    private static Map<Value, Value> unpackMap(byte[] packed) {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(packed)) {
            return unpacker.unpackValue().asMapValue().map();
        } catch (IOException e) {
            throw new IllegalArgumentException("not a MessagePack map: " + e.getMessage(), e);
        }
    }

    private static Value get(Map<Value, Value> map, String key) {
        Value value = map.get(ValueFactory.newString(key));
        if (value == null) {
            throw new IllegalArgumentException("missing field: " + key);
        }
        return value;
    }

    private static boolean bool(Map<Value, Value> map, String key) {
        return get(map, key).asBooleanValue().getBoolean();
    }

    /** A field an older client does not send: false when absent or nil. */
    private static boolean optionalBool(Map<Value, Value> map, String key) {
        Value value = map.get(ValueFactory.newString(key));
        return value != null && !value.isNilValue() && value.asBooleanValue().getBoolean();
    }

    /** Writes {@code item}: null, a string, boolean, integer, double, bytes, or a list or map of those. */
    static void pack(MessagePacker out, Object item) throws IOException {
        if (item == null) {
            out.packNil();
        } else if (item instanceof String s) {
            out.packString(s);
        } else if (item instanceof Boolean b) {
            out.packBoolean(b);
        } else if (item instanceof Long l) {
            out.packLong(l);
        } else if (item instanceof Integer i) {
            out.packLong(i);
        } else if (item instanceof Double d) {
            out.packDouble(d);
        } else if (item instanceof byte[] bytes) {
            out.packBinaryHeader(bytes.length);
            out.writePayload(bytes);
        } else if (item instanceof List<?> list) {
            out.packArrayHeader(list.size());
            for (Object element : list) {
                pack(out, element);
            }
        } else if (item instanceof Map<?, ?> map) {
            out.packMapHeader(map.size());
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                pack(out, entry.getKey());
                pack(out, entry.getValue());
            }
        } else {
            throw new IllegalArgumentException("cannot send a " + item.getClass());
        }
    }
}
