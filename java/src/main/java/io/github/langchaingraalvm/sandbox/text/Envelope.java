package io.github.langchaingraalvm.sandbox.text;

import io.github.langchaingraalvm.sandbox.EvalOutcome;

/** Formats an outcome as the XML-like envelope a model reads, with the same truncation as langchain-quickjs. */
public final class Envelope {
    private static final String MARKER_ZERO = marker(0);

    private Envelope() {}

    static String marker(long dropped) {
        return "\u2026 [truncated " + dropped + " chars]";
    }

    public static String format(EvalOutcome outcome, int limit) {
        StringBuilder sb = new StringBuilder();
        String stdout = outcome.stdout();
        if (!stdout.isEmpty() || outcome.stdoutDropped() > 0) {
            sb.append("<stdout>\n").append(escape(stdoutBody(stdout, outcome.stdoutDropped(), limit))).append("\n</stdout>\n");
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

    static String truncate(String text, int limit) {
        return truncate(text, limit, false);
    }

    /** Cuts {@code text} to {@code limit}; {@code unrendered} says the text is itself only a prefix of the value. */
    static String truncate(String text, int limit, boolean unrendered) {
        if (!unrendered && text.length() <= limit) {
            return text;
        }
        int keep = Math.max(0, Math.min(text.length(), limit - MARKER_ZERO.length()));
        String count = (text.length() - keep) + (unrendered ? "+" : "");
        return text.substring(0, keep) + "\u2026 [truncated " + count + " chars]";
    }

    static String stdoutBody(String kept, long dropped, int limit) {
        if (dropped <= 0) {
            return kept;
        }
        String marker = marker(dropped);
        if (marker.length() >= limit) {
            return marker.substring(0, Math.max(0, limit));
        }
        return kept.substring(0, Math.min(kept.length(), limit - marker.length())) + marker;
    }

    static String escape(String text) {
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String rep = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                default -> null;
            };
            if (rep != null && sb == null) {
                sb = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (sb != null) {
                if (rep != null) {
                    sb.append(rep);
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? text : sb.toString();
    }
}
