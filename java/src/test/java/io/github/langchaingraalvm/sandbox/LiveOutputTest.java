package io.github.langchaingraalvm.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the guest prints, streamed to the eval's handler while it runs ({@link HostCallHandler#output}). */
class LiveOutputTest {
    private static final String NOTICE = "\n[output past 100 characters is not streamed]\n";

    private static GuestInterpreter open(String language, SandboxOptions.Builder options) {
        SandboxOptions o = options.timeout(Duration.ofSeconds(5)).build();
        return language.equals("python") ? Sandbox.shared().newPythonInterpreter(o)
                : Sandbox.shared().newInterpreter(o);
    }

    /** A handler that records every output as "stream:text" and refuses calls. */
    private static final class Recorder implements HostCallHandler {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void start(long callId, String kind, String name, String inputJson) {
            throw new IllegalStateException("no calls here");
        }

        @Override
        public void output(String stream, String text) {
            seen.add(stream + ":" + text);
        }

        HostBridge bridge() {
            return new HostBridge(this, List.of(), false, false, 0, false, null, true);
        }

        /** The outputs with consecutive writes to one stream joined, as Python's print writes its end apart. */
        List<String> merged() {
            List<String> out = new ArrayList<>();
            for (String s : seen) {
                int last = out.size() - 1;
                String stream = s.substring(0, s.indexOf(':'));
                if (last >= 0 && out.get(last).startsWith(stream + ":")) {
                    out.set(last, out.get(last) + s.substring(stream.length() + 1));
                } else {
                    out.add(s);
                }
            }
            return out;
        }

        String total() {
            StringBuilder all = new StringBuilder();
            for (String s : seen) {
                all.append(s, s.indexOf(':') + 1, s.length());
            }
            return all.toString();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"js", "python"})
    void bothStreamsArriveInTheOrderTheyWereWritten(String language) {
        Recorder r = new Recorder();
        try (GuestInterpreter i = open(language, SandboxOptions.builder())) {
            String code = language.equals("js")
                    ? "console.log('a', 1); console.error('b'); console.warn('c'); console.info('d');"
                            + " console.debug('e'); console.trace('f')"
                    : "import sys\nprint('a', 1)\nprint('b', file=sys.stderr)\nsys.stderr.write('c\\n')\n"
                            + "sys.stdout.write('d\\ne\\nf\\n')";
            EvalOutcome o = i.eval(code, r.bridge());
            assertEquals(EvalOutcome.Status.OK, o.status(), o.envelope());
        }
        assertEquals(List.of("stdout:a 1\n", "stderr:b\nc\n", "stdout:d\ne\nf\n"), r.merged());
    }

    @ParameterizedTest
    @ValueSource(strings = {"js", "python"})
    void outputArrivesWhileTheEvalWaitsOnAHostCall(String language) throws Exception {
        CountDownLatch firstLine = new CountDownLatch(1);
        List<String> seen = new CopyOnWriteArrayList<>();
        List<Long> calls = new CopyOnWriteArrayList<>();
        HostCallHandler handler = new HostCallHandler() {
            @Override
            public void start(long callId, String kind, String name, String inputJson) {
                calls.add(callId);
            }

            @Override
            public void output(String stream, String text) {
                seen.add(text);
                if (String.join("", seen).contains("\n")) {
                    firstLine.countDown(); // Python's print writes its end apart
                }
            }
        };
        HostBridge bridge = new HostBridge(handler, List.of("wait"), true, false, 0, false, null, true);
        try (GuestInterpreter i = open(language, SandboxOptions.builder())) {
            String code = language.equals("js")
                    ? "console.log('before'); await tools.wait({}); console.log('after'); 1"
                    : "print('before')\ntools.wait()\nprint('after')\n1";
            CompletableFuture<EvalOutcome> running = CompletableFuture.supplyAsync(() -> i.eval(code, bridge));
            assertTrue(firstLine.await(30, TimeUnit.SECONDS), "no output while the eval ran");
            assertFalse(running.isDone());
            assertEquals("before\n", String.join("", seen));
            while (calls.isEmpty()) {
                Thread.sleep(5);
            }
            i.completeHostCall(calls.get(0), true, "null");
            EvalOutcome o = running.get(30, TimeUnit.SECONDS);
            assertEquals(EvalOutcome.Status.OK, o.status(), o.envelope());
        }
        assertEquals("before\nafter\n", String.join("", seen));
    }

