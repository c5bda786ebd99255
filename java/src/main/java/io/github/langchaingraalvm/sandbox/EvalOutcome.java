package io.github.langchaingraalvm.sandbox;

import static io.github.langchaingraalvm.sandbox.text.Envelope.escape;
import static io.github.langchaingraalvm.sandbox.text.Envelope.stdoutBody;
import static io.github.langchaingraalvm.sandbox.text.Envelope.truncate;

import io.github.langchaingraalvm.sandbox.text.UnicodeText;

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

    /**
     * What kind of value {@link #value()} is, for hosts that print it the way LangChain4j's own GraalVM engines do
     * ({@link #plainText()}).
     */
    public enum ValueKind {
        /** No value: the eval failed, or its value was {@code undefined}, {@code null} or Python's {@code None}. */
        EMPTY,
        /** A string, number or boolean: {@link #plainValue()} is it as Java's {@code String.valueOf} prints it. */
        PRIMITIVE,
        /** Anything else: an array, object, function, list, dict, ...; {@link #plainValue()} is the rendering. */
        OTHER
    }

    private final Status status;
    private final ValueKind valueKind;
    private final String plainValue;
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
    private final int maxResultChars;

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
        this(status, value, valueIncomplete, stdout, stdoutDropped, errorType, errorMessage, errorStack, stateReset,
                durationNanos, maxResultChars, ValueKind.EMPTY, null);
    }

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
            int maxResultChars,
            ValueKind valueKind,
            String plainValue) {
        this.status = status;
        this.valueKind = status == Status.OK ? valueKind : ValueKind.EMPTY;
        this.plainValue = this.valueKind == ValueKind.EMPTY ? null : UnicodeText.visible(plainValue);
        this.maxResultChars = maxResultChars;
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
        this.envelope = renderEnvelope();
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

    /** What kind of value the eval ended with; {@link ValueKind#EMPTY} for every outcome but {@link Status#OK}. */
    public ValueKind valueKind() {
        return valueKind;
    }

    /**
     * The value as LangChain4j's GraalVM engines print it ({@code String.valueOf(value.as(Object.class))}): a string
     * as it is, without quotes, {@code 55}, {@code 0.5}, {@code true}; for other values the same rendering as
     * {@link #value()}. Null when {@link #valueKind()} is {@link ValueKind#EMPTY}.
     */
    public String plainValue() {
        return plainValue;
    }

    /**
     * The outcome as plain text, the form LangChain4j's GraalVM engines return (with console output first, as in
     * LangChain4j's change for them, PR #5094): the console output without its trailing line breaks, then on a line
     * of its own the value as {@link #plainValue()} gives it. A value that is {@code undefined}, {@code null} or
     * {@code None} is left out when there was output, and is {@code null} when there was none. An error, a timeout
     * or a limit is {@code Type: message} (then the stack of the model's code) after the output, where LangChain4j's
     * engines throw. Text longer than the result limit is cut with the same marker as {@link #envelope()}.
     *
     * <pre>{@code
     * interpreter.eval("console.log('hello'); 42").plainText();   // "hello\n42"
     * interpreter.eval("'null'").plainText();                     // "null" (the string)
     * interpreter.eval("x.y").plainText();                        // "ReferenceError: x is not defined\n    at ..."
     * }</pre>
     */
    public String plainText() {
        String output = trimLineBreaks(stdout);
        if (stdoutDropped > 0) {
            output = stdoutBody(output, stdoutDropped, maxResultChars);
        }
        String tail;
        if (errorType != null) {
            String message = errorMessage == null ? "" : errorMessage;
            tail = truncate(withStack(message.isEmpty() ? errorType : errorType + ": " + message), maxResultChars);
        } else if (valueKind == ValueKind.EMPTY) {
            tail = null;
        } else {
            tail = truncate(plainValue, maxResultChars, valueIncomplete);
        }
        if (output.isEmpty()) {
            // What String.valueOf gives for undefined, null and None, as LangChain4j's engines return it.
            return tail == null ? "null" : tail;
        }
        return tail == null ? output : output + "\n" + tail;
    }

    @Override
    public String toString() {
        return "EvalOutcome[" + status.wireName() + "] " + envelope;
    }

    /** {@link #envelope()}, made once by the constructor once the fields are set. */
    private String renderEnvelope() {
        StringBuilder sb = new StringBuilder();
        if (!stdout.isEmpty() || stdoutDropped > 0) {
            sb.append("<stdout>\n").append(escape(stdoutBody(stdout, stdoutDropped, maxResultChars)))
                    .append("\n</stdout>\n");
        }
        if (errorType != null) {
            sb.append("<error type=\"").append(escape(errorType)).append("\">")
                    .append(escape(truncate(withStack(errorMessage), maxResultChars))).append("</error>");
        } else {
            sb.append("<result>").append(escape(truncate(value, maxResultChars, valueIncomplete)))
                    .append("</result>");
        }
        return sb.toString();
    }

    /** {@code text}, then the stack of the model's code on the lines after it, if there is one. */
    private String withStack(String text) {
        return errorStack().isEmpty() ? text : text + "\n" + errorStack();
    }

    private static String trimLineBreaks(String text) {
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return text.substring(0, end);
    }
}
