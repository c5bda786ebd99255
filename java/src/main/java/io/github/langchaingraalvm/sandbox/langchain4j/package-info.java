/**
 * LangChain4j adapters for the GraalVM sandbox: {@link GraalVmSandboxCodeExecutionEngine}, a
 * {@code CodeExecutionEngine} with one persistent interpreter, and {@link SandboxedJavaScriptTool}, a {@code @Tool}
 * with one interpreter per chat memory id. Both use only the public sandbox API.
 *
 * <p>The sandbox library does not bring LangChain4j ({@code langchain4j-core} is an optional dependency of it): add
 * {@code dev.langchain4j:langchain4j-core}, and {@code dev.langchain4j:langchain4j} for {@code AiServices}, to your
 * own build to use this package.
 *
 * <pre>{@code
 * try (SandboxedJavaScriptTool js = new SandboxedJavaScriptTool(SandboxOptions.defaults())) {
 *     Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .chatMemoryProvider(session -> MessageWindowChatMemory.withMaxMessages(20))
 *         .tools(js)
 *         .build();
 *     System.out.println(assistant.chat("alice", "What is the sum of the first 100 primes?"));
 * }
 * }</pre>
 */
package io.github.langchaingraalvm.sandbox.langchain4j;
