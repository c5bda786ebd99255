package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Which failures leave the JVM unable to run guest code, and that guest code can never claim one. */
class BrokenEngineTest {
    /** The text GraalJS gave when a full heap had failed one of its node classes' initialisers on another thread. */
    private static final String SEEN = "java.lang.NoClassDefFoundError: Could not initialize class"
            + " com.oracle.truffle.js.nodes.cast.ToArrayIndexNodeGen";

    @Test
    void theEnginesOwnClassFailuresCountWhenTheyComeAsPolyglotText() {
        assertEquals(SEEN, Engines.brokenClass(SEEN, true));
        assertEquals("java.lang.ExceptionInInitializerError",
                Engines.brokenClass("java.lang.ExceptionInInitializerError", true));
        assertNull(Engines.brokenClass("java.lang.IllegalStateException: boom", true));
        assertNull(Engines.brokenClass("java.lang.NoClassDefFoundError: com/example/Missing", true));
    }

    @Test
    void aGuestErrorWithTheSameTextIsTheGuestsOwn() {
        assertNull(Engines.brokenClass(SEEN, false));
        assertNull(Engines.brokenClass(new IllegalStateException(SEEN)));
        assertEquals("Could not initialize class X",
                Engines.brokenClass(new NoClassDefFoundError("Could not initialize class X")));
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(
                SandboxOptions.builder().timeout(Duration.ofSeconds(30)).build())) {
            EvalOutcome raised = js.eval("class E extends Error {}; E.prototype.name = 'java.lang.NoClassDefFoundError';"
                    + " throw new E('Could not initialize class com.oracle.truffle.js.nodes.cast.ToArrayIndexNodeGen')");
            assertEquals(EvalOutcome.Status.ERROR, raised.status());
            assertEquals("java.lang.NoClassDefFoundError", raised.errorType());
            assertEquals("2", js.eval("1 + 1").value());
        }
        assertNull(Sandbox.unusableReason());
    }
}
