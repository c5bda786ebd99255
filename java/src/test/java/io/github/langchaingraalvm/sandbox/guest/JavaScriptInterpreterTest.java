package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JavaScriptInterpreterTest {
    private JavaScriptGuest js;

    @BeforeEach
    void open() {
        js = new JavaScriptGuest(SharedEngines.get(),
                SandboxOptions.builder().timeout(Duration.ofSeconds(2)).build());
    }

    @AfterEach
    void close() {
        js.close();
    }

    @Test
    void lastExpressionIsTheResult() {
        EvalOutcome o = js.eval("let x = 20; x + 22");
        assertEquals(EvalOutcome.Status.OK, o.status());
        assertEquals("42", o.value());
        assertEquals("<result>42</result>", o.envelope());
    }

    @Test
    void globalsPersistAndCanBeDeclaredAgain() {
        js.eval("let n = 1; const c = 2; class K {}");
        assertEquals("<result>3</result>", js.eval("let n = 3; n").envelope());
        assertEquals("<result>[class K]</result>", js.eval("class K {}; K").envelope());
        assertEquals("<result>2</result>", js.eval("c").envelope());
    }

    @Test
    void topLevelAwaitBindingsPersist() {
        assertEquals("<result>7</result>", js.eval("const t = await Promise.resolve(7); t").envelope());
        assertEquals("<result>8</result>", js.eval("t + 1").envelope());
    }

    @Test
    void cellParserKnowsNonAsciiNamesAndUnicodeProperties() {
        // The parser's tables for these (compiled on first use) decide what is an identifier and which \p{...}
        // names exist; each case goes through the cell compiler (a top-level const).
        assertEquals("<result>3</result>", js.eval("const ñandú = 1, 数 = 2; ñandú + 数").envelope());
        assertEquals("<result>true</result>", js.eval("const greek = /\\p{Script=Greek}/u; greek.test('λ')").envelope());
        assertEquals("<result>true</result>", js.eval("const emoji = /^\\p{RGI_Emoji}$/v; emoji.test('👍🏽')").envelope());
        EvalOutcome bad = js.eval("const nope = /\\p{Script=Klingon}/u; 1");
        assertEquals("SyntaxError", bad.errorType());
        assertTrue(bad.errorMessage().contains("Invalid property"), bad.errorMessage());
        EvalOutcome badName = js.eval("const a\u2E2F = 1");
        assertEquals("SyntaxError", badName.errorType());
    }

    @Test
    void typeScriptAnnotationsAreStripped() {
        assertEquals("<result>5</result>", js.eval("const n: number = 5;\ninterface P { x: number }\nn").envelope());
    }

    @Test
    void syntaxErrorNamesThePosition() {
        EvalOutcome o = js.eval("let y = ;");
        assertEquals("SyntaxError", o.errorType());
        assertEquals("Unexpected token (1:9)", o.errorMessage());
    }

    @Test
    void errorStackPointsAtTheCell() {
        EvalOutcome o = js.eval("function f() {\n  throw new TypeError('bad')\n}\nf()");
        assertEquals("TypeError", o.errorType());
        assertTrue(o.errorStack().startsWith("    at f (cell:2:"), o.errorStack());
    }

    @Test
    void consoleIsCapturedInOrder() {
        EvalOutcome o = js.eval("console.log('a'); console.error('b'); 1");
        assertEquals("a\nb", o.stdout());
        assertEquals("<stdout>\na\nb\n</stdout>\n<result>1</result>", o.envelope());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Java", "Polyglot", "Packages", "java", "Graal", "load", "print", "require", "process"})
    void hostGlobalsAreAbsent(String name) {
        assertEquals("undefined", js.eval("typeof globalThis['" + name + "']").value());
    }

    @Test
    void clockIsFrozenByDefault() {
        assertEquals("[0, \"1970-01-01T00:00:00.000Z\"]", js.eval("[Date.now(), new Date().toISOString()]").value());
    }

    @Test
    void hostClockIsOptIn() {
        try (GuestInterpreter host = Sandbox.shared().newInterpreter(
                SandboxOptions.builder().clock(SandboxOptions.Clock.HOST).build())) {
            long guest = Long.parseLong(host.eval("Date.now()").value());
            assertTrue(Math.abs(guest - System.currentTimeMillis()) < 60_000);
        }
    }

    @Test
    void timeoutKeepsGlobals() {
        js.eval("var kept = 7");
        EvalOutcome o = js.eval("while (true) {}");
        assertEquals(EvalOutcome.Status.TIMEOUT, o.status());
        assertFalse(o.stateReset());
        assertEquals("<result>7</result>", js.eval("kept").envelope());
    }

    @Test
    void loopInFinallyStillTimesOut() {
        EvalOutcome o = js.eval("try { while (true) {} } finally { while (true) {} }");
        assertEquals(EvalOutcome.Status.TIMEOUT, o.status(), o.envelope());
        assertEquals("<result>2</result>", js.eval("1 + 1").envelope());
    }

    @Test
    void guestThatIgnoresTheInterruptIsClosedByForce() {
        try (JavaScriptGuest stubborn = new JavaScriptGuest(SharedEngines.get(), SandboxOptions.builder()
                .timeout(Duration.ofMillis(300)).interruptGrace(Duration.ofMillis(200)).build())) {
            // A host call that neither returns nor polls safepoints: interrupt() cannot stop it, close(true) must.
            stubborn.defineGlobal("hang", (ProxyExecutable) args -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                return null;
            });
            stubborn.eval("var kept = 1");
            long started = System.nanoTime();
            EvalOutcome o = stubborn.eval("hang()");
            assertEquals(EvalOutcome.Status.TIMEOUT, o.status(), o.envelope());
            assertTrue(o.stateReset(), o.envelope());
            assertTrue(o.errorMessage().contains("did not stop when interrupted"), o.errorMessage());
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10));
            assertEquals("undefined", stubborn.eval("typeof kept").value());
        }
    }

    @Test
    void cancelBeforeTheGuestStartsStillStopsIt() throws Exception {
        for (int i = 0; i < 20; i++) {
            CompletableFuture<EvalOutcome> run = CompletableFuture.supplyAsync(() -> js.eval("while (true) {}"));
            while (!js.isBusy() && !run.isDone()) {
                Thread.onSpinWait();
            }
            js.cancel();
            EvalOutcome o = run.get(10, TimeUnit.SECONDS);
            assertEquals("Cancelled", o.errorType(), o.envelope());
        }
    }

    @Test
    void memoryBombClosesTheContextAndAFreshOneFollows() {
        try (GuestInterpreter small = Sandbox.shared().newInterpreter(SandboxOptions.builder()
                .timeout(Duration.ofSeconds(30)).memoryLimitBytes(16L << 20).build())) {
            small.eval("var kept = 1");
            EvalOutcome o = small.eval("const a = []; while (true) a.push(new Array(1000).fill(1.5))");
            assertEquals(EvalOutcome.Status.LIMIT, o.status(), o.envelope());
            assertEquals("OutOfMemory", o.errorType());
            assertTrue(o.stateReset());
            assertEquals("undefined", small.eval("typeof kept").value());
        }
    }

    @Test
    void deepRecursionIsACatchableRangeError() {
        assertEquals("true", js.eval("function r() { return r() }\ntry { r() } catch (e) { e instanceof RangeError }")
                .value());
        assertEquals("RangeError", js.eval("function q() { return q() }\nq()").errorType());
        assertEquals("2", js.eval("1 + 1").value());
    }

    @Test
    void errorIsErrorAsksTheHostForTheErrorBrand() {
        assertEquals("true,true,true", js.eval("[new Error(), new (class extends RangeError {})(),"
                + " Object.setPrototypeOf(new TypeError(), null)].map(Error.isError).join()").value());
        assertEquals("false,false,false,false", js.eval("[Object.create(Error.prototype), Error.prototype,"
                + " new Proxy(new Error(), {}), { __proto__: Error.prototype, [Symbol.toStringTag]: 'Error' }]"
                + ".map(Error.isError).join()").value());
        // Present from the start, not a polyfill group: nothing to load.
        assertTrue(js.installedPolyfills().isEmpty());
    }

    @Test
    void outputIsBounded() {
        // A generous timeout: without JIT on a busy machine the 100,000 lines once took past the default 5 s.
        try (GuestInterpreter small = Sandbox.shared().newInterpreter(
                SandboxOptions.builder().maxResultChars(100).timeout(Duration.ofSeconds(120)).build())) {
            EvalOutcome o = small.eval("for (let i = 0; i < 100000; i++) console.log('line ' + i); 1");
            assertEquals(EvalOutcome.Status.OK, o.status(), o.envelope());
            assertEquals(100, o.stdout().length());
            assertTrue(o.stdoutDropped() > 500_000);
            assertTrue(o.envelope().contains("\u2026 [truncated "), o.envelope());
        }
    }

    @Test
    void concurrentEvalIsRefused() throws Exception {
        CompletableFuture<EvalOutcome> first = CompletableFuture.supplyAsync(() -> js.eval("while (true) {}"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!js.isBusy() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals("ConcurrentEval", js.eval("1").errorType());
        js.cancel();
        assertEquals("Cancelled", first.get(10, TimeUnit.SECONDS).errorType());
    }

    @Test
    void closedInterpreterRefusesEval() {
        js.close();
        assertThrows(IllegalStateException.class, () -> js.eval("1"));
    }

    @Test
    void interpretersDoNotShareGlobals() {
        try (GuestInterpreter other = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
            js.eval("var secret = 1; Object.prototype.polluted = true");
            assertEquals("undefined", other.eval("typeof secret").value());
            assertEquals("undefined", other.eval("({}).polluted").value());
        }
    }

    @Test
    void optionsRejectBadValues() {
        assertThrows(IllegalArgumentException.class, () -> SandboxOptions.builder().timeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> SandboxOptions.builder().memoryLimitBytes(-1));
        assertThrows(IllegalArgumentException.class, () -> SandboxOptions.builder().stackBytes(1024));
    }

    @Test
    void graalSyntaxMessagesAreReformatted() {
        assertEquals("Expected an operand but found let (1:1)",
                JavaScriptGuest.syntaxMessage("cell:1:0 Expected an operand but found let\nlet\n^\n"));
    }
}
