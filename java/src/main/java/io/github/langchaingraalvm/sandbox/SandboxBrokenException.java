package io.github.langchaingraalvm.sandbox;

/**
 * Thrown by every eval once the JVM can no longer run guest code: a class the engine needs failed to initialise
 * (a stack overflow or an out-of-memory inside its static initialiser leaves it unusable for the life of the JVM).
 * Only a new process recovers; {@link Sandbox#unusableReason()} says why.
 */
public final class SandboxBrokenException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    SandboxBrokenException(String reason) {
        super("The GraalVM sandbox in this process can no longer run code: " + reason
                + ". Restart the process; no interpreter in it can recover.");
    }
}
