package io.github.langchaingraalvm.sandbox.worker;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;

/**
 * The MessagePack form of the values the worker protocol sends ({@link WorkerServer}), and of an eval's outcome for
 * both of the Python package's backends: a worker sends the outcome's fields in its {@code outcome} message, and the
 * in-process backend reads the same fields from {@link #outcome} in one call across JPype instead of one call per
 * field. The Python side decodes both with one function.
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
        return fields;
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

    /** Writes {@code item}: null, a string, boolean, integer, double, or a list or map of those. */
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
