package io.github.langchaingraalvm.sandbox.langchain4j;

/** The guest threads alive now: one per open interpreter (the process-wide watchdog and warm-up threads aside). */
final class EngineThreads {
    private EngineThreads() {}

    static long count() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.startsWith("graalvm-sandbox") || n.startsWith("graalpy-sandbox"))
                .filter(n -> !n.equals("graalvm-sandbox-watchdog") && !n.equals("graalvm-sandbox-stopper")
                        && !n.equals("graalvm-sandbox-warmup"))
                .count();
    }
}
