package io.github.langchaingraalvm.sandbox.text;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Large data literals in a cell (arrays and objects of strings, numbers, {@code true}, {@code false}, {@code null} and
 * plain keys, as a model pastes a tool's result) are set aside while the cell compiler parses and rewrites the cell,
 * and put back into its output. The tooling parser runs interpreted and needs about 0.1 ms per array element, the
 * engine's own parser a few microseconds; nothing the rewrites look at (declarations, {@code await}, completion
 * values, imports) can be inside such a literal, so the cell compiler sees {@code [/*mark*&#47;]} in its place.
 *
 * <p>One linear pass: strings, comments and template literals are skipped, and a literal is taken only where an
 * expression starts. A placeholder keeps the literal's line breaks, so line numbers stay those of the cell. The caller
 * falls back to the whole cell when the output does not hold every placeholder exactly once or more, or is a syntax
 * error (whose position should be the cell's own).
 */
public final class DataLiterals {
    /** Literals shorter than this are left in place: parsing them costs less than setting them aside. */
    static final int MIN_CHARS = 256;

    /** A placeholder's characters before its mark: the bracket and the comment's opening. */
    private static final int OPENING = "[/*".length();
    private static final AtomicLong NONCES = new AtomicLong(System.nanoTime());

    private DataLiterals() {}

    /** A cell with its large data literals replaced by placeholders, and the literals. */
    public record Elided(String code, String mark, List<String> literals, List<String> placeholders) {
        /** {@code out} with each placeholder replaced by its literal; null when one of them is missing. */
        public String restore(String out) {
            StringBuilder b = new StringBuilder(out.length() + literals.stream().mapToInt(String::length).sum());
            boolean[] seen = new boolean[literals.size()];
            int from = 0;
            for (int p = out.indexOf(mark); p >= 0; p = out.indexOf(mark, p + 1)) {
                int end = out.indexOf("*/", p);
                int i = end < 0 ? -1 : index(out, p + mark.length(), end);
                int at = p - OPENING;
                if (i < 0 || at < from || !out.startsWith(placeholders.get(i), at)) {
                    continue;
                }
                b.append(out, from, at).append(literals.get(i));
                from = at + placeholders.get(i).length();
                seen[i] = true;
            }
            for (boolean s : seen) {
                if (!s) {
                    return null;
                }
            }
            return b.append(out, from, out.length()).toString();
        }

        private int index(String out, int start, int end) {
            try {
                int i = Integer.parseInt(out, start, end, 10);
                return i >= 0 && i < literals.size() ? i : -1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    /** The cell with its large data literals set aside, or null when it has none. */
    public static Elided elide(String code) {
        List<int[]> spans = new ArrayList<>();
        int n = code.length();
        int i = 0;
        while (i < n) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                i = skipQuoted(code, i);
            } else if (c == '`') {
                i = skipTemplate(code, i);
            } else if (c == '/' && i + 1 < n && code.charAt(i + 1) == '/') {
                int eol = code.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && code.charAt(i + 1) == '*') {
                int end = code.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if ((c == '[' || c == '{') && startsExpression(code, i)) {
                i = scan(code, i, spans);
            } else {
                i++;
            }
        }
        if (spans.isEmpty()) {
            return null;
        }
        String mark = "\u0000" + Long.toHexString(NONCES.incrementAndGet()) + "_";
        StringBuilder b = new StringBuilder();
        List<String> literals = new ArrayList<>(spans.size());
        List<String> placeholders = new ArrayList<>(spans.size());
        int from = 0;
        for (int[] s : spans) {
            String literal = code.substring(s[0], s[1]);
            String placeholder = literal.charAt(0) + "/*" + mark + literals.size() + "*/"
                    + "\n".repeat((int) literal.chars().filter(ch -> ch == '\n').count())
                    + literal.charAt(literal.length() - 1);
            b.append(code, from, s[0]).append(placeholder);
            from = s[1];
            literals.add(literal);
            placeholders.add(placeholder);
        }
        return new Elided(b.append(code, from, n).toString(), mark, literals, placeholders);
    }

    /**
     * Walks the bracketed data starting at {@code start}; each completed span of at least {@link #MIN_CHARS} that is
     * not inside another is added to {@code spans}. Returns where the walk stopped: after the literal, or at the first
     * thing that is not data (nested literals completed before it are still taken, so the whole pass stays linear).
     */
    private static int scan(String s, int start, List<int[]> spans) {
        int n = s.length();
        int[] opens = new int[16];
        int depth = 0;
        int firstNew = spans.size();
        int i = start;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '[' || c == '{') {
                if (depth == opens.length) {
                    opens = Arrays.copyOf(opens, depth * 2);
                }
                opens[depth++] = i++;
            } else if (c == ']' || c == '}') {
                char open = s.charAt(opens[--depth]);
                if ((open == '[') != (c == ']')) {
                    return i;
                }
                int from = opens[depth];
                i++;
                if (i - from >= MIN_CHARS) {
                    while (spans.size() > firstNew && spans.get(spans.size() - 1)[0] > from) {
                        spans.remove(spans.size() - 1);
                    }
                    spans.add(new int[] {from, i});
                }
                if (depth == 0) {
                    return i;
                }
            } else if (c == '"' || c == '\'') {
                int end = skipQuoted(s, i);
                if (end > n || s.substring(i, Math.min(end, n)).indexOf('\n') >= 0) {
                    return i;
                }
                i = end;
            } else if (Character.isWhitespace(c) || c == ',' || c == ':') {
                i++;
            } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
                i++;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || "._+-".indexOf(s.charAt(i)) >= 0)) {
                    i++;
                }
            } else if (Character.isJavaIdentifierStart(c)) {
                int end = i;
                while (end < n && Character.isJavaIdentifierPart(s.charAt(end))) {
                    end++;
                }
                String word = s.substring(i, end);
                boolean value = word.equals("true") || word.equals("false") || word.equals("null");
                if (!value && !(s.charAt(opens[depth - 1]) == '{' && nextIsColon(s, end))) {
                    return i;
                }
                i = end;
            } else {
                return i;
            }
        }
        return i;
    }

    private static boolean nextIsColon(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i < s.length() && s.charAt(i) == ':';
    }

    /** Whether a bracket at {@code i} opens a literal: after an operator or punctuation that starts an expression. */
    private static boolean startsExpression(String s, int i) {
        int j = i - 1;
        while (j >= 0 && Character.isWhitespace(s.charAt(j))) {
            j--;
        }
        if (j < 0) {
            return s.charAt(i) == '[';
        }
        char p = s.charAt(j);
        return s.charAt(i) == '[' ? "=(,:?;!&|[".indexOf(p) >= 0 : "=(,:?[".indexOf(p) >= 0;
    }

    /** The index after the string literal opening at {@code i} (past the end when it is not closed). */
    private static int skipQuoted(String s, int i) {
        char quote = s.charAt(i);
        int n = s.length();
        for (int j = i + 1; j < n; j++) {
            char c = s.charAt(j);
            if (c == '\\') {
                j++;
            } else if (c == quote) {
                return j + 1;
            }
        }
        return n + 1;
    }

    /** The index after the template literal opening at {@code i}, its substitutions and nested templates included. */
    private static int skipTemplate(String s, int i) {
        int n = s.length();
        ArrayDeque<Integer> outer = new ArrayDeque<>();
        boolean text = true;
        int braces = 0;
        for (int j = i + 1; j < n; j++) {
            char c = s.charAt(j);
            if (text) {
                if (c == '\\') {
                    j++;
                } else if (c == '`') {
                    if (outer.isEmpty()) {
                        return j + 1;
                    }
                    braces = outer.pop();
                    text = false;
                } else if (c == '$' && j + 1 < n && s.charAt(j + 1) == '{') {
                    text = false;
                    braces = 0;
                    j++;
                }
            } else if (c == '"' || c == '\'') {
                j = skipQuoted(s, j) - 1;
            } else if (c == '{') {
                braces++;
            } else if (c == '}') {
                if (braces == 0) {
                    text = true;
                } else {
                    braces--;
                }
            } else if (c == '`') {
                outer.push(braces);
                text = true;
            }
        }
        return n;
    }
}