    @ParameterizedTest
    @ValueSource(strings = {"js", "python"})
    void theStreamStopsAtItsCapWithOneNotice(String language) {
        Recorder r = new Recorder();
        try (GuestInterpreter i = open(language, SandboxOptions.builder().maxStreamedChars(100))) {
            String code = language.equals("js")
                    ? "for (let n = 0; n < 1000; n++) console.log('0123456789')"
                    : "for n in range(1000):\n    print('0123456789')";
            i.eval(code, r.bridge());
            assertEquals(1, r.seen.stream().filter(s -> s.endsWith(NOTICE)).count());
            assertTrue(r.seen.get(r.seen.size() - 1).endsWith(NOTICE));
            assertEquals(100 + NOTICE.length(), r.total().length());
            assertEquals("0123456789\n".repeat(10).substring(0, 100), r.total().substring(0, 100));
            // The next eval streams afresh.
            r.seen.clear();
            i.eval(language.equals("js") ? "console.log('again')" : "print('again')", r.bridge());
            assertEquals("again\n", r.total());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"js", "python"})
    void noCapStreamsNothing(String language) {
        Recorder r = new Recorder();
        try (GuestInterpreter i = open(language, SandboxOptions.builder().maxStreamedChars(0))) {
            EvalOutcome o = i.eval(language.equals("js") ? "console.log('x')" : "print('x')", r.bridge());
            assertEquals("x", o.stdout());
        }
        assertEquals(List.of(), r.seen);
    }

    @ParameterizedTest
    @ValueSource(strings = {"js", "python"})
    void onlyAnEvalWhoseBridgeAsksForItIsStreamed(String language) {
        Recorder r = new Recorder();
        try (GuestInterpreter i = open(language, SandboxOptions.builder())) {
            String print = language.equals("js") ? "console.log('x')" : "print('x')";
            i.eval(print, new HostBridge(r, List.of(), false, false, 0, false, null, false));
            i.eval(print, r.bridge());
            i.eval(print);
        }
        assertEquals(List.of("stdout:x\n"), r.merged());
    }

    @ParameterizedTest
    @ValueSource(strings = {"js", "python"})
    void theOutcomeIsTheSameWithAndWithoutStreaming(String language) {
        String js = "for (let n = 0; n < 40; n++) { console.log('line', n); console.error('err', n) }\n"
                + "console.log('x'.repeat(5000)); 'done'";
        String py = "import sys\nfor n in range(40):\n    print('line', n)\n    print('err', n, file=sys.stderr)\n"
                + "print('x' * 5000)\n'done'";
        String code = language.equals("js") ? js : py;
        List<EvalOutcome> outcomes = new ArrayList<>();
        HostCallHandler throwing = new HostCallHandler() {
            @Override
            public void start(long callId, String kind, String name, String inputJson) {
            }

            @Override
            public void output(String stream, String text) {
                throw new IllegalStateException("the listener failed");
            }
        };
        for (int run = 0; run < 4; run++) {
            try (GuestInterpreter i = open(language, SandboxOptions.builder().maxResultChars(300))) {
                HostBridge bridge = switch (run) {
                    case 0 -> null;
                    case 1 -> new Recorder().bridge();
                    case 2 -> HostBridge.outputOnly((stream, text) -> { });
                    default -> new HostBridge(throwing, List.of(), false, false, 0, false, null, true);
                };
                outcomes.add(i.eval(code, bridge));
            }
        }
        EvalOutcome plain = outcomes.get(0);
        assertTrue(plain.stdoutDropped() > 0, plain.envelope());
        for (EvalOutcome o : outcomes) {
            assertEquals(plain.envelope(), o.envelope());
            assertEquals(plain.stdout(), o.stdout());
            assertEquals(plain.stdoutDropped(), o.stdoutDropped());
            assertEquals(plain.value(), o.value());
        }
    }
}
