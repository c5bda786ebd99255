package io.github.langchaingraalvm.sandbox;

/**
 * What one eval produced. Immutable. {@link #envelope()} is exactly the text a model sees.
 *
 * <pre>{@code
 * EvalOutcome outcome = interpreter.eval("[1, 2].map(x => x * 2)");
 * assert outcome.status() == EvalOutcome.Status.OK;
 * assert outcome.envelope().equals("<result>[2, 4]</result>");
 * }</pre>
 */
public final class EvalOutcome {
    /** How the eval ended. */
    public enum Status {
        /** The code ran to completion and produced a value. */
        OK,
        /** The code threw, or could not be parsed. */
        ERROR,
        /** The code ran past its time budget. */
        TIMEOUT,
        /** The code hit another limit: memory, or an internal resource. */
        LIMIT;

        /** The lower-case name used across the boundary: "ok", "error", "timeout", "limit". */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Status status;
    private final String value;
    private final boolean valueIncomplete;
    private final String stdout;
    private final long stdoutDropped;
    private final String errorType;
    private final String errorMessage;
    private final String errorStack;
    private final boolean stateReset;
    private final long durationNanos;
    private final String envelope;

    EvalOutcome(
            Status status,
            String value,
            boolean valueIncomplete,
            String stdout,
            long stdoutDropped,
            String errorType,
            String errorMessage,
            String errorStack,
            boolean stateReset,
            long durationNanos,
            int maxResultChars) {
        this.status = status;
        // Lone surrogates are shown as escapes here, once: UTF-8 consumers (JPype, JSON for a model) refuse them.
        this.value = UnicodeText.visible(value);
        this.valueIncomplete = valueIncomplete;
        this.stdout = UnicodeText.visible(stdout);
        this.stdoutDropped = stdoutDropped;
        this.errorType = UnicodeText.visible(errorType);
        this.errorMessage = UnicodeText.visible(errorMessage);
        this.errorStack = UnicodeText.visible(errorStack);
        this.stateReset = stateReset;
        this.durationNanos = durationNanos;
        this.envelope = Envelope.format(this, maxResultChars);
    }

    /** How the eval ended. */
    public Status status() {
        return status;
    }

    /** The rendered value of the last expression, or null when the eval did not end with one. */
    public String value() {
        return value;
    }

    /** True when {@link #value()} is only the start of the value: rendering stopped at its budget. */
    public boolean valueIncomplete() {
        return valueIncomplete;
    }

    /** Console output, in order; at most the configured number of characters. */
    public String stdout() {
        return stdout;
    }

    /** Console characters that were not kept. */
    public long stdoutDropped() {
        return stdoutDropped;
    }

    /** The error's type ({@code TypeError}, {@code Timeout}, ...), or null. */
    public String errorType() {
        return errorType;
    }

    /** The error's message, or null. */
    public String errorMessage() {
        return errorMessage;
    }

    /** Stack frames in the model's code, one per line, or an empty string. */
    public String errorStack() {
        return errorStack == null ? "" : errorStack;
    }

    /** True when the interpreter had to be rebuilt, losing its globals. */
    public boolean stateReset() {
        return stateReset;
    }

    /** Wall time of the eval. */
    public long durationNanos() {
        return durationNanos;
    }

    /** The text the model sees: {@code <stdout>}, then {@code <result>} or {@code <error>}. */
    public String envelope() {
        return envelope;
    }

    @Override
    public String toString() {
        return "EvalOutcome[" + status.wireName() + "] " + envelope;
    }
}
