package io.github.langchaingraalvm.sandbox.hostcall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The batch of host-call results a guest that takes them one by one reads (the Python guest). */
class HostCallBatchTest {
    @Test
    void eachEntryKeepsItsValueAsWritten() {
        String batch = "[[3, true, {\"a\": [1, \"]\\\", \"], \"b\": null}], [4, false, {\"type\": \"E\", \"message\":"
                + " \"x,y]\"}], [5, true, \"\u00e9\\ud83d\"]]";
        assertEquals(List.of(
                new HostCallBatch.Entry(3, true, "{\"a\": [1, \"]\\\", \"], \"b\": null}"),
                new HostCallBatch.Entry(4, false, "{\"type\": \"E\", \"message\": \"x,y]\"}"),
                new HostCallBatch.Entry(5, true, "\"\u00e9\\ud83d\"")), HostCallBatch.entries(batch));
    }

    @Test
    void emptyAndScalarBatches() {
        assertEquals(List.of(), HostCallBatch.entries(" [ ] "));
        assertEquals(List.of(new HostCallBatch.Entry(1, true, "42")), HostCallBatch.entries("[[1,true,42]]"));
    }

    @Test
    void malformedBatchesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> HostCallBatch.entries("[[1, true, \"open"));
        assertThrows(IllegalArgumentException.class, () -> HostCallBatch.entries("{}"));
    }
}
