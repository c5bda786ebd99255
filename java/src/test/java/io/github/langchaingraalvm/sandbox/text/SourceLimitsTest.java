package io.github.langchaingraalvm.sandbox.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SourceLimitsTest {
    private static final long MIB = 1L << 20;

    private static SourceLimits.Violation js(String code) {
        return SourceLimits.check(code, "js", MIB, 1000);
    }

    private static SourceLimits.Violation py(String code) {
        return SourceLimits.check(code, "python", MIB, 1000);
    }

    @Test
    void ordinaryCellsPass() {
        assertNull(js("const xs = [1, 2, 3].map(x => x * 2); `${xs.join(', ')}`"));
        assertNull(js("let s = 'a(((('; /[(]{2}/.test(s) ? s.replace(/'/g, '') : 1.5 + 2.25"));
        assertNull(js("let v: number = 1; interface P { x: number }\nv + 1"));
        assertNull(py("xs = [i * 2 for i in range(10)]\nprint(f'{xs}', '((((')\n# ((((\n"));
        assertNull(js("[" + "1,".repeat(100_000) + "1].length"));
        assertNull(js("let s = 0;\n" + "s += 1;\n".repeat(20_000) + "s"));
    }

    @Test
    void bracketsPastTheLimitAreTooDeep() {
        assertEquals("CodeTooDeep", js("(".repeat(1001) + "1" + ")".repeat(1001)).type());
        assertEquals("CodeTooDeep", js("[".repeat(1001) + "]".repeat(1001)).type());
        assertEquals("CodeTooDeep", js("x = " + "{a:".repeat(1001) + "1" + "}".repeat(1001)).type());
        assertEquals("CodeTooDeep", py("[".repeat(1001) + "]".repeat(1001)).type());
        assertNull(js("(".repeat(900) + "1" + ")".repeat(900)));
    }

    @Test
    void templateSubstitutionsAndRegExpGroupsCount() {
        assertEquals("CodeTooDeep", js("`${".repeat(1001) + "1" + "}`".repeat(1001)).type());
        assertEquals("CodeTooDeep", js("/" + "(".repeat(1001) + "a" + ")".repeat(1001) + "/.test('a')").type());
        assertNull(js("`${".repeat(400) + "1" + "}`".repeat(400)));
    }

    @Test
    void longOperatorChainsAreTooDeep() {
        SourceLimits.Violation v = js("1 + ".repeat(200_000) + "1");
        assertEquals("CodeTooDeep", v.type());
        assertTrue(v.message().contains("limit 1000"), v.message());
        assertEquals("CodeTooDeep", py("1 + ".repeat(5000) + "1").type());
        assertEquals("CodeTooDeep", js("!".repeat(1010) + "1").type());
        assertNull(js("1 + ".repeat(500) + "1"));
    }

    @Test
    void linesWithoutSemicolonsEndTheirExpressions() {
        assertNull(js("const rows = [{ok: true}]\n" + "const t = rows.filter(r => r.ok).length\n".repeat(2000) + "t"));
        assertNull(js("let n = 0\n" + "n++\nn = n * 2 + 1\n".repeat(2000)));
        assertNull(js("function f(x) {\n" + "  x = x + 1 // one more\n\n".repeat(2000) + "  return x\n}\nf(1)"));
        assertNull(js("const o = {a: 1}\n" + "const p = o.a + 1\n".repeat(2000)));
    }

    @Test
    void operatorChainsAcrossLinesStillCount() {
        assertEquals("CodeTooDeep", js("1 +\n".repeat(2000) + "1").type());
        assertEquals("CodeTooDeep", js("1\n".repeat(2000).replace("\n", "\n+ ") + "1").type());
        assertEquals("CodeTooDeep", js("x" + "\n  .y".repeat(2000)).type());
        assertEquals("CodeTooDeep", js("1" + " + a\n(b) + c".repeat(1000)).type());
        assertEquals("CodeTooDeep", js("1" + "\n// note\n\n+ a".repeat(2000)).type());
        assertEquals("CodeTooDeep", js("f(\n" + "1 + a\n".repeat(2000) + ")").type());
    }

    @Test
    void textInStringsAndCommentsIsNotCounted() {
        assertNull(js("'" + "(".repeat(5000) + "'"));
        assertNull(js("// " + "[".repeat(5000) + "\n1"));
        assertNull(js("/* " + "{".repeat(5000) + " */ 1"));
        assertNull(py("'''" + "(".repeat(5000) + "'''"));
    }

    @Test
    void sizeIsCountedInUtf8Bytes() {
        assertNull(js("'" + "x".repeat(1000) + "'"));
        SourceLimits.Violation v = SourceLimits.check("'" + "\u00e9".repeat(600) + "'", "js", 1000, 1000);
        assertEquals("CodeTooLarge", v.type());
        assertTrue(v.message().contains("1,202 bytes (limit 1,000 bytes)"), v.message());
        assertEquals(4, SourceLimits.utf8Length("\ud83d\ude00", 100));
    }

    @Test
    void aDeepCellIsRefusedAndKeepsTheGlobals() {
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofSeconds(60)).maxNesting(50).build();
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(options)) {
            js.eval("globalThis.kept = 41");
            EvalOutcome deep = js.eval("(".repeat(60) + "1" + ")".repeat(60));
            assertEquals("CodeTooDeep", deep.errorType());
            assertTrue(!deep.stateReset());
            assertEquals("42", js.eval("kept + 1").value());
        }
    }

    @Test
    void aCellPreparedPastItsTimeoutIsATimeoutThatKeepsTheGlobals() {
        // 30,000 annotated lines take the TypeScript stripper far longer than a second however warm it is (a
        // fixed sample, such as 900 nested parentheses, is stripped quickly once the stripper is compiled).
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofSeconds(1)).build();
        StringBuilder typed = new StringBuilder();
        for (int i = 0; i < 30_000; i++) {
            typed.append("let v").append(i).append(": number = ").append(i).append(";\n");
        }
        try (GuestInterpreter js = Sandbox.shared().newInterpreter(options)) {
            js.eval("globalThis.kept = 41");
            js.eval("let warm: number = 1");
            EvalOutcome slow = js.eval(typed + "v1");
            assertEquals("Timeout", slow.errorType(), slow.envelope());
            assertTrue(slow.errorMessage().contains("being parsed"), slow.errorMessage());
            assertTrue(!slow.stateReset());
            assertEquals("42", js.eval("kept + 1").value());
        }
    }

    @Test
    void waitingForTheSharedParserCountsAgainstTheTimeout() throws Exception {
        // One interpreter's 3,000 annotated lines hold the shared TypeScript stripper for seconds; another
        // interpreter's small typed cell, started meanwhile with a short timeout, must not wait for it past that
        // timeout. Only the order is asserted: on a machine fast enough to strip the big cell before the small one
        // arrives, there is nothing to wait for.
        StringBuilder typed = new StringBuilder();
        for (int i = 0; i < 3_000; i++) {
            typed.append("let w").append(i).append(": number = ").append(i).append(";\n");
        }
        SandboxOptions slow = SandboxOptions.builder().timeout(Duration.ofMinutes(10)).build();
        SandboxOptions quick = SandboxOptions.builder().timeout(Duration.ofMillis(500)).build();
        try (GuestInterpreter big = Sandbox.shared().newInterpreter(slow);
                GuestInterpreter small = Sandbox.shared().newInterpreter(quick)) {
            big.eval("let warm: number = 1");
            small.eval("globalThis.kept = 41");
            CompletableFuture<EvalOutcome> first = CompletableFuture.supplyAsync(() -> big.eval(typed + "w1"));
            Thread.sleep(300);
            EvalOutcome waited = small.eval("const s: number = 1; s");
            boolean bigStillRunning = !first.isDone();
            first.get(15, TimeUnit.MINUTES);
            if (bigStillRunning) {
                assertEquals("Timeout", waited.errorType(), waited.envelope());
                assertTrue(waited.errorMessage().contains("another interpreter's code"), waited.errorMessage());
                assertTrue(!waited.stateReset());
            }
            assertEquals("42", small.eval("kept + 1").value());
        }
    }

    @Test
    void twoInterpretersPreparingNewCellsAtOnceNeverShareTheParser() throws Exception {
        // The parser and the stripper are one context each, shared by all interpreters: a thread that read the
        // parser's result after giving up its lock entered the context while another thread parsed in it, and the
        // cell failed with "Multi threaded access requested". Every cell is new source (the cache never answers).
        SandboxOptions options = SandboxOptions.builder().timeout(Duration.ofMinutes(5)).build();
        try (GuestInterpreter a = Sandbox.shared().newInterpreter(options);
                GuestInterpreter b = Sandbox.shared().newInterpreter(options)) {
            java.util.function.Function<GuestInterpreter, String> run = js -> {
                StringBuilder errors = new StringBuilder();
                for (int i = 0; i < 150; i++) {
                    String tag = js == a ? "a" : "b";
                    String code = i % 3 == 0 ? "const t" + tag + i + ": number = " + i + "; t" + tag + i
                            : "let v" + tag + i + " = " + i + "; v" + tag + i;
                    EvalOutcome out = js.eval(code);
                    if (!String.valueOf(i).equals(out.value())) {
                        errors.append(out.envelope()).append('\n');
                    }
                }
                return errors.toString();
            };
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> run.apply(a));
            String second = run.apply(b);
            assertEquals("", first.get(10, TimeUnit.MINUTES) + second);
        }
    }
}
