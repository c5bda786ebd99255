package io.github.langchaingraalvm.sandbox.langchain4j.upstream;

import io.github.langchaingraalvm.sandbox.Isolation;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.langchain4j.GraalVmPythonExecutionEngine;

/** LangChain4j's own tests of its Python engine (as ported), run by an engine whose guest is in a worker process. */
class GraalVmPythonProcessExecutionEngineTest extends GraalVmPythonExecutionEngineTest {
    {
        engine = new GraalVmPythonExecutionEngine(SandboxOptions.builder().isolation(Isolation.PROCESS).build());
    }
}
