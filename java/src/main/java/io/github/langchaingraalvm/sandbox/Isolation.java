package io.github.langchaingraalvm.sandbox;

/**
 * Where an interpreter's guest runs: in this JVM, or in a worker JVM of its own that the library starts and owns.
 * Chosen with {@link SandboxOptions.Builder#isolation(Isolation)}; the interpreter's API and outcomes are the same
 * either way.
 *
 * <pre>{@code
 * SandboxOptions options = SandboxOptions.builder().isolation(Isolation.PROCESS).build();
 * try (GuestInterpreter js = Sandbox.shared().newInterpreter(options)) {
 *     System.out.println(js.eval("6 * 7").value()); // 42, computed in a worker process
 * }
 * }</pre>
 */
public enum Isolation {
    /**
     * The guest runs in this JVM, under the watchdog's time and memory limits: the fastest tier. A guest stuck in a
     * builtin that ignores interrupts keeps a core until it returns, and a builtin that allocates past the limit in
     * one step takes this JVM's heap.
     */
    IN_PROCESS,
    /**
     * The guest runs in a worker JVM started by the library (the same {@code java}, class path and module path, a
     * heap capped from the memory limit, an empty environment), spoken to over its standard input and output. A
     * worker that dies, misses its deadline or is left running a stuck guest is killed and never reused: the eval
     * returns an outcome that says the globals are gone, and the next eval runs in a new worker. Costs a worker
     * JVM per open interpreter (idle workers are kept warm for the next one) and a little time per eval.
     */
    PROCESS
}
