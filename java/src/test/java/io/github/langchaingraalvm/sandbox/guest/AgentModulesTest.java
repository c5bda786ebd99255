package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AgentModulesTest {
    private final List<String> reads = new ArrayList<>();
    private final AgentModules modules = new AgentModules(path -> {
        reads.add(path);
        if (path.equals("/lib/a.js")) {
            return "export const a = 1;";
        }
        throw new NoSuchFileException(path, null, "ENOENT: no such file");
    });

    @Test
    void agentPathDropsTheEvalPrefixAndNormalises() {
        assertEquals("/x.js", AgentModules.agentPath(Path.of("/.eval-3/lib/../x.js")));
        assertEquals("/lib/a.js", AgentModules.agentPath(Path.of("/lib/./a.js")));
        assertEquals("/", AgentModules.agentPath(Path.of("/.eval-12")));
        assertEquals("/etc/passwd", AgentModules.agentPath(Path.of("/.eval-1/../../etc/passwd")));
    }

    @Test
    void theRealPathChangesWithEveryEvalSoModulesAreReadAgain() throws Exception {
        modules.beginEval();
        Path first = modules.toRealPath(Path.of("/lib/a.js"));
        modules.checkAccess(Path.of("/lib/a.js"), Set.of());
        modules.checkAccess(first, Set.of());
        assertEquals(List.of("/lib/a.js"), reads);
        modules.beginEval();
        Path second = modules.toRealPath(Path.of("/lib/a.js"));
        assertNotEquals(first, second);
        modules.checkAccess(second, Set.of());
        assertEquals(List.of("/lib/a.js", "/lib/a.js"), reads);
    }

    @Test
    void servesModuleBytesReadOnly() throws Exception {
        modules.beginEval();
        try (SeekableByteChannel channel = modules.newByteChannel(Path.of("/lib/a.js"), Set.of(StandardOpenOption.READ))) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            channel.read(buffer);
            assertEquals("export const a = 1;", new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8));
        }
        assertThrows(AccessDeniedException.class,
                () -> modules.newByteChannel(Path.of("/lib/a.js"), Set.of(StandardOpenOption.WRITE)));
        assertThrows(AccessDeniedException.class, () -> modules.checkAccess(Path.of("/lib/a.js"), Set.of(AccessMode.WRITE)));
        assertThrows(AccessDeniedException.class, () -> modules.newDirectoryStream(Path.of("/lib"), p -> true));
        assertThrows(AccessDeniedException.class, () -> modules.delete(Path.of("/lib/a.js")));
        assertThrows(NoSuchFileException.class, () -> modules.checkAccess(Path.of("/lib/b.js"), Set.of()));
        assertThrows(UnsupportedOperationException.class, () -> modules.parsePath(java.net.URI.create("http://x/y.js")));
    }

    @Test
    void fsCallsNeedABridgeThatExposesThem() {
        HostBridge without = new HostBridge((id, kind, name, input) -> {}, List.of(), false, false, 0);
        HostBridge with = new HostBridge((id, kind, name, input) -> {}, List.of(), false, false, 0, true);
        assertNotNull(SharedEngines.get().access.refusal(without, "fs", "readFile", 0, "Error"));
        assertNull(SharedEngines.get().access.refusal(with, "fs", "readFile", 0, "Error"));
        assertNull(SharedEngines.get().access.refusal(with, "fs", "module", 0, "Error"));
        assertNotNull(SharedEngines.get().access.refusal(with, "fs", "chmod", 0, "Error"));
        assertEquals("-|fs", SharedEngines.get().access.shape(with));
    }
}
