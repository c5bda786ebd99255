package io.github.langchaingraalvm.sandbox;

/** A snapshot could not be made (too large, or the guest stopped it) or could not be restored (corrupt, foreign). */
public final class SnapshotException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the snapshot was refused because it exceeded the size limit. */
    private final boolean tooLarge;

    SnapshotException(String message, boolean tooLarge) {
        super(message);
        this.tooLarge = tooLarge;
    }

    /** True when the snapshot exceeded the size it was allowed. */
    public boolean tooLarge() {
        return tooLarge;
    }
}
