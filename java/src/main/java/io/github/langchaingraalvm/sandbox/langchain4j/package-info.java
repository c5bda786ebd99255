/**
 * LangChain4j adapters for the GraalVM sandbox: drop-ins for LangChain4j's own GraalVM engines and tools
 * ({@link GraalVmJavaScriptExecutionEngine}, {@link GraalVmPythonExecutionEngine},
 * {@link GraalVmJavaScriptExecutionTool}, {@link GraalVmPythonExecutionTool}) with time and memory limits, the
 * engine behind them ({@link GraalVmSandboxCodeExecutionEngine}, one persistent interpreter; {@link ResultFormat}
 * chooses LangChain4j's plain text or the sandbox's envelope), and {@link SandboxedJavaScriptTool} and
 * {@link SandboxedPythonTool}, {@code @Tool}s with one interpreter per chat memory id. All use only the public
 * sandbox API, and all take the {@code SandboxOptions} they run under, among them where the guest runs
 * ({@code Isolation.PROCESS} for a worker process of its own).
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
