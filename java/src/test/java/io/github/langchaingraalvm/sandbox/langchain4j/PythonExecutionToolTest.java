package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Python drop-in tool: LangChain4j's tool specification, results, errors, limits and sandbox policy. */
class PythonExecutionToolTest {

    @Test
    void hasLangChain4jsToolSpecification() {
        List<ToolSpecification> specs = ToolSpecifications.toolSpecificationsFrom(GraalVmPythonExecutionTool.class);
        assertThat(specs).hasSize(1);
        assertThat(specs.get(0).name()).isEqualTo("executePythonCode");
        assertThat(specs.get(0).description()).startsWith("MUST be used for accurate calculations");
        assertThat(specs.get(0).parameters().properties()).hasSize(1);
    }

    @Test
    void runsCodeWithinItsLimits() {
        GraalVmPythonExecutionTool tool = new GraalVmPythonExecutionTool(
                SandboxOptions.builder().timeout(Duration.ofSeconds(2)).memoryLimitBytes(24L << 20).build());
        try {
            assertThat(tool.executePythonCode("sorted([3, 1, 2])")).isEqualTo("[1, 2, 3]");
            assertThat(tool.executePythonCode("print('x')\n1 / 0")).startsWith("x\nZeroDivisionError: division by zero");
            assertThat(tool.executePythonCode("while True:\n    pass")).startsWith("Timeout: ");
            assertThat(tool.executePythonCode("a = []\nwhile True:\n    a.append([1.5] * 1000)"))
                    .matches("(?s)(OutOfMemory|Timeout): .*");
            assertThat(tool.executePythonCode("import os\nos.environ.get('PATH')")).isEqualTo("null");
            assertThat(tool.executePythonCode("import java\njava.type('java.lang.Runtime')"))
                    .matches("(?s)[A-Za-z]+Error: .*");
            assertThat(tool.executePythonCode("'still ' + 'working'")).isEqualTo("still working");
        } finally {
            tool.close();
        }
        assertThatThrownBy(() -> tool.executePythonCode("1")).isInstanceOf(IllegalStateException.class);
    }
}
