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
    void mayDefineFindsEveryLineThatCanStartATopLevelDefOrClass() {
        for (String code : new String[] {"def f():\n    pass", "x = 1\ndef f(): pass", "@cache\ndef f(): pass",
                "class K: pass", "y = 2\r\nclass K: pass", "async def f(): pass", "x = 1\n\fdef f(): pass",
                "defaults = 1"}) {
            assertTrue(PythonGuest.mayDefine(code), code);
        }
        for (String code : new String[] {"records[42]['user']", "x = 'def'", "if True:\n    def f(): pass",
                "# def f", "print(1)\n  class_ = 2", ""}) {
            assertFalse(PythonGuest.mayDefine(code), code);
        }
    }

    @Test
    void aCellsValueComesBackWholeOrCutToTheBudget() {
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofSeconds(120)).build();
        try (PythonGuest py = new PythonGuest(SharedEngines.get(), options)) {
            EvalOutcome whole = py.eval("'+=' + 'ab'");
            assertEquals("'+=ab'", whole.value(), whole.envelope());
            assertFalse(whole.valueIncomplete(), whole.envelope());
            // Longer than the guest renders (four times the outcome's limit): cut in the guest, and marked so.
            EvalOutcome cut = py.eval("@staticmethod\ndef f(): pass\n'=' * 50000");
            assertTrue(cut.valueIncomplete(), cut.envelope());
            assertTrue(cut.value().startsWith("'==="), cut.envelope());
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
