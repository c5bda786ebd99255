package io.github.langchaingraalvm.sandbox;

import static io.github.langchaingraalvm.sandbox.text.Envelope.escape;
import static io.github.langchaingraalvm.sandbox.text.Envelope.stdoutBody;
import static io.github.langchaingraalvm.sandbox.text.Envelope.truncate;

/** The two renderings of an {@link EvalOutcome}: the envelope a model reads, and LangChain4j's plain text. */
final class OutcomeText {
    private OutcomeText() {}

    /** {@link EvalOutcome#envelope()}: {@code <stdout>}, then {@code <result>} or {@code <error>}. */
    static String envelope(EvalOutcome outcome, int limit) {
        StringBuilder sb = new StringBuilder();
        String stdout = outcome.stdout();
        if (!stdout.isEmpty() || outcome.stdoutDropped() > 0) {
            sb.append("<stdout>\n").append(escape(stdoutBody(stdout, outcome.stdoutDropped(), limit)))
                    .append("\n</stdout>\n");
        }
        if (outcome.errorType() != null) {
            String text = outcome.errorMessage();
            if (!outcome.errorStack().isEmpty()) {
                text = text + "\n" + outcome.errorStack();
            }
            sb.append("<error type=\"").append(escape(outcome.errorType())).append("\">")
                    .append(escape(truncate(text, limit))).append("</error>");
        } else {
            sb.append("<result>").append(escape(truncate(outcome.value(), limit, outcome.valueIncomplete())))
                    .append("</result>");
        }
        return sb.toString();
    }

    /** {@link EvalOutcome#plainText()}. */
    static String plain(EvalOutcome outcome, int limit) {
        String output = trimLineBreaks(outcome.stdout());
        if (outcome.stdoutDropped() > 0) {
            output = stdoutBody(output, outcome.stdoutDropped(), limit);
        }
        String tail;
        if (outcome.errorType() != null) {
            String message = outcome.errorMessage() == null ? "" : outcome.errorMessage();
            String text = message.isEmpty() ? outcome.errorType() : outcome.errorType() + ": " + message;
            if (!outcome.errorStack().isEmpty()) {
                text = text + "\n" + outcome.errorStack();
            }
            tail = truncate(text, limit);
        } else if (outcome.valueKind() == EvalOutcome.ValueKind.EMPTY) {
            tail = null;
        } else {
            tail = truncate(outcome.plainValue(), limit, outcome.valueIncomplete());
        }
        if (output.isEmpty()) {
            // What String.valueOf gives for undefined, null and None, as LangChain4j's engines return it.
            return tail == null ? "null" : tail;
        }
        return tail == null ? output : output + "\n" + tail;
    }

    private static String trimLineBreaks(String text) {
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return text.substring(0, end);
    }
}
