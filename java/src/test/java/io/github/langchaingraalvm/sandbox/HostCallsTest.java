package io.github.langchaingraalvm.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code tools.*} and {@code task()} calls through {@link HostBridge}, settled from other threads. */
class HostCallsTest {
    private final ScheduledExecutorService host = Executors.newScheduledThreadPool(4);
    private GuestInterpreter js = open(SandboxOptions.builder().timeout(Duration.ofSeconds(2)).build());

    private static GuestInterpreter open(SandboxOptions options) {
        return Sandbox.shared().newInterpreter(options);
    }

    @AfterEach
    void close() {
        js.close();
        host.shutdownNow();
    }

    /** A bridge whose tools answer {"echo": input} after {@code delayMillis}, recording each call's input. */
    private HostBridge echo(List<String> seen, long delayMillis, int budget, String... names) {
        HostCallHandler handler = (id, kind, name, input) -> {
            seen.add(kind + ":" + name + ":" + input);
            host.schedule(() -> js.completeHostCall(id, true, "{\"echo\":" + input + "}"), delayMillis,
                    TimeUnit.MILLISECONDS);
        };
        return new HostBridge(handler, List.of(names), true, true, budget);
    }

    @Test
    void toolsIsAFrozenObjectOfFunctionsThatAreNotModelGlobals() {
        HostBridge bridge = echo(new CopyOnWriteArrayList<>(), 0, 0, "webSearch", "fetchPage");
        assertEquals("<result>webSearch,fetchPage true function function</result>", js.eval(
                "Object.keys(tools).join(',') + ' ' + Object.isFrozen(tools) + ' ' + typeof tools.webSearch + ' '"
                        + " + typeof task", bridge).envelope());
        assertEquals("<result>true</result>", js.eval("(() => { try { tools.x = 1; return false } catch (e) {"
                + " return e instanceof TypeError } })()", bridge).envelope());
    }

    @Test
    void callsResolveWithTheHostsValueAndInputsArriveAsJson() {
        List<String> seen = new CopyOnWriteArrayList<>();
        HostBridge bridge = echo(seen, 5, 0, "lookup");
        EvalOutcome o = js.eval("const r = await tools.lookup({id: 7n, skip: undefined, at: [1, undefined],"
                + " bytes: new Uint8Array([1, 2])}); JSON.stringify(r.echo.at) + typeof r.echo.id", bridge);
        assertEquals("<result>[1,null]bigint</result>", o.envelope(), o.envelope());
        assertEquals("tool:lookup:{\"id\":{\"\\u0000bigint\":\"7\"},\"at\":[1,null],\"bytes\":{\"\\u0000bytes\":[1,2]}}",
                seen.get(0));
        assertEquals("<result>{\"input\":\"plain\"}</result>", js.eval(
                "JSON.stringify((await tools.lookup('plain')).echo)", bridge).envelope());
    }

    @Test
    void rejectionsCarryTheTypeAndMessageTheHostGives() {
        HostCallHandler failing = (id, kind, name, input) -> js.completeHostCall(id, false,
                "{\"type\":\"RuntimeError\",\"message\":\"tools.boom failed: nope\"}");
        HostBridge bridge = new HostBridge(failing, List.of("boom"), true, false, 0);
        EvalOutcome uncaught = js.eval("await tools.boom({})", bridge);
        assertEquals("<error type=\"RuntimeError\">tools.boom failed: nope</error>", uncaught.envelope());
        assertEquals("<result>RuntimeError|tools.boom failed: nope</result>", js.eval(
                "try { await tools.boom({}); 'no' } catch (e) { globalThis.m = e.name + '|' + e.message }\nm", bridge)
                .envelope());
    }

    @Test
    void theBudgetRefusesTheCallPastItBeforeTheHostSeesIt() {
        List<String> seen = new CopyOnWriteArrayList<>();
        HostBridge bridge = echo(seen, 0, 3, "ping");
        EvalOutcome o = js.eval("await Promise.all(Array.from({length: 10}, () => tools.ping({})))", bridge);
        assertTrue(o.envelope().startsWith("<error type=\"PTCCallBudgetExceeded\">PTC call budget exceeded (limit=3,"
                + " attempted=4, function=tools.ping)"), o.envelope());
        assertEquals(3, seen.size());
        // The budget is per eval.
        assertEquals("<result>3</result>", js.eval(
                "(await Promise.all([tools.ping({}), tools.ping({}), tools.ping({})])).length", bridge).envelope());
    }

    @Test
    void tasksDoNotCountAgainstTheBudget() {
        List<String> seen = new CopyOnWriteArrayList<>();
        HostBridge bridge = echo(seen, 0, 1, "ping");
        assertEquals("<result>4</result>", js.eval("await tools.ping({}); (await Promise.all([1, 2, 3].map((i) =>"
                + " task({description: 'd' + i, subagentType: 'w'})))).length + 1", bridge).envelope());
        assertEquals(4, seen.size());
    }

