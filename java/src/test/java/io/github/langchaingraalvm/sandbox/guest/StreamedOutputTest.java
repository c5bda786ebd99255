package io.github.langchaingraalvm.sandbox.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.HostBridge;
import io.github.langchaingraalvm.sandbox.HostCallHandler;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.SharedEngines;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-eval stream of the guest's output: its cap, and a handler that fails. */
class StreamedOutputTest {
    private final List<String> seen = new ArrayList<>();
    private final HostCallHandler recorder = new HostCallHandler() {
        @Override
        public void start(long callId, String kind, String name, String inputJson) {
        }

        @Override
        public void output(String stream, String text) {
            seen.add(stream + ":" + text);
        }
    };

    private HostBridge bridge(HostCallHandler h) {
        return new HostBridge(h, List.of(), false, false, 0, false, null, true);
    }

    @Test
    void theCapCutsTheWriteThatCrossesItThenSendsOneNotice() {
        StreamedOutput out = new StreamedOutput(5);
        out.begin(bridge(recorder));
        out.write("stdout", "abc");
        out.write("stderr", "defg");
        out.write("stdout", "h");
        out.end();
        assertEquals(List.of("stdout:abc", "stderr:de", "stderr:\n[output past 5 characters is not streamed]\n"), seen);
    }

    @Test
    void aCutNeverSplitsACharacter() {
        StreamedOutput out = new StreamedOutput(2);
        out.begin(bridge(recorder));
        out.write("stdout", "a\uD83D\uDE00b");
        assertEquals(List.of("stdout:a", "stdout:\n[output past 2 characters is not streamed]\n"), seen);
    }

    @Test
    void nothingIsSentOutsideAnEvalOrWithoutStreaming() {
        StreamedOutput out = new StreamedOutput(100);
        out.write("stdout", "before");
        out.begin(new HostBridge(recorder, List.of(), false, false, 0));
        out.write("stdout", "not asked for");
        out.begin(null);
        out.write("stdout", "no bridge");
        out.begin(bridge(recorder));
        out.end();
        out.write("stdout", "after");
        assertEquals(List.of(), seen);
    }

    @Test
    void aHandlerThatThrowsIsCountedAndTheEvalGoesOn() {
        HostCallHandler failing = new HostCallHandler() {
            @Override
            public void start(long callId, String kind, String name, String inputJson) {
            }

            @Override
            public void output(String stream, String text) {
                throw new IllegalStateException("listener failed");
            }
        };
        try (JavaScriptGuest js = new JavaScriptGuest(SharedEngines.get(), SandboxOptions.defaults())) {
            String code = "console.log('a'); console.error('b'); 42";
            EvalOutcome o = js.eval(code, bridge(failing));
            assertEquals(js.eval(code).envelope(), o.envelope());
            assertEquals("a\nb", o.stdout());
            assertEquals(2, js.streamed.failures());
        }
    }
}
