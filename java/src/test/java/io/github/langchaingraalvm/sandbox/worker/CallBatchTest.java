package io.github.langchaingraalvm.sandbox.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.langchaingraalvm.sandbox.HostCallQueue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A worker's {@code calls} batches read back into their entries, exactly as {@link HostCallQueue} wrote them. */
class CallBatchTest {
    @Test
    void readsWhatTheQueueWrites() throws Exception {
        HostCallQueue queue = new HostCallQueue();
        queue.reportWaits();
        queue.start(1, "tool", "add", "{\"a\":\"x\\\"y\",\"b\":[1,2]}");
        queue.output("stdout", "line \"one\"\n\ttab \u0001 \\ \u00e9 \ud83d\ude00");
        queue.waiting(1);
        queue.start(2, "fs", "readFile", "{}");
        queue.close();
        String batch = queue.poll(1000);
        List<CallBatch.Entry> entries = CallBatch.entries(batch);
        assertThat(entries).containsExactly(
                new CallBatch.Entry(1, "tool", "add", "{\"a\":\"x\\\"y\",\"b\":[1,2]}"),
                new CallBatch.Entry(0, "output", "stdout", "line \"one\"\n\ttab \u0001 \\ \u00e9 \ud83d\ude00"),
                new CallBatch.Entry(1, "wait", "guest", "{}"),
                new CallBatch.Entry(2, "fs", "readFile", "{}"));
        assertThat(CallBatch.entries("[]")).isEmpty();
    }

    @Test
    void refusesAnythingElse() {
        assertThatThrownBy(() -> CallBatch.entries("[[1,\"tool\"]]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CallBatch.entries("{}")).isInstanceOf(IllegalArgumentException.class);
    }
}
