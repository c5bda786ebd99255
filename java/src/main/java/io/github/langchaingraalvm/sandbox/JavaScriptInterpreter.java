package io.github.langchaingraalvm.sandbox;

import java.util.function.Supplier;

/**
 * A persistent JavaScript REPL in its own GraalJS context (see {@link GuestInterpreter}). Cells may use top-level
 * {@code let}, {@code const}, {@code class} and {@code await}, and TypeScript syntax; a final Promise is awaited,
 * and host calls settle Promises on the guest thread. With {@link SandboxOptions#agentModules()}, cells and
 * modules may import the agent's files. Made by {@link Sandbox#newInterpreter}.
 *
 * <pre>{@code
 * try (JavaScriptInterpreter js = Sandbox.shared().newInterpreter(SandboxOptions.defaults())) {
 *     js.eval("const total = [1, 2, 3].reduce((a, b) => a + b)");
 *     System.out.println(js.eval("total * 2").value()); // 12
 * }
 * }</pre>
 */
public final class JavaScriptInterpreter extends ForwardingInterpreter {
    JavaScriptInterpreter(Supplier<GuestInterpreter> factory) {
        super(factory);
    }
}
