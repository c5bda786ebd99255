package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** The tools' and engines' output listener: what the code prints, as it prints it; the result unchanged. */
class OutputListenerTest {
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final BiConsumer<String, String> listener = (stream, text) -> seen.add(stream + ":" + text);

    @Test
    void theJavaScriptToolStreamsBothStreamsAndReturnsWhatItWould() {
        String code = "console.log('one'); console.error('two'); 1 + 1";
        try (GraalVmJavaScriptExecutionTool tool = new GraalVmJavaScriptExecutionTool(SandboxOptions.defaults(),
                ResultFormat.LANGCHAIN4J, listener);
                GraalVmJavaScriptExecutionTool plain = new GraalVmJavaScriptExecutionTool()) {
            assertThat(tool.executeJavaScriptCode(code)).isEqualTo(plain.executeJavaScriptCode(code));
        }
        assertThat(seen).containsExactly("stdout:one\n", "stderr:two\n");
    }

    @Test
    void thePythonToolStreamsBothStreamsAndReturnsWhatItWould() {
        String code = "import sys\nprint('one')\nsys.stderr.write('two\\n')\n1 + 1";
        try (GraalVmPythonExecutionTool tool = new GraalVmPythonExecutionTool(SandboxOptions.defaults(),
                ResultFormat.ENVELOPE, listener);
                GraalVmPythonExecutionTool plain = new GraalVmPythonExecutionTool(SandboxOptions.defaults(),
                        ResultFormat.ENVELOPE)) {
            assertThat(tool.executePythonCode(code)).isEqualTo(plain.executePythonCode(code));
        }
        assertThat(String.join("|", seen)).isEqualTo("stdout:one|stdout:\n|stderr:two\n");
    }

    @Test
    void aListenerThatThrowsLeavesTheResultAsItIs() {
        try (GraalVmJavaScriptExecutionEngine engine = new GraalVmJavaScriptExecutionEngine(SandboxOptions.defaults(),
                ResultFormat.LANGCHAIN4J, (stream, text) -> {
                    throw new IllegalStateException("listener failed");
                })) {
            assertThat(engine.execute("console.log('x'); 7")).isEqualTo("x\n7");
        }
    }

    @Test
    void theSessionToolStreamsEverySessionsOutput() {
        try (SandboxedJavaScriptTool tool = new SandboxedJavaScriptTool(SandboxOptions.defaults(), 2, listener)) {
            assertThat(tool.executeJavaScript("alice", "console.log('a'); 1")).isEqualTo(
                    new SandboxedJavaScriptTool().executeJavaScript("console.log('a'); 1"));
            tool.executeJavaScript("bob", "console.warn('b')");
        }
        assertThat(seen).containsExactly("stdout:a\n", "stderr:b\n");
    }
}
