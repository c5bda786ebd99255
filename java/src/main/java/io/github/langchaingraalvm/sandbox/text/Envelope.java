package io.github.langchaingraalvm.sandbox.text;

/**
 * The pieces of the XML-like envelope a model reads, with the same truncation as langchain-quickjs: the marker of
 * what was cut, the cut itself and the escaping. The outcome's own renderings put them together
 * ({@code EvalOutcome.envelope()}, {@code EvalOutcome.plainText()}).
 */
public final class Envelope {
    private static final String MARKER_ZERO = marker(0);

    private Envelope() {}

    static String marker(long dropped) {
        return "\u2026 [truncated " + dropped + " chars]";
    }

    public static String truncate(String text, int limit) {
        return truncate(text, limit, false);
    }

    /** Cuts {@code text} to {@code limit}; {@code unrendered} says the text is itself only a prefix of the value. */
    public static String truncate(String text, int limit, boolean unrendered) {
        if (!unrendered && text.length() <= limit) {
            return text;
        }
        int keep = Math.max(0, Math.min(text.length(), limit - MARKER_ZERO.length()));
        String count = (text.length() - keep) + (unrendered ? "+" : "");
        return text.substring(0, keep) + "\u2026 [truncated " + count + " chars]";
    }

    /** Console output kept, with the marker of the {@code dropped} characters, within {@code limit}. */
    public static String stdoutBody(String kept, long dropped, int limit) {
        if (dropped <= 0) {
            return kept;
        }
        String marker = marker(dropped);
        if (marker.length() >= limit) {
            return marker.substring(0, Math.max(0, limit));
        }
        return kept.substring(0, Math.min(kept.length(), limit - marker.length())) + marker;
    }

    /** {@code &}, {@code <} and {@code >} as entities. */
    public static String escape(String text) {
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
