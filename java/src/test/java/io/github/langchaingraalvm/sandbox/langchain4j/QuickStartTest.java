package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.AiServices;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quick start of docs/java.md, run: an AI service with both tools, the engines with their limits. */
class QuickStartTest {
    interface Assistant {
        String chat(String message);
    }

    /**
     * An offline stand-in for a tool-calling model: it asks both tools for the square root in one turn, then
     * answers with what they returned.
     */
    static final class BothToolsModel implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            if (!(messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage)) {
                return ChatResponse.builder().aiMessage(AiMessage.from(List.of(
                        ToolExecutionRequest.builder().id("1").name("executeJavaScriptCode")
                                .arguments("{\"arg0\": \"Math.sqrt(485906798473894056).toExponential(4)\"}").build(),
                        ToolExecutionRequest.builder().id("2").name("executePythonCode")
                                .arguments("{\"arg0\": \"import math\\nprint('computing')\\n"
                                        + "f'{math.sqrt(485906798473894056):.4e}'\"}").build())))
                        .finishReason(FinishReason.TOOL_EXECUTION).build();
            }
            List<String> results = new ArrayList<>();
            for (ChatMessage m : messages) {
                if (m instanceof ToolExecutionResultMessage r) {
                    results.add(r.toolName() + " -> " + r.text().replace("\n", "\\n"));
                }
            }
            return ChatResponse.builder().aiMessage(AiMessage.from(String.join("; ", results)))
                    .finishReason(FinishReason.STOP).build();
        }
    }

    @Test
    void anAiServiceWithBothTools() {
        ChatModel model = new BothToolsModel();
        SandboxOptions limits = SandboxOptions.builder()
                .timeout(Duration.ofSeconds(2))
                .memoryLimitBytes(64L << 20)
                .build();
        try (GraalVmJavaScriptExecutionTool js = new GraalVmJavaScriptExecutionTool(limits);
                GraalVmPythonExecutionTool py = new GraalVmPythonExecutionTool(limits)) {
            Assistant assistant = AiServices.builder(Assistant.class)
                    .chatModel(model)
                    .chatMemory(MessageWindowChatMemory.withMaxMessages(10))
                    .tools(js, py)
                    .build();
            String answer = assistant.chat("What is the square root of 485906798473894056?");
            System.out.println(answer);
            assertThat(answer).isEqualTo("executeJavaScriptCode -> 6.9707e+8; executePythonCode -> computing\\n6.9707e+08");
        }
    }

    @Test
    void theEnginesAndTheirLimits() {
        SandboxOptions limits = SandboxOptions.builder()
                .timeout(Duration.ofSeconds(10))
                .memoryLimitBytes(32L << 20)
                .build();
        try (GraalVmJavaScriptExecutionEngine js = new GraalVmJavaScriptExecutionEngine(limits);
                GraalVmPythonExecutionEngine py = new GraalVmPythonExecutionEngine(limits)) {
            List<String> out = List.of(
                    js.execute("console.log('hello'); 42"),
                    js.execute("const xs = [1, 2, 3]"),
                    js.execute("xs.map((x) => x * 2)"),
                    js.execute("total + 1"),
                    js.execute("while (true) {}"),
                    py.execute("import os\nos.environ.get('HOME')"),
                    py.execute("open('/etc/passwd').read()"),
                    py.execute("blob = []\nwhile True:\n    blob.append(' ' * 100_000)"));
            out.forEach(System.out::println);
            assertThat(out.get(0)).isEqualTo("hello\n42");
            assertThat(out.get(1)).isEqualTo("null");
            assertThat(out.get(2)).isEqualTo("[2, 4, 6]");
            assertThat(out.get(3)).startsWith("ReferenceError: total is not defined");
            assertThat(out.get(4)).startsWith("Timeout: ");
            assertThat(out.get(5)).isEqualTo("null");
            assertThat(out.get(6)).matches("(?s)[A-Za-z]+Error: .*");
            assertThat(out.get(7)).startsWith("OutOfMemory: ");
        }
    }
}
