package io.github.langchaingraalvm.sandbox.guest;

/**
 * How the sandbox words its own failures for the model: a failure's innermost cause without Java class names, and
 * the sentence that says the globals are gone. The guest thread, the interpreters and the watchdog all say them,
 * so they live below all three.
 */
final class Failures {
    /** Ends the message of every outcome whose interpreter had to be rebuilt. */
    static final String GLOBALS_LOST = " The interpreter was restarted: all globals from earlier calls are gone.";

    /**
     * The message of an eval stopped because the JVM's heap ran out outside the cell's own handling, for instance
     * while a builtin of an earlier eval that ignored its stop still fills it: a memory stop, told as one.
     */
    static final String HEAP_EXHAUSTED =
            "The JVM heap was exhausted while the eval ran, so it was stopped. Try again; keep less data." + GLOBALS_LOST;

    private Failures() {}

    /** The innermost cause of {@code e}. */
    static Throwable root(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** A failure's innermost cause in plain words, without Java class names. */
    static String describe(Throwable e) {
        Throwable root = root(e);
        if (root instanceof StackOverflowError) {
            return "the stack ran out";
        }
        if (root instanceof OutOfMemoryError) {
            return "the JVM ran out of memory";
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? "an internal error" : message;
    }
}
