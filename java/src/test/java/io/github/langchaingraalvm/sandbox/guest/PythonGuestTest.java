package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.time.Duration;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.junit.jupiter.api.Test;

/** The Python guest from Java (run with -Ppython, which puts GraalPy on the test class path). */
class PythonGuestTest {
    @Test
    void hostGlobalsAreCallableAndStayOutOfSnapshots() {
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofSeconds(120)).snapshots(true).build();
        try (PythonGuest py = new PythonGuest(SharedEngines.get(), options)) {
            ProxyExecutable twice = args -> args[0].asInt() * 2;
            py.defineGlobal("twice", twice);
            EvalOutcome out = py.eval("kept = twice(21)\nkept");
            assertEquals("42", out.value(), out.envelope());
            String snapshot = py.snapshot(0);
            assertTrue(snapshot.contains("'kept'"), snapshot);
            assertFalse(snapshot.contains("'twice'"), snapshot);
        }
    }

    @Test
    void deniedProcessCreationIsAPlainErrorThatKeepsTheContext() {
        // The engine and context are built with SandboxPolicy.CONSTRAINED; building them at all verifies GraalPy
        // accepts that policy.
        try (GuestInterpreter py = Sandbox.shared().newPythonInterpreter(SandboxOptions.builder()
                .timeout(Duration.ofSeconds(120)).build())) {
            EvalOutcome out = py.eval("import os\nos.system('id')");
            assertEquals("PermissionError", out.errorType(), out.envelope());
            assertFalse(out.stateReset());
        }
    }
}
