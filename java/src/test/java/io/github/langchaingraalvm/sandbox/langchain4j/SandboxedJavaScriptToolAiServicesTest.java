package io.github.langchaingraalvm.sandbox.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import io.github.langchaingraalvm.sandbox.SandboxOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Drives the tool the way a LangChain4j application does: an AI service, chat memory, and a tool-calling model. */
class SandboxedJavaScriptToolAiServicesTest {

    /** The AI service under test: one chat memory, and so one sandbox session, per {@code session}. */
    interface Assistant {
        String chat(@MemoryId String session, @dev.langchain4j.service.UserMessage String message);
    }

    /**
     * A scripted tool-calling model, no network. A user message is taken as code: the model answers with a request
     * to run it with {@code executeJavaScript}; once the tool result comes back it answers with that result.
     */
    static final class ScriptedChatModel implements ChatModel {
        final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        final List<String> toolResults = new CopyOnWriteArrayList<>();
        private int calls;

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            List<String> offered = request.toolSpecifications().stream().map(ToolSpecification::name).toList();
            if (!offered.equals(List.of("executeJavaScript"))) {
                throw new AssertionError("the model was offered " + offered);
            }
            ChatMessage last = request.messages().get(request.messages().size() - 1);
            if (last instanceof UserMessage user) {
                ToolExecutionRequest call = ToolExecutionRequest.builder()
                        .id("call-" + (++calls))
                        .name("executeJavaScript")
                        .arguments("{\"code\": " + jsonString(user.singleText()) + "}")
                        .build();
                return ChatResponse.builder()
                        .aiMessage(AiMessage.from(call))
                        .finishReason(FinishReason.TOOL_EXECUTION)
                        .build();
            }
            if (last instanceof ToolExecutionResultMessage result) {
                toolResults.add(result.text());
                return ChatResponse.builder()
                        .aiMessage(AiMessage.from("The sandbox answered: " + result.text()))
                        .finishReason(FinishReason.STOP)
                        .build();
            }
            throw new AssertionError("unexpected last message " + last);
        }

        private static String jsonString(String s) {
            StringBuilder sb = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            return sb.append('"').toString();
        }
    }

    private ScriptedChatModel model;
    private SandboxedJavaScriptTool tool;
    private Assistant assistant;

    @BeforeEach
    void open() {
        model = new ScriptedChatModel();
        tool = new SandboxedJavaScriptTool(SandboxOptions.builder().timeout(Duration.ofMillis(500)).build());
        assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(session -> MessageWindowChatMemory.withMaxMessages(20))
                .tools(tool)
                .build();
    }

    @AfterEach
    void close() {
        tool.close();
    }

    @Test
    void answersWithWhatTheSandboxReturned() {
        String answer = assistant.chat("alice", "const xs: number[] = [1, 2, 3];\nxs.map((x) => x * 2)");
        assertEquals("The sandbox answered: <result>[2, 4, 6]</result>", answer);
        assertEquals(List.of("<result>[2, 4, 6]</result>"), model.toolResults);
        assertEquals(2, model.requests.size(), "one request for the tool call, one for the final answer");
    }

    @Test
    void toolReallyRunsInTheSandbox() {
        // Only the sandbox gives this: captured console, the frozen clock, and no host globals.
        String answer = assistant.chat("alice",
                "console.log('from the guest'); [typeof Java, typeof process, typeof require, Date.now()]");
        assertEquals("The sandbox answered: <stdout>\nfrom the guest\n</stdout>\n"
                + "<result>[\"undefined\", \"undefined\", \"undefined\", 0]</result>", answer);
        assertEquals(1, tool.sessionCount());
    }

    @Test
    void keepsStatePerSession() {
        assistant.chat("alice", "let visits = 41");
        assertEquals("The sandbox answered: <result>42</result>", assistant.chat("alice", "visits + 1"),
                "the second message of the same memory id sees the first one's globals");

        assertEquals("The sandbox answered: <result>undefined</result>", assistant.chat("bob", "typeof visits"),
                "another memory id has its own globals");
        String bob = assistant.chat("bob", "visits + 1");
        assertTrue(bob.startsWith("The sandbox answered: <error type=\"ReferenceError\">"), bob);

        assertEquals("The sandbox answered: <result>43</result>", assistant.chat("alice", "++visits + 1"),
                "bob's calls did not touch alice's globals");
        assertEquals(2, tool.sessionCount());
    }

    @Test
    void timeoutIsAnAnswerNotAnException() {
        String answer = assistant.chat("alice", "while (true) {}");
        assertTrue(answer.startsWith("The sandbox answered: <error type=\"Timeout\">Execution exceeded the 0.5 s"),
                answer);
        assertEquals("The sandbox answered: <result>ok</result>", assistant.chat("alice", "'ok'"));
    }
}
