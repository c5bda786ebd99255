package io.github.langchaingraalvm.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An in-process interpreter whose eval had to give its guest up stays usable: the outcome says the globals are gone
 * and the next eval runs in a new context. Only {@link GuestInterpreter#close()} closes it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RebuildAfterFaultTest {
    @Test
    void aGuestStuckInABuiltinIsGivenUpAndTheNextEvalRunsInANewContext() {
        Assumptions.assumeTrue(Sandbox.shared().pythonAvailable(), "GraalPy is not installed");
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofSeconds(1))
                .interruptGrace(Duration.ofMillis(500)).build();
        try (GuestInterpreter py = Sandbox.shared().newPythonInterpreter(options)) {
            py.eval("kept = 1");
            // A builtin that runs as one long Java loop and never checks for interrupts: it ends on its own, long
            // after its timeout, grace and the 5 s the eval waits before giving it up.
            EvalOutcome outcome = py.eval("sum(range(10**9))");
            assertThat(outcome.errorType()).isEqualTo("Timeout");
            assertThat(outcome.stateReset()).isTrue();
            assertThat(outcome.errorMessage()).contains("all globals from earlier calls are gone");

            assertThat(py.isClosed()).isFalse();
            assertThat(py.eval("'kept' in globals()").value()).isEqualTo("False");
            assertThat(py.eval("6 * 7").value()).isEqualTo("42");
        }
    }

    @Test
    void closeStillClosesForGood() {
        GuestInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults());
        assertThat(js.eval("1 + 1").value()).isEqualTo("2");
        js.close();
        assertThat(js.isClosed()).isTrue();
        assertThatThrownBy(() -> js.eval("1")).isInstanceOf(IllegalStateException.class)
                .hasMessage("the interpreter is closed");
    }
}
