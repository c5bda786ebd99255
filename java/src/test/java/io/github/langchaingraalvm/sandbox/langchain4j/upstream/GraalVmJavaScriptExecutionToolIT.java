/*
 * Ported from LangChain4j (Apache License 2.0):
 *   code-execution-engines/langchain4j-code-execution-engine-graalvm-polyglot/src/test/java/dev/langchain4j/agent/tool/graalvm/GraalVmJavaScriptExecutionToolIT.java
 *   at commit b8b809ed57e4b65ec9b87a27c25564bdd4a80e4b. Changed: the package and the import of our tool; the
 *   OpenAI model (and the OPENAI_API_KEY condition) replaced by ScriptedChatModel, which needs no network. The test
 *   itself (the Mockito spy, the question, the assertions) is as upstream wrote it.
 */
package io.github.langchaingraalvm.sandbox.langchain4j.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.*;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import io.github.langchaingraalvm.sandbox.langchain4j.GraalVmJavaScriptExecutionTool;
import org.junit.jupiter.api.Test;

class GraalVmJavaScriptExecutionToolIT {

    // Instead of OpenAI's gpt-4o-mini: a scripted model that calls the tool once with this code, then answers with
    // the tool's result.
    ScriptedChatModel model = new ScriptedChatModel("Math.sqrt(485906798473894056).toExponential()");

    interface Assistant {

        String chat(String userMessage);
    }

    @Test
    void should_execute_tool() {

        GraalVmJavaScriptExecutionTool tool = spy(new GraalVmJavaScriptExecutionTool());

        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .tools(tool)
                .chatMemory(MessageWindowChatMemory.withMaxMessages(10))
                .build();

        String answer = assistant.chat("What is the square root of 485906798473894056 in scientific notation?");

        assertThat(answer).contains("6.97");

        verify(tool).executeJavaScriptCode(contains("485906798473894056"));
    }
}
