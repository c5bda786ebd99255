package io.github.langchaingraalvm.sandbox.text;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import java.util.regex.Pattern;

/**
 * An outcome as plain text, the form LangChain4j's GraalVM engines return (see {@link EvalOutcome#plainText()}),
 * and the kind and plain form of a Python value read from its {@code repr()}.
 */
public final class PlainText {
    private static final Pattern PY_INT = Pattern.compile("-?\\d+");
    private static final Pattern PY_FLOAT = Pattern.compile("-?(\\d+\\.\\d*(e[+-]?\\d+)?|\\d+e[+-]?\\d+|inf|nan)");

    private PlainText() {}

    /** A value's kind and its plain form (null when {@link EvalOutcome.ValueKind#EMPTY}). */
    public record Plain(EvalOutcome.ValueKind kind, String text) {}

    public static String format(EvalOutcome outcome, int limit) {
        String output = trimLineBreaks(outcome.stdout());
        if (outcome.stdoutDropped() > 0) {
            output = Envelope.stdoutBody(output, outcome.stdoutDropped(), limit);
        }
        String tail;
        if (outcome.errorType() != null) {
            String message = outcome.errorMessage() == null ? "" : outcome.errorMessage();
            String text = message.isEmpty() ? outcome.errorType() : outcome.errorType() + ": " + message;
            if (!outcome.errorStack().isEmpty()) {
                text = text + "\n" + outcome.errorStack();
            }
            tail = Envelope.truncate(text, limit);
        } else if (outcome.valueKind() == EvalOutcome.ValueKind.EMPTY) {
            tail = null;
        } else {
            tail = Envelope.truncate(outcome.plainValue(), limit, outcome.valueIncomplete());
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

    /**
     * The kind and plain form of a Python value from its {@code repr()}: {@code None} is empty, a {@code str} is its
     * text without quotes, {@code True} is {@code true}, a float is as Java prints a double ({@code 1.0E21}), an int
     * its digits; anything else is its repr. A value whose own {@code __repr__} imitates one of these is read as it.
     */
    public static Plain fromPythonRepr(String repr, boolean cut) {
        if (repr == null || "None".equals(repr)) {
            return new Plain(EvalOutcome.ValueKind.EMPTY, null);
        }
        if (cut) {
            return new Plain(EvalOutcome.ValueKind.OTHER, repr);
        }
        if ("True".equals(repr) || "False".equals(repr)) {
            return new Plain(EvalOutcome.ValueKind.PRIMITIVE, "True".equals(repr) ? "true" : "false");
        }
        if (PY_INT.matcher(repr).matches()) {
            return new Plain(EvalOutcome.ValueKind.PRIMITIVE, repr);
        }
        if (PY_FLOAT.matcher(repr).matches()) {
            String f = repr.replace("inf", "Infinity").replace("nan", "NaN");
            return new Plain(EvalOutcome.ValueKind.PRIMITIVE, String.valueOf(Double.parseDouble(f)));
        }
        String text = unquote(repr);
        return text == null ? new Plain(EvalOutcome.ValueKind.OTHER, repr) : new Plain(EvalOutcome.ValueKind.PRIMITIVE, text);
    }

    /** The text of a {@code str} repr ({@code 'a\'b'}, {@code "it's"}), or null when {@code repr} is not one. */
    static String unquote(String repr) {
        if (repr.length() < 2) {
            return null;
        }
        char q = repr.charAt(0);
        if (q != '\'' && q != '"' || repr.charAt(repr.length() - 1) != q) {
            return null;
        }
        StringBuilder sb = new StringBuilder(repr.length());
        int end = repr.length() - 1;
        for (int i = 1; i < end; i++) {
            char c = repr.charAt(i);
            if (c == q) {
                return null;
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (++i >= end) {
                return null;
            }
            char e = repr.charAt(i);
            int digits = switch (e) {
                case 'x' -> 2;
                case 'u' -> 4;
                case 'U' -> 8;
                default -> 0;
            };
            if (digits > 0) {
                if (i + digits >= end) {
                    return null;
                }
                int cp;
                try {
                    cp = Integer.parseInt(repr.substring(i + 1, i + 1 + digits), 16);
                } catch (NumberFormatException ex) {
                    return null;
                }
                if (!Character.isValidCodePoint(cp)) {
                    return null;
                }
                sb.appendCodePoint(cp);
                i += digits;
                continue;
            }
            switch (e) {
                case '\\', '\'', '"' -> sb.append(e);
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                default -> {
                    return null;
                }
            }
        }
        return sb.toString();
    }
}
