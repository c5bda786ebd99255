package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SandboxedJavaScriptToolTest {
    private SandboxedJavaScriptTool tool;

    @BeforeEach
    void open() {
        tool = new SandboxedJavaScriptTool(SandboxOptions.builder().timeout(Duration.ofSeconds(2)).build(), 2);
    }

    @AfterEach
    void close() {
        tool.close();
    }

    @Test
    void specificationHasOneCodeParameter() {
        List<ToolSpecification> specs = ToolSpecifications.toolSpecificationsFrom(tool);
        assertEquals(1, specs.size(), specs.toString());
        ToolSpecification spec = specs.get(0);
        assertEquals("executeJavaScript", spec.name());
        assertTrue(spec.description().contains("persist between calls in this conversation"), spec.description());
        assertEquals(List.of("code"), List.copyOf(spec.parameters().properties().keySet()));
        assertEquals(List.of("code"), spec.parameters().required());
    }

    @Test
    void keepsStatePerSession() {
        assertEquals("<result>undefined</result>", tool.executeJavaScript("alice", "let n = 41"));
        assertEquals("<result>42</result>", tool.executeJavaScript("alice", "n + 1"));
        assertEquals("<result>undefined</result>", tool.executeJavaScript("bob", "typeof n"));
        assertEquals(2, tool.sessionCount());
    }

    @Test
    void nullSessionIsTheDefaultSession() {
        tool.executeJavaScript("var shared = 'yes'");
        assertEquals("<result>yes</result>", tool.executeJavaScript(null, "shared"));
        assertEquals("<result>yes</result>", tool.executeJavaScript(SandboxedJavaScriptTool.DEFAULT_SESSION, "shared"));
    }

    @Test
    void evictsTheLeastRecentlyUsedSession() {
        tool.executeJavaScript(1, "var who = 'one'");
        tool.executeJavaScript(2, "var who = 'two'");
        tool.executeJavaScript(1, "who");
        tool.executeJavaScript(3, "var who = 'three'");
        assertEquals(2, tool.sessionCount());
        assertEquals("<result>one</result>", tool.executeJavaScript(1, "who"));
        assertEquals("<result>undefined</result>", tool.executeJavaScript(2, "typeof who"), "2 was evicted");
    }

    @Test
    void busySessionsAreNotEvicted() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            tool.executeJavaScript("a", "var who = 'a'");
            // Runs until the 2 s timeout, which keeps the globals; "a" is the least recently used session meanwhile.
            CompletableFuture<String> slow = CompletableFuture.supplyAsync(
                    () -> tool.executeJavaScript("a", "while (true) {}"), pool);
            while (tool.callsInFlight("a") == 0) {
                Thread.onSpinWait();
            }
            tool.executeJavaScript("b", "var who = 'b'");
            tool.executeJavaScript("c", "var who = 'c'");
            assertEquals(1, tool.callsInFlight("a"), "the slow call was still running");
            assertEquals(2, tool.sessionCount(), "b, the least recently used idle session, was evicted");
            assertTrue(slow.get(30, TimeUnit.SECONDS).startsWith("<error type=\"Timeout\">"));
            assertEquals("<result>a</result>", tool.executeJavaScript("a", "who"));
            assertEquals("<result>undefined</result>", tool.executeJavaScript("b", "typeof who"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void callsInOneSessionWaitForEachOther() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            tool.executeJavaScript("s", "var count = 0");
            List<CompletableFuture<String>> calls = new java.util.ArrayList<>();
            for (int k = 0; k < 4; k++) {
                calls.add(CompletableFuture.supplyAsync(
                        () -> tool.executeJavaScript("s", "let j = 0; while (j < 1e4) j++; ++count"), pool));
            }
            for (CompletableFuture<String> call : calls) {
                String text = call.get(30, TimeUnit.SECONDS);
                assertTrue(text.startsWith("<result>"), text);
            }
            assertEquals("<result>4</result>", tool.executeJavaScript("s", "count"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeSessionForgetsItsGlobals() {
        tool.executeJavaScript("alice", "var kept = 1");
        assertTrue(tool.closeSession("alice"));
        assertFalse(tool.closeSession("alice"));
        assertEquals("<result>undefined</result>", tool.executeJavaScript("alice", "typeof kept"));
    }

    @Test
    void timeoutIsReportedToTheModel() {
        String text = tool.executeJavaScript("alice", "for (;;) {}");
        assertTrue(text.startsWith("<error type=\"Timeout\">Execution exceeded the 2 s timeout"), text);
    }

    @Test
    void closeClosesEverySession() {
        tool.executeJavaScript("alice", "1");
        tool.executeJavaScript("bob", "1");
        tool.close();
        tool.close();
        assertEquals(0, tool.sessionCount());
        assertThrows(IllegalStateException.class, () -> tool.executeJavaScript("alice", "1"));
    }

    @Test
    void optionsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new SandboxedJavaScriptTool(SandboxOptions.defaults(), 0));
        assertThrows(NullPointerException.class, () -> new SandboxedJavaScriptTool(null));
        assertEquals(SandboxedJavaScriptTool.DEFAULT_MAX_SESSIONS, new SandboxedJavaScriptTool().maxSessions());
    }
}
