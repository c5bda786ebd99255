package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.code.CodeExecutionEngine;
import io.github.langchaingraalvm.sandbox.EvalOutcome;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Python drop-in engine: LangChain4j's result form, errors as text, the limits and the sandbox policy. */
class PythonExecutionEngineTest {
    private GraalVmPythonExecutionEngine engine;

    @BeforeEach
    void open() {
        // Generous: a first import of a standard-library module (subprocess, socket) takes seconds on a loaded
        // machine. The timeout test has an engine of its own with a short timeout.
        engine = new GraalVmPythonExecutionEngine(SandboxOptions.builder().timeout(Duration.ofSeconds(60)).build());
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void returnsValuesAsLangChain4jsEngineDoes() {
        CodeExecutionEngine asLangChain4j = engine;
        assertThat(asLangChain4j.execute("6 * 7")).isEqualTo("42");
        assertThat(engine.execute("'it\\'s'")).isEqualTo("it's");
        assertThat(engine.execute("'a\\nb'")).isEqualTo("a\nb");
        assertThat(engine.execute("True")).isEqualTo("true");
        assertThat(engine.execute("0.1 + 0.2")).isEqualTo("0.30000000000000004");
        assertThat(engine.execute("1e21")).isEqualTo("1.0E21");
        assertThat(engine.execute("2 ** 70")).isEqualTo("1180591620717411303424");
        assertThat(engine.execute("[1, 'two', None]")).isEqualTo("[1, 'two', None]");
        assertThat(engine.execute("{'a': 1}")).isEqualTo("{'a': 1}");
        assertThat(engine.execute("x = 1")).isEqualTo("null");
        assertThat(engine.execute("print('hello')\n'None'")).isEqualTo("hello\nNone");
    }

    @Test
    void keepsGlobalsBetweenCalls() {
        engine.execute("def add(n):\n    return base + n\nbase = 40");
        assertThat(engine.execute("add(2)")).isEqualTo("42");
    }

    @Test
    void errorsComeBackAsText() {
        assertThat(engine.execute("print('before')\nundefined_name")).startsWith("before\nNameError: name 'undefined_name' is not defined");
        assertThat(engine.execute("def f():\n    raise ValueError('bad')\nf()"))
                .startsWith("ValueError: bad").contains("line 2");
        assertThat(engine.execute("def (")).startsWith("SyntaxError: ");
        assertThat(engine.execute("1 + 1")).isEqualTo("2");
    }

    @Test
    void aTimeoutComesBackAsTextAndKeepsGlobals() {
        try (GraalVmPythonExecutionEngine quick = new GraalVmPythonExecutionEngine(
                SandboxOptions.builder().timeout(Duration.ofSeconds(2)).build())) {
            quick.execute("kept = 7");
            assertThat(quick.execute("while True:\n    pass"))
                    .startsWith("Timeout: Execution exceeded the 2 s timeout and was stopped.");
            assertThat(quick.execute("kept")).isEqualTo("7");
        }
    }

    @Test
    void theMemoryLimitComesBackAsText() {
        try (GraalVmPythonExecutionEngine small = new GraalVmPythonExecutionEngine(SandboxOptions.builder()
                .timeout(Duration.ofSeconds(60)).memoryLimitBytes(24L << 20).build())) {
            EvalOutcome o = small.evaluate("a = []\nwhile True:\n    a.append([1.5] * 1000)");
            assertThat(o.status()).isEqualTo(EvalOutcome.Status.LIMIT);
            assertThat(o.plainText()).startsWith("OutOfMemory: Execution kept more than the 24 MiB memory limit");
            assertThat(small.execute("2 + 2")).isEqualTo("4");
        }
    }

    @Test
    void hostAccessIsRefused() {
        assertThat(engine.execute("import java\njava.type('java.lang.System').exit(1)"))
                .matches("(?s)[A-Za-z]+Error: .*");
        assertThat(engine.execute("import polyglot\npolyglot.eval(language='js', string='1 + 1')"))
                .matches("(?s)[A-Za-z]+Error: .*");
        assertThat(engine.execute("open('/etc/passwd').read()")).matches("(?s)[A-Za-z]+Error: .*")
                .doesNotContain("root:");
        assertThat(engine.execute("import subprocess\nsubprocess.run(['id'])")).matches("(?s)[A-Za-z]+Error: .*");
        assertThat(engine.execute("import socket\nsocket.create_connection(('example.com', 80))"))
                .matches("(?s)[A-Za-z]+Error: .*");
        assertThat(engine.execute("1 + 1")).isEqualTo("2");
    }

    @Test
    void theHostsEnvironmentIsNotVisible() {
        assertThat(System.getenv("PATH")).isNotNull();
        assertThat(engine.execute("import os\nos.environ.get('PATH')")).isEqualTo("null");
        // GraalPy may set a variable of its own; none of the host's variables is there.
        String guestEnvironment = engine.execute("import os\nsorted(os.environ.items())");
        System.getenv().forEach((name, value) -> assertThat(guestEnvironment)
                .as("the guest's environment %s", guestEnvironment)
                .doesNotContain("'" + name + "', ")
                .satisfiesAnyOf(g -> assertThat(value.length()).isLessThan(4), g -> assertThat(g).doesNotContain(value)));
        assertThat(engine.execute("import os\nos.getenv('HOME')")).isEqualTo("null");
    }

    @Test
    void theEnvelopeIsOneOptionAway() {
        try (GraalVmPythonExecutionEngine enveloped = new GraalVmPythonExecutionEngine(SandboxOptions.defaults(),
                ResultFormat.ENVELOPE)) {
            assertThat(enveloped.execute("print('hi')\n'x'")).isEqualTo("<stdout>\nhi\n</stdout>\n<result>'x'</result>");
        }
    }

    @Test
    void manyEnginesInOneJvmLeaveNoThreadsBehind() {
        long before = EngineThreads.count();
        List<GraalVmSandboxCodeExecutionEngine> engines = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            engines.add(new GraalVmPythonExecutionEngine());
            engines.add(new GraalVmJavaScriptExecutionEngine());
        }
        for (int i = 0; i < engines.size(); i++) {
            GraalVmSandboxCodeExecutionEngine e = engines.get(i);
            e.execute(e.language().equals("python") ? "n = " + i : "var n = " + i);
        }
        for (int i = 0; i < engines.size(); i++) {
            assertThat(engines.get(i).execute("n")).isEqualTo(String.valueOf(i));
        }
        assertThat(EngineThreads.count()).isGreaterThanOrEqualTo(before + engines.size());
        engines.forEach(GraalVmSandboxCodeExecutionEngine::close);
        assertThat(EngineThreads.count()).isEqualTo(before);
    }

    @Test
    void aClosedEngineRefusesCode() {
        engine.close();
        engine.close();
        assertThatThrownBy(() -> engine.execute("1")).isInstanceOf(IllegalStateException.class);
    }
}
