package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JavaScript drop-in tool and engine: LangChain4j's tool specification and result form, errors as text. */
class JavaScriptExecutionToolTest {

    @Test
    void hasLangChain4jsToolSpecification() {
        List<ToolSpecification> specs =
                ToolSpecifications.toolSpecificationsFrom(GraalVmJavaScriptExecutionTool.class);
        assertThat(specs).hasSize(1);
        assertThat(specs.get(0).name()).isEqualTo("executeJavaScriptCode");
        assertThat(specs.get(0).description()).startsWith("MUST be used for accurate calculations");
        assertThat(specs.get(0).parameters().properties()).hasSize(1);
    }

    @Test
    void returnsLangChain4jsForm() {
        try (GraalVmJavaScriptExecutionTool tool = new GraalVmJavaScriptExecutionTool(
                SandboxOptions.builder().timeout(Duration.ofSeconds(1)).build())) {
            assertThat(tool.executeJavaScriptCode("0.5 + 1")).isEqualTo("1.5");
            assertThat(tool.executeJavaScriptCode("true")).isEqualTo("true");
            assertThat(tool.executeJavaScriptCode("'null'")).isEqualTo("null");
            assertThat(tool.executeJavaScriptCode("let unset")).isEqualTo("null");
            assertThat(tool.executeJavaScriptCode("console.log('a'); undefined")).isEqualTo("a");
            assertThat(tool.executeJavaScriptCode("[1, 2].map((x) => x * 2)")).isEqualTo("[2, 4]");
            assertThat(tool.executeJavaScriptCode("console.log('a'); missing.x"))
                    .startsWith("a\nReferenceError: missing is not defined");
            assertThat(tool.executeJavaScriptCode("for (;;) {}")).startsWith("Timeout: Execution exceeded the 1 s");
            assertThat(tool.executeJavaScriptCode("typeof process + typeof Java + typeof require"))
                    .isEqualTo("undefinedundefinedundefined");
        }
    }

    @Test
    void manyEnginesInOneJvmLeaveNoThreadsBehind() {
        long before = EngineThreads.count();
        GraalVmJavaScriptExecutionEngine[] engines = new GraalVmJavaScriptExecutionEngine[8];
        for (int i = 0; i < engines.length; i++) {
            engines[i] = new GraalVmJavaScriptExecutionEngine();
            engines[i].execute("var n = " + i);
        }
        for (int i = 0; i < engines.length; i++) {
            assertThat(engines[i].execute("n")).isEqualTo(String.valueOf(i));
            engines[i].close();
        }
        assertThat(EngineThreads.count()).isEqualTo(before);
    }
}
