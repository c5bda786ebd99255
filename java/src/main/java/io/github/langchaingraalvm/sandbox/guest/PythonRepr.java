package io.github.langchaingraalvm.sandbox.guest;

import io.github.langchaingraalvm.sandbox.EvalOutcome;
import java.util.regex.Pattern;

/** A Python value's kind and plain form, read from its {@code repr()} (for {@link EvalOutcome#plainValue()}). */
final class PythonRepr {
    private static final Pattern PY_INT = Pattern.compile("-?\\d+");
    private static final Pattern PY_FLOAT = Pattern.compile("-?(\\d+\\.\\d*(e[+-]?\\d+)?|\\d+e[+-]?\\d+|inf|nan)");

    private PythonRepr() {}

    /** A value's kind and its plain form (null when {@link EvalOutcome.ValueKind#EMPTY}). */
    record Plain(EvalOutcome.ValueKind kind, String text) {}

    /**
     * The kind and plain form of a Python value from its {@code repr()}: {@code None} is empty, a {@code str} is its
     * text without quotes, {@code True} is {@code true}, a float is as Java prints a double ({@code 1.0E21}), an int
     * its digits; anything else is its repr. A value whose own {@code __repr__} imitates one of these is read as it.
     */
    static Plain fromPythonRepr(String repr, boolean cut) {
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
