package io.github.langchaingraalvm.sandbox.langchain4j.upstream;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tool-calling {@link ChatModel} with a script instead of a network model, for LangChain4j's tool ITs: to a user
 * message it answers with one call of the one tool it is offered, passing {@code code} as the tool's one parameter;
 * to the tool's result it answers {@code "The result is <result>"}. Not part of the ported upstream code.
 */
final class ScriptedChatModel implements ChatModel {
    private final String code;
    /** The tool results the model was given, in order. */
    final List<String> toolResults = new CopyOnWriteArrayList<>();

    ScriptedChatModel(String code) {
        this.code = code;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        if (last instanceof UserMessage) {
            List<ToolSpecification> tools = request.toolSpecifications();
            if (tools == null || tools.size() != 1) {
                throw new AssertionError("expected one tool, was offered " + tools);
            }
            ToolSpecification tool = tools.get(0);
            String parameter = tool.parameters().properties().keySet().iterator().next();
            ToolExecutionRequest call = ToolExecutionRequest.builder()
                    .id("call-1")
                    .name(tool.name())
                    .arguments("{" + json(parameter) + ": " + json(code) + "}")
                    .build();
            return ChatResponse.builder().aiMessage(AiMessage.from(call)).finishReason(FinishReason.TOOL_EXECUTION)
                    .build();
        }
        if (last instanceof ToolExecutionResultMessage result) {
            toolResults.add(result.text());
            return ChatResponse.builder().aiMessage(AiMessage.from("The result is " + result.text()))
                    .finishReason(FinishReason.STOP).build();
        }
        throw new AssertionError("unexpected last message " + last);
    }

    private static String json(String s) {
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
