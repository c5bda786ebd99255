package io.github.langchaingraalvm.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How {@link HostCallQueue} batches the guest's output with its calls. */
class HostCallQueueTest {
    /** A window no test run reaches, so a poll that returns early was ended by a call or a close. */
    private static final long LONG_WINDOW = 60_000;

    @Test
    void consecutiveOutputOfOneStreamIsOneEntry() throws Exception {
        HostCallQueue queue = new HostCallQueue(0);
        queue.output("stdout", "a\n");
        queue.output("stdout", "b\n");
        queue.output("stderr", "c\"\n");
        queue.output("stdout", "d");
        assertEquals("[[0,\"output\",\"stdout\",\"a\\nb\\n\"],[0,\"output\",\"stderr\",\"c\\\"\\n\"],"
                + "[0,\"output\",\"stdout\",\"d\"]]", queue.poll(0));
        queue.output("stdout", "e");
        assertEquals("[[0,\"output\",\"stdout\",\"e\"]]", queue.poll(0));
    }

    @Test
    void outputIsNotMergedAcrossACall() throws Exception {
        HostCallQueue queue = new HostCallQueue(LONG_WINDOW);
        queue.output("stdout", "a");
        queue.start(1, "tool", "ping", "{}");
        queue.output("stdout", "b");
        assertEquals("[[0,\"output\",\"stdout\",\"a\"],[1,\"tool\",\"ping\",\"{}\"],[0,\"output\",\"stdout\",\"b\"]]",
                queue.poll(0));
    }

    @Test
    void aPollThatFoundOnlyOutputWaitsTheWindowForMore() throws Exception {
        HostCallQueue queue = new HostCallQueue();
        queue.output("stdout", "a");
        long start = System.nanoTime();
        assertEquals("[[0,\"output\",\"stdout\",\"a\"]]", queue.poll(1000));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(HostCallQueue.OUTPUT_WINDOW_MILLIS));
    }

    @Test
    void outputDuringTheWindowJoinsTheBatchAndACallEndsIt() throws Exception {
        HostCallQueue queue = new HostCallQueue(LONG_WINDOW);
        queue.output("stdout", "a");
        CompletableFuture<String> batch = CompletableFuture.supplyAsync(() -> poll(queue));
        Thread.sleep(50);
        queue.output("stdout", "b");
        Thread.sleep(50);
        queue.start(3, "task", "task", "{}");
        assertEquals("[[0,\"output\",\"stdout\",\"ab\"],[3,\"task\",\"task\",\"{}\"]]",
                batch.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aCloseEndsTheWindowAndTheQueue() throws Exception {
        HostCallQueue queue = new HostCallQueue(LONG_WINDOW);
        queue.output("stderr", "late");
        CompletableFuture<String> batch = CompletableFuture.supplyAsync(() -> poll(queue));
        Thread.sleep(50);
        queue.close();
        assertEquals("[[0,\"output\",\"stderr\",\"late\"]]", batch.get(30, TimeUnit.SECONDS));
        assertNull(queue.poll(10));
    }

    @Test
    void aWaitEntryEndsTheWindow() throws Exception {
        HostCallQueue queue = new HostCallQueue(LONG_WINDOW);
        queue.reportWaits();
        queue.output("stdout", "a");
        queue.waiting(2);
        assertEquals("[[0,\"output\",\"stdout\",\"a\"],[2,\"wait\",\"guest\",\"{}\"]]", queue.poll(0));
    }

    @Test
    void aPollWithNothingQueuedAnswersAnEmptyBatch() throws Exception {
        HostCallQueue queue = new HostCallQueue(LONG_WINDOW);
        assertEquals("[]", queue.poll(5));
        queue.close();
        assertNull(queue.poll(5));
    }

    @Test
    void aStreamMustBeAName() {
        assertThrows(IllegalArgumentException.class, () -> new HostCallQueue().output("std\"out", "x"));
    }

    @Test
    void theGuestsOutputReachesTheQueueInOrderWithItsCalls() throws Exception {
        HostCallQueue queue = new HostCallQueue();
        HostBridge bridge = new HostBridge(queue, List.of("ping"), true, false, 0, false, null, true);
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
            CompletableFuture<EvalOutcome> running = CompletableFuture.supplyAsync(() -> js.eval(
                    "console.log('one'); console.log('two'); const r = await tools.ping({}); console.error(r); r",
                    bridge));
            StringBuilder seen = new StringBuilder();
            while (!seen.toString().contains("\"ping\"")) {
                String batch = queue.poll(5000);
                seen.append(batch.equals("[]") ? "" : batch);
            }
            String calls = seen.toString();
            assertTrue(calls.startsWith("[[0,\"output\",\"stdout\",\"one\\n"), calls);
            assertTrue(calls.indexOf("two\\n") < calls.indexOf("\"ping\""), calls);
            long id = Long.parseLong(calls.substring(calls.lastIndexOf("[") + 1, calls.lastIndexOf(",\"tool\"")));
            js.completeHostCall(id, true, "\"pong\"");
            EvalOutcome o = running.get(30, TimeUnit.SECONDS);
            assertEquals("one\ntwo\npong", o.stdout(), o.envelope());
            queue.close();
            StringBuilder rest = new StringBuilder();
            for (String b = queue.poll(100); b != null; b = queue.poll(100)) {
                rest.append(b);
            }
            assertEquals("[[0,\"output\",\"stderr\",\"pong\\n\"]]", rest.toString().replace("[]", ""));
        }
    }

    private static String poll(HostCallQueue queue) {
        try {
            return queue.poll(10_000);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
