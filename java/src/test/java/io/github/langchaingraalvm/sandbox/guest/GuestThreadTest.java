package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import org.junit.jupiter.api.Test;

class GuestThreadTest {
    @Test
    void everyClassInitialisedAheadOfTheGuestIsInThisRuntime() throws Exception {
        // A name that no longer matches a class would leave that class to its first use, which may come at the
        // bottom of an overflowing stack: the list must name what the engine has.
        ClassLoader engineLoader = org.graalvm.polyglot.Engine.class.getClassLoader();
        for (String name : GuestThread.ENGINE_INITIALIZED_FIRST) {
            assertEquals(name, Class.forName(name, false, engineLoader).getName());
        }
        for (String name : GuestThread.INITIALIZED_FIRST) {
            assertEquals(name, Class.forName(name, false, null).getName());
        }
    }

    @Test
    void ordinaryFailuresDoNotMarkTheSandboxUnusable() {
        assertTrue(!Engines.noteFailure(new IllegalStateException("x", new StackOverflowError())));
        assertNull(Sandbox.unusableReason());
        assertEquals("the stack ran out", Failures.describe(new IllegalStateException(new StackOverflowError())));
        assertEquals("boom", Failures.describe(new RuntimeException(new Error("boom"))));
    }

    @Test
    void theJvmHeapRunningOutOutsideTheCellIsAMemoryStopNotAnInternalError() throws Exception {
        SandboxOptions options = SandboxOptions.builder().build();
        GuestThread thread = new GuestThread("heap-test", options, 1 << 20, new Watchdog(), SharedEngines.get().access, () -> { });
        EvalOutcome heap = thread.eval(() -> {
            throw new OutOfMemoryError("Java heap space");
        });
        assertEquals(EvalOutcome.Status.LIMIT, heap.status());
        assertEquals("OutOfMemory", heap.errorType());
        assertTrue(heap.stateReset());
        EvalOutcome other = thread.eval(() -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(EvalOutcome.Status.ERROR, other.status());
        assertEquals("InternalError", other.errorType());
        assertTrue(other.stateReset());
        thread.close();
    }
}