    @Test
    void waitingOnTheHostDoesNotCountAgainstTheTimeout() {
        js.close();
        // The host takes three times the timeout; the cell's own work (a cold context on a loaded machine) has it all.
        js = open(SandboxOptions.builder().timeout(Duration.ofSeconds(1)).build());
        HostBridge bridge = echo(new CopyOnWriteArrayList<>(), 3000, 0, "slow");
        assertEquals("<result>1</result>", js.eval("await tools.slow({}); 1", bridge).envelope());
    }

    @Test
    void theWallClockCapStopsAnEvalWhoseHostNeverAnswers() {
        js.close();
        js = open(SandboxOptions.builder().maxWallTime(Duration.ofMillis(400)).build());
        HostBridge bridge = new HostBridge((id, kind, name, input) -> {}, List.of("hang"), true, false, 0);
        EvalOutcome o = js.eval("globalThis.kept = 1; await tools.hang({})", bridge);
        assertEquals(EvalOutcome.Status.TIMEOUT, o.status());
        assertTrue(o.errorMessage().contains("more than 0.4 s of wall-clock time")
                && o.errorMessage().contains("1 host call was still running"), o.errorMessage());
        assertEquals("<result>1</result>", js.eval("kept").envelope(), "globals survive");
    }

    @Test
    void cancellingWhileWaitingOnTheHostStopsTheEval() throws Exception {
        HostBridge bridge = new HostBridge((id, kind, name, input) -> {}, List.of("hang"), true, false, 0);
        CompletableFuture<EvalOutcome> running = CompletableFuture.supplyAsync(() -> js.eval(
                "await tools.hang({})", bridge));
        Thread.sleep(300);
        js.cancel();
        EvalOutcome o = running.get(10, TimeUnit.SECONDS);
        assertEquals("Cancelled", o.errorType());
        assertEquals("<result>2</result>", js.eval("1 + 1").envelope());
    }

    @Test
    void aCompletionThatArrivesAfterItsEvalIsIgnored() throws Exception {
        long[] last = new long[1];
        HostBridge bridge = new HostBridge((id, kind, name, input) -> last[0] = id, List.of("later"), true, false, 0);
        js.close();
        js = open(SandboxOptions.builder().maxWallTime(Duration.ofMillis(200)).build());
        assertEquals(EvalOutcome.Status.TIMEOUT, js.eval("await tools.later({})", bridge).status());
        js.completeHostCall(last[0], true, "\"stale\"");
        assertEquals("<result>fresh</result>", js.eval("'fresh'", bridge).envelope());
    }

    @Test
    void callsNotAwaitedStillFinishInsideTheirEval() {
        List<String> seen = new CopyOnWriteArrayList<>();
        HostBridge bridge = echo(seen, 100, 0, "send");
        EvalOutcome o = js.eval("tools.send({n: 1}).then(() => console.log('sent')); 'queued'", bridge);
        assertEquals("queued", o.value(), o.envelope());
        assertEquals("sent", o.stdout());
    }

    @Test
    void withoutABridgeTheInstalledFunctionsReject() {
        js.eval("1", echo(new CopyOnWriteArrayList<>(), 0, 0, "ping"));
        EvalOutcome o = js.eval("await tools.ping({})");
        assertEquals("HostError", o.errorType());
    }

    @Test
    void theQueueHandsOverCallsInBatches() throws Exception {
        HostCallQueue queue = new HostCallQueue();
        HostBridge bridge = new HostBridge(queue, List.of("ping"), true, false, 0);
        CompletableFuture<EvalOutcome> running = CompletableFuture.supplyAsync(() -> js.eval(
                "(await Promise.all([tools.ping({a: 1}), tools.ping({a: 2})])).join('+')", bridge));
        String batch = queue.poll(5000);
        while (batch.equals("[]")) {
            batch = queue.poll(5000);
        }
        assertTrue(batch.startsWith("[[") && batch.contains("\"tool\",\"ping\",\"{\\\"a\\\":1}\""), batch);
        String rest = batch.contains("{\\\"a\\\":2}") ? "" : queue.poll(5000);
        assertTrue((batch + rest).contains("{\\\"a\\\":2}"));
        long first = Long.parseLong(batch.substring(2, batch.indexOf(',')));
        js.completeHostCalls(new long[] {first, first + 1}, "[[" + first + ",true,\"x\"],[" + (first + 1)
                + ",true,\"y\"]]");
        assertEquals("<result>x+y</result>", running.get(10, TimeUnit.SECONDS).envelope());
        queue.close();
        assertNull(queue.poll(10));
    }

