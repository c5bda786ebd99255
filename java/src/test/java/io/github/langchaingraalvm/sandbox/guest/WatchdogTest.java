package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.time.Duration;
import org.graalvm.polyglot.Context;
import org.junit.jupiter.api.Test;

/** The watchdog outlives whatever fails while it watches: no eval ever runs without its limits. */
class WatchdogTest {
    @Test
    void aTickThatFailsLeavesEveryOtherEvalWatched() {
        Watchdog watchdog = SharedEngines.get().watchdog();
        // An eval whose stop fails on every tick (its grace period is missing), as any failure inside the watchdog
        // would: an OutOfMemoryError where it allocates, say.
        try (Context broken = Context.newBuilder().build()) {
            Watchdog.Ticket bad = watchdog.watch(broken, Thread.currentThread().threadId(), 0, Duration.ZERO, null);
            try {
                try (GuestInterpreter js = Sandbox.shared().newInterpreter(
                        SandboxOptions.builder().timeout(Duration.ofSeconds(1)).build())) {
                    for (int i = 0; i < 2; i++) {
                        EvalOutcome o = assertTimeoutPreemptively(Duration.ofSeconds(60),
                                () -> js.eval("while (true) {}"));
                        assertEquals(EvalOutcome.Status.TIMEOUT, o.status(), o.envelope());
                    }
                    assertEquals("<result>2</result>", js.eval("1 + 1").envelope());
                }
            } finally {
                watchdog.forget(bad);
            }
        }
        assertEquals(null, watchdog.notRunning());
    }
}
