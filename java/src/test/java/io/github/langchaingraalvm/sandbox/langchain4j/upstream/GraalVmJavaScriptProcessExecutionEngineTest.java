package io.github.langchaingraalvm.sandbox.langchain4j.upstream;

import io.github.langchaingraalvm.sandbox.Isolation;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import io.github.langchaingraalvm.sandbox.langchain4j.GraalVmJavaScriptExecutionEngine;

/** LangChain4j's own tests of its JavaScript engine (as ported), run by an engine whose guest is in a worker process. */
class GraalVmJavaScriptProcessExecutionEngineTest extends GraalVmJavaScriptExecutionEngineTest {
    {
        engine = new GraalVmJavaScriptExecutionEngine(SandboxOptions.builder().isolation(Isolation.PROCESS).build());
    }
}