    @Test
    void aCallsInputIsOneEntryOfTheBatchWhateverItHolds() throws Exception {
        // The Python guest's helpers are within the guest's reach: an input may close its own entry and add more.
        HostCallQueue queue = new HostCallQueue();
        queue.start(7, "tool", "ping", "{}],[8,\"tool\",\"ping\",{}");
        queue.start(9, "tool", "ping", "\"\\\n\u0001");
        assertEquals("[[7,\"tool\",\"ping\",\"{}],[8,\\\"tool\\\",\\\"ping\\\",{}\"],"
                + "[9,\"tool\",\"ping\",\"\\\"\\\\\\n\\u0001\"]]", queue.poll(10));
    }

    @Test
    void theQueueReportsWhenTheGuestWaitsOnItsCallsAfterEveryCallItStarted() throws Exception {
        HostCallQueue queue = new HostCallQueue();
        queue.reportWaits();
        HostBridge bridge = new HostBridge(queue, List.of("ping"), true, false, 0);
        CompletableFuture<EvalOutcome> running = CompletableFuture.supplyAsync(() -> js.eval(
                "const a = tools.ping({a: 1}); let x = 0; for (let i = 0; i < 1e4; i++) { x = (x + i) % 7 }\n"
                        + "const b = tools.ping({a: 2}); (await a) + (await b)", bridge));
        String seen = pollUntil(queue, "\"wait\"", running);
        assertTrue(seen.contains("{\\\"a\\\":1}") && seen.contains("{\\\"a\\\":2}"), seen);
        assertTrue(seen.endsWith("[0,\"wait\",\"guest\",\"{}\"]]"), seen);
        long first = Long.parseLong(seen.substring(seen.indexOf("[[") + 2, seen.indexOf(',')));
        js.completeHostCalls(new long[] {first}, "[[" + first + ",true,\"x\"]]");
        assertTrue(pollUntil(queue, "\"wait\"", running).endsWith("[1,\"wait\",\"guest\",\"{}\"]]"));
        js.completeHostCalls(new long[] {first + 1}, "[[" + (first + 1) + ",true,\"y\"]]");
        assertEquals("<result>xy</result>", running.get(10, TimeUnit.SECONDS).envelope());
        queue.close();
    }

    /** The queue's batches, joined, up to the first holding {@code marker}. */
    private static String pollUntil(HostCallQueue queue, String marker, CompletableFuture<EvalOutcome> running)
            throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        while (!seen.toString().contains(marker)) {
            assertTrue(!running.isDone(), () -> "the eval ended first: " + running.join().envelope() + " " + seen);
            String batch = queue.poll(5000);
            assertNotNull(batch);
            seen.append(batch.equals("[]") ? "" : batch);
        }
        return seen.toString().replace("][", ",");
    }

    @Test
    void bridgeNamesMustBeIdentifiers() {
        assertThrows(IllegalArgumentException.class, () -> new HostBridge((a, b, c, d) -> {}, List.of("no-dash"),
                true, false, 0));
        assertThrows(IllegalArgumentException.class, () -> new HostBridge((a, b, c, d) -> {}, List.of(), true,
                false, -1));
    }

    private static HostBridge seeded(Long seed) {
        return new HostBridge((id, kind, name, input) -> {}, List.of(), true, false, 0, false, seed);
    }

    @Test
    void aSeededCellDrawsTheSameNumbersEveryTimeItRunsAndAnUnseededOneGetsTheEnginesBack() {
        String draw = "Array.from({length: 5}, () => Math.random()).join(',')";
        assertEquals("<result>true</result>", js.eval("globalThis.engine = Math.random; true").envelope());
        String first = js.eval(draw, seeded(42L)).envelope();
        assertEquals(first, js.eval(draw, seeded(42L)).envelope());
        assertTrue(!first.equals(js.eval(draw, seeded(43L)).envelope()), first);
        long big = (1L << 53) - 1;
        assertEquals(js.eval(draw, seeded(big)).envelope(), js.eval(draw, seeded(big)).envelope());
        assertEquals("<result>true</result>", js.eval("Array.from({length: 1000}, () => Math.random())"
                + ".every(x => x >= 0 && x < 1 && x === x)", seeded(7L)).envelope());
        assertEquals("<result>false</result>", js.eval("Math.random === engine", seeded(7L)).envelope());
        assertEquals("<result>true</result>", js.eval("Math.random === engine", seeded(null)).envelope());
        assertEquals("<result>true</result>", js.eval("Math.random === engine").envelope());
    }

    @Test
    void aFrozenMathKeepsTheGlobalsOfTheNextSeededCell() {
        assertEquals("<result>true</result>", js.eval("globalThis.kept = 5; globalThis.engine = Math.random;"
                + " Object.freeze(Math); true").envelope());
        assertEquals("<result>[5, true]</result>", js.eval("[kept, Math.random === engine]", seeded(42L)).envelope());
        assertEquals("<result>5</result>", js.eval("kept", seeded(null)).envelope());
        assertEquals("<result>5</result>", js.eval("kept").envelope());
    }

    @Test
    void aSeedOutsideTheRangeANumberHoldsExactlyIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> seeded(1L << 53));
        assertThrows(IllegalArgumentException.class, () -> seeded(-1L));
    }
}
