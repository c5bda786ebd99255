package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.langchaingraalvm.sandbox.Sandbox;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.worker.Workers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The LangChain4j engines and tools with {@code Isolation.PROCESS}: LangChain4j's result form, and every fault of a
 * worker as text the model can act on, the next call running in a new worker. No timings are asserted.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ProcessIsolationEngineTest {
    @Test
    void anEngineKeepsLangChain4jsResultFormAndSurvivesItsWorkersDeath() throws Exception {
        GraalVmSandboxCodeExecutionEngine[] holder = new GraalVmSandboxCodeExecutionEngine[1];
        List<String> live = new CopyOnWriteArrayList<>();
        long pid = Workers.newWorker(() -> {
            holder[0] = new GraalVmSandboxCodeExecutionEngine("js", Workers.process().build(),
                    ResultFormat.LANGCHAIN4J, (stream, text) -> live.add(text));
            holder[0].execute("var g = 1");
        });
        try (GraalVmSandboxCodeExecutionEngine engine = holder[0]) {
            assertThat(engine.execute("console.log('hello'); 42")).isEqualTo("hello\n42");
            assertThat(live).contains("hello\n");
            assertThat(engine.execute("g + 1")).isEqualTo("2");

            CompletableFuture<String> running = Workers.async(() -> engine.execute("while (true) {}"));
            Thread.sleep(500);
            Workers.kill9(pid);
            String lost = running.get(120, TimeUnit.SECONDS);
            assertThat(lost).startsWith("InternalError: ").contains("SIGKILL")
                    .contains("all globals from earlier calls are gone");
            assertThat(engine.execute("typeof g")).isEqualTo("undefined");
            assertThat(engine.execute("[1, 2, 3].map(x => x * 2)")).isEqualTo("[2, 4, 6]");
        }
    }

    @Test
    void aToolSessionWhoseGuestGotStuckGoesOnInANewWorker() {
        SandboxOptions options = Workers.process().timeout(Duration.ofSeconds(1))
                .interruptGrace(Duration.ofMillis(500)).build();
        try (SandboxedJavaScriptTool tool = new SandboxedJavaScriptTool(options)) {
            long pid = Workers.newWorker(() -> tool.executeJavaScript("alice", "var n = 41"));
            tool.executeJavaScript("bob", "var n = 1");
            String stuck = tool.executeJavaScript("alice", "Array.from({length: 2 ** 31})");
            assertThat(stuck).startsWith("<error").contains("all globals from earlier calls are gone");
            assertThat(Workers.ends(pid, 120)).isTrue();
            assertThat(tool.executeJavaScript("alice", "typeof n")).isEqualTo("<result>undefined</result>");
            assertThat(tool.executeJavaScript("bob", "n + 1")).isEqualTo("<result>2</result>");
        }
    }

    @Test
    void aPythonToolKeepsOneInterpreterPerConversation() {
        Assumptions.assumeTrue(Sandbox.shared().pythonAvailable(), "GraalPy is not installed");
        try (SandboxedPythonTool tool = new SandboxedPythonTool(Workers.process().build(), 4, null)) {
            tool.executePython("alice", "n = 41");
            assertThat(tool.executePython("alice", "n + 1")).isEqualTo("<result>42</result>");
            assertThat(tool.executePython("bob", "n")).contains("NameError");
            assertThat(tool.executePython("print('hi'); 1")).startsWith("<stdout>").contains("hi")
                    .endsWith("<result>1</result>");
            assertThat(tool.sessionCount()).isEqualTo(3);
            assertThat(tool.closeSession("alice")).isTrue();
            assertThat(tool.executePython("alice", "'n' in globals()")).isEqualTo("<result>False</result>");
        }
    }
}
