package io.github.langchaingraalvm.sandbox.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.GuestInterpreter;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.HostCallHandler;
import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Interpreters with {@code Isolation.PROCESS}: the guest runs in a worker JVM, every fault of that worker ends in an
 * outcome, and the next eval runs in a new worker. No timings are asserted; the timeouts only guard against hangs.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ProcessIsolationTest {
    private static final String GONE = "all globals from earlier calls are gone";

    private static GuestInterpreter js(SandboxOptions options) {
        return Sandbox.shared().newInterpreter(options);
    }

    @Test
    void runsTheGuestInAWorkerProcessAndKeepsItsGlobals() {
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = js(Workers.process().build()));
        try (GuestInterpreter js = holder[0]) {
            assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
            assertThat(js.eval("let x = 20; x + 22").value()).isEqualTo("42");
            assertThat(js.eval("x * 2").value()).isEqualTo("40");
            assertThat(js.eval("null.x").errorType()).isEqualTo("TypeError");
            assertThat(js.eval("console.log('hello'); 42").plainText()).isEqualTo("hello\n42");
            assertThat(js.eval("'s'").plainText()).isEqualTo("s");
            assertThat(Workers.pids()).contains(pid);
        }
    }

    @Test
    void aWorkerKilledMidEvalEndsTheEvalAndTheNextEvalRunsInANewWorker() throws Exception {
        try (GuestInterpreter other = js(Workers.process().build())) {
            other.eval("var kept = 7");
            GuestInterpreter[] holder = new GuestInterpreter[1];
            long pid = Workers.newWorker(() -> holder[0] = js(Workers.process().build()));
            try (GuestInterpreter js = holder[0]) {
                js.eval("var g = 1");
                CompletableFuture<EvalOutcome> running = Workers.async(() -> js.eval("while (true) {}"));
                while (!js.isBusy()) {
                    Thread.sleep(20);
                }
                Thread.sleep(300);
                Workers.kill9(pid);
                EvalOutcome outcome = running.get(120, TimeUnit.SECONDS);
                assertThat(outcome.errorType()).isEqualTo("InternalError");
                assertThat(outcome.errorMessage()).contains("pid " + pid).contains("SIGKILL").contains(GONE);
                assertThat(outcome.stateReset()).isTrue();

                assertThat(js.isClosed()).isFalse();
                assertThat(js.eval("typeof g === 'undefined'").value()).isEqualTo("true");
                assertThat(js.eval("1 + 1").value()).isEqualTo("2");
                assertThat(other.eval("kept").value()).isEqualTo("7");
            }
        }
    }

    @Test
    void aWorkerKilledBetweenEvalsIsReportedOnceAndReplaced() {
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = js(Workers.process().build()));
        try (GuestInterpreter js = holder[0]) {
            js.eval("var g = 1");
            Workers.kill9(pid);
            assertThat(Workers.ends(pid, 60)).isTrue();
            EvalOutcome outcome = js.eval("g");
            assertThat(outcome.errorType()).isEqualTo("InternalError");
            assertThat(outcome.errorMessage()).contains(GONE);
            assertThat(js.eval("2 + 2").value()).isEqualTo("4");
        }
    }

    @Test
    void aWorkerThatStopsAnsweringIsKilledAtItsDeadline() throws Exception {
        SandboxOptions options = Workers.process().maxWallTime(Duration.ofSeconds(1)).build();
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = js(options));
        try (GuestInterpreter js = holder[0]) {
            js.eval("var g = 1");
            // Stopped, the worker neither answers nor closes its pipe: only the eval's deadline (max wall time,
            // grace and the slack) ends the wait.
            new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
            EvalOutcome outcome = js.eval("g");
            assertThat(outcome.errorType()).isEqualTo("InternalError");
            assertThat(outcome.errorMessage()).contains("did not answer").contains(GONE);
            assertThat(Workers.ends(pid, 60)).isTrue();
            assertThat(js.eval("typeof g === 'undefined'").value()).isEqualTo("true");
        }
    }

    @Test
    void aGuestStuckInABuiltinEndsInAnOutcomeAndItsWorkerIsKilled() {
        SandboxOptions options = Workers.process().timeout(Duration.ofSeconds(1))
                .interruptGrace(Duration.ofMillis(500)).memoryLimitBytes(64L << 20).build();
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = js(options));
        try (GuestInterpreter js = holder[0]) {
            js.eval("var g = 1");
            EvalOutcome outcome = js.eval("Array.from({length: 2 ** 31})");
            assertThat(outcome.status()).isNotEqualTo(EvalOutcome.Status.OK);
            assertThat(outcome.stateReset()).isTrue();
            // Whatever stopped it (the guest given up, the watchdog, the worker's heap), the worker that ran it is
            // not left running it: it is killed and never reused.
            assertThat(Workers.ends(pid, 120)).isTrue();
            assertThat(js.eval("typeof g === 'undefined'").value()).isEqualTo("true");
            assertThat(js.eval("3 + 3").value()).isEqualTo("6");
        }
    }

    @Test
    void aHeapBombUnderA64MiBLimitStaysInTheWorker() {
        SandboxOptions options = Workers.process().timeout(Duration.ofSeconds(30)).memoryLimitBytes(64L << 20).build();
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = js(options));
        try (GuestInterpreter js = holder[0]) {
            EvalOutcome outcome = js.eval("const keep = []; while (true) keep.push(new Array(1e6).fill(1.5))");
            boolean memoryStop = "OutOfMemory".equals(outcome.errorType());
            boolean workerDied = !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                    || Workers.ends(pid, 5);
            assertThat(memoryStop || workerDied).as(outcome.envelope()).isTrue();
            assertThat(js.eval("5 + 5").value()).isEqualTo("10");
        }
    }

    @Test
    void toolCallsGoOverTheWireToTheBridgesHandler() {
        try (GuestInterpreter js = js(Workers.process().build())) {
            List<String> started = new CopyOnWriteArrayList<>();
            HostCallHandler handler = (callId, kind, name, inputJson) -> {
                started.add(kind + ":" + name + ":" + inputJson);
                if (name.equals("broken")) {
                    throw new IllegalStateException("no such service");
                }
                // Settled from another thread, as a host's tool runs elsewhere.
                Thread.ofPlatform().daemon().start(() -> js.completeHostCall(callId, true, "{\"sum\": 3}"));
            };
            HostBridge bridge = new HostBridge(handler, List.of("add", "broken"), true, false, 0);
            EvalOutcome outcome = js.eval("const r = await tools.add({a: 1, b: 2}); r.sum", bridge);
            assertThat(outcome.value()).as(outcome.envelope()).isEqualTo("3");
            assertThat(started).containsExactly("tool:add:{\"a\":1,\"b\":2}");

            EvalOutcome failed = js.eval("await tools.broken({})", bridge);
            assertThat(failed.errorType()).isEqualTo("HostError");
            assertThat(failed.errorMessage()).contains("no such service");
        }
    }

    @Test
    void liveOutputArrivesOverTheWireInOrder() {
        try (GuestInterpreter js = js(Workers.process().build())) {
            List<String> seen = new CopyOnWriteArrayList<>();
            EvalOutcome outcome = js.eval("console.log('a'); console.error('b'); console.log('c'); 1",
                    HostBridge.outputOnly((stream, text) -> seen.add(stream + ":" + text)));
            assertThat(outcome.value()).isEqualTo("1");
            assertThat(String.join("", seen)).isEqualTo("stdout:a\nstderr:b\nstdout:c\n");
        }
    }

    @Test
    void aPythonGuestRunsInAWorkerProcess() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Sandbox.shared().pythonAvailable(), "GraalPy is not installed");
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = Sandbox.shared().newPythonInterpreter(Workers.process()
                .build()));
        try (GuestInterpreter py = holder[0]) {
            assertThat(py.language()).isEqualTo("python");
            py.eval("x = 5");
            assertThat(py.eval("x * 2").value()).isEqualTo("10");
            List<String> seen = new CopyOnWriteArrayList<>();
            py.eval("print('hi')", HostBridge.outputOnly((stream, text) -> seen.add(text)));
            assertThat(String.join("", seen)).isEqualTo("hi\n");
            Workers.kill9(pid);
            assertThat(Workers.ends(pid, 60)).isTrue();
            assertThat(py.eval("x").errorMessage()).contains(GONE);
            assertThat(py.eval("'x' in globals()").value()).isEqualTo("False");
        }
    }

    @Test
    void aClosedInterpretersWorkerIsKeptIdleAndReusedThenNothingIsBusy() {
        SandboxOptions options = Workers.process().memoryLimitBytes(48L << 20).build();
        GuestInterpreter[] holder = new GuestInterpreter[1];
        long pid = Workers.newWorker(() -> holder[0] = js(options));
        holder[0].eval("var secret = 1");
        holder[0].close();
        try (GuestInterpreter next = js(options)) {
            assertThat(Workers.pids()).contains(pid);
            assertThat(next.eval("typeof secret === 'undefined'").value()).isEqualTo("true");
        }
        assertThat(Workers.pids()).contains(pid); // idle, for the next interpreter
    }
}
