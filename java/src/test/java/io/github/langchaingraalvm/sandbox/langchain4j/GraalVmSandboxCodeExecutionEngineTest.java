package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.code.CodeExecutionEngine;
import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GraalVmSandboxCodeExecutionEngineTest {
    private GraalVmSandboxCodeExecutionEngine engine;

    @BeforeEach
    void open() {
        // The envelope, one option away from the default LangChain4j form (tested below and in GraalVm*EngineTest).
        engine = new GraalVmSandboxCodeExecutionEngine("js",
                SandboxOptions.builder().timeout(Duration.ofMillis(500)).build(), ResultFormat.ENVELOPE);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void returnsLangChain4jsFormByDefault() {
        try (GraalVmSandboxCodeExecutionEngine plain = new GraalVmSandboxCodeExecutionEngine()) {
            assertEquals(ResultFormat.LANGCHAIN4J, plain.resultFormat());
            assertEquals("[2, 4, 6]", plain.execute("[1, 2, 3].map(x => x * 2)"));
            assertEquals("checking <input>\nok", plain.execute("console.log('checking <input>'); 'ok'"));
        }
    }

    @Test
    void isALangChain4jCodeExecutionEngine() {
        CodeExecutionEngine asLangChain4j = engine;
        assertEquals("<result>[2, 4, 6]</result>", asLangChain4j.execute("[1, 2, 3].map(x => x * 2)"));
    }

    @Test
    void keepsStateBetweenCalls() {
        engine.execute("const base: number = 40");
        engine.execute("function add(n) { return base + n }");
        assertEquals("<result>42</result>", engine.execute("add(2)"));
    }

    @Test
    void timeoutComesBackAsTimeoutErrorText() {
        engine.execute("var kept = 7");
        String text = engine.execute("while (true) {}");
        assertTrue(text.startsWith("<error type=\"Timeout\">Execution exceeded the 0.5 s timeout and was stopped."),
                text);
        assertEquals("<result>7</result>", engine.execute("kept"), "a timeout keeps the globals");
    }

    @Test
    void memoryLimitComesBackAsOutOfMemoryErrorText() {
        try (GraalVmSandboxCodeExecutionEngine small = new GraalVmSandboxCodeExecutionEngine("js", SandboxOptions.builder()
                .timeout(Duration.ofSeconds(30)).memoryLimitBytes(16L << 20).build(), ResultFormat.ENVELOPE)) {
            small.execute("var kept = 1");
            EvalOutcome o = small.evaluate("const a = []; while (true) a.push(new Array(1000).fill(1.5))");
            assertEquals(EvalOutcome.Status.LIMIT, o.status(), o.envelope());
            assertTrue(o.envelope().startsWith("<error type=\"OutOfMemory\">Execution kept more than the 16 MiB"),
                    o.envelope());
            assertTrue(o.stateReset());
            assertEquals("<result>undefined</result>", small.execute("typeof kept"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Java", "Polyglot", "Packages", "java", "Graal", "load", "print", "require", "process"})
    void hostGlobalsAreAbsent(String name) {
        assertEquals("<result>undefined</result>", engine.execute("typeof globalThis['" + name + "']"));
    }

    @Test
    void javaInteropIsAnErrorNotAnEscape() {
        String text = engine.execute("Java.type('java.lang.System').exit(1)");
        assertTrue(text.startsWith("<error type=\"ReferenceError\">"), text);
        assertEquals("<result>2</result>", engine.execute("1 + 1"), "the engine keeps working");
    }

    @Test
    void guestErrorsAndConsoleComeBackAsText() {
        assertEquals("<stdout>\nchecking &lt;input&gt;\n</stdout>\n<result>ok</result>",
                engine.execute("console.log('checking <input>'); 'ok'"));
        String text = engine.execute("function f() {\n  throw new TypeError('bad')\n}\nf()");
        assertTrue(text.startsWith("<error type=\"TypeError\">bad\n    at f (cell:2:"), text);
    }

    @Test
    void enginesDoNotShareGlobals() {
        try (GraalVmSandboxCodeExecutionEngine other = new GraalVmSandboxCodeExecutionEngine("js", SandboxOptions.defaults(),
                ResultFormat.ENVELOPE)) {
            engine.execute("var secret = 'a'");
            assertEquals("<result>undefined</result>", other.execute("typeof secret"));
        }
    }

    @Test
    void exposesItsOptions() {
        assertEquals(Duration.ofMillis(500), engine.options().timeout());
    }

    @Test
    void closedEngineRefusesCode() {
        engine.close();
        engine.close();
        assertThrows(IllegalStateException.class, () -> engine.execute("1"));
    }

    @Test
    void nullCodeIsRejected() {
        assertThrows(NullPointerException.class, () -> engine.execute(null));
        assertThrows(NullPointerException.class, () -> new GraalVmSandboxCodeExecutionEngine(null));
    }
}
