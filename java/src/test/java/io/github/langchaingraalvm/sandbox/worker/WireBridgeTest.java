package io.github.langchaingraalvm.sandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.HostCallQueue;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/** The bridge spec a client sends ({@link Wire#bridge}), as older and newer clients send it. */
class WireBridgeTest {
    private static byte[] spec(Boolean streamOutput) throws IOException {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("tools", List.of("ping"));
        s.put("exposeTools", true);
        s.put("exposeTask", false);
        s.put("maxToolCalls", 3L);
        s.put("exposeFs", false);
        s.put("randomSeed", null);
        s.put("reportWaits", false);
        if (streamOutput != null) {
            s.put("streamOutput", streamOutput);
        }
        try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
            Wire.pack(packer, s);
            return packer.toByteArray();
        }
    }

    @Test
    void streamOutputIsReadWhenSentAndFalseWhenAbsent() throws IOException {
        HostBridge on = Wire.bridge(new HostCallQueue(), spec(true));
        assertTrue(on.streamOutput());
        assertEquals(List.of("ping"), on.toolNames());
        assertEquals(3, on.maxToolCalls());
        assertFalse(Wire.bridge(new HostCallQueue(), spec(false)).streamOutput());
        assertFalse(Wire.bridge(new HostCallQueue(), spec(null)).streamOutput());
    }
}
