/*
 * Ported from LangChain4j (Apache License 2.0), unchanged but for the package and the import of our engine:
 *   code-execution-engines/langchain4j-code-execution-engine-graalvm-polyglot/src/test/java/dev/langchain4j/code/graalvm/GraalVmPythonExecutionEngineTest.java
 *   at commit 042dc0750ed2f3a7bf615632f4a245759b6bbb3f (PR #5094, "fix: return GraalVM stdout/stderr output", on top
 *   of main b30925e0911563f4d25fe68dd9901159b6c55028). Its should_execute_code is the whole of the file on main at
 *   b8b809ed57e4b65ec9b87a27c25564bdd4a80e4b; the other tests are PR #5094's expectations for console output.
 */
package io.github.langchaingraalvm.sandbox.langchain4j.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.code.CodeExecutionEngine;
import io.github.langchaingraalvm.sandbox.langchain4j.GraalVmPythonExecutionEngine;
import org.junit.jupiter.api.Test;

class GraalVmPythonExecutionEngineTest {

    CodeExecutionEngine engine = new GraalVmPythonExecutionEngine();

    @Test
    void should_execute_code() {

        String code = """
                def fibonacci(n):
                    if n <= 1:
                        return n
                    else:
                        return fibonacci(n-1) + fibonacci(n-2)

                fibonacci(10)
                """;

        String result = engine.execute(code);

        assertThat(result).isEqualTo("55");
    }

    @Test
    void should_return_stdout() {

        String result = engine.execute("print('hello')");

        assertThat(result).isEqualTo("hello");
    }

    @Test
    void should_return_stderr() {

        String result = engine.execute("""
                import sys
                sys.stderr.write('bad\\n')
                None
                """);

        assertThat(result).isEqualTo("bad");
    }

    @Test
    void should_return_stdout_and_result() {

        String result = engine.execute("""
                print('hello')
                42
                """);

        assertThat(result).isEqualTo("hello\n42");
    }

    @Test
    void should_return_stdout_and_string_none_result() {

        String result = engine.execute("""
                print('hello')
                'None'
                """);

        assertThat(result).isEqualTo("hello\nNone");
    }
}
