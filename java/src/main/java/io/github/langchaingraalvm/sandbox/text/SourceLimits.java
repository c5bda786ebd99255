package io.github.langchaingraalvm.sandbox.text;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * The cheap check every cell passes before any expensive work (TypeScript stripping, the cell compiler, the
 * engine's parser): its size and how deeply it nests. The parsers that follow recurse once or more per level, so
 * a cell past these limits would spend its time unwinding stack overflows, outside the reach of the timeout.
 *
 * <p>One linear pass, no recursion and no allocation per token. Nesting counts what makes a parser recurse:
 * brackets, parentheses and braces, template substitutions ({@code ${}), regular expression groups, and each
 * operator in one chain of binary, unary or assignment operators (a flat {@code 1 + 1 + ... + 1} is a tree as
 * deep as it has operators). Text in strings and comments is not counted. The scan only estimates; the parser
 * decides whether the code is valid.
 */
public final class SourceLimits {
    private SourceLimits() {}

    /** What the check found wrong: the error type and the message the model reads. */
    public record Violation(String type, String message) {}

    /**
     * The violation of {@code code} in {@code language} ("js" or "python"), or null when it is within
     * {@code maxBytes} of UTF-8 and {@code maxNesting} levels.
     */
    public static Violation check(String code, String language, long maxBytes, int maxNesting) {
        long bytes = utf8Length(code, Long.MAX_VALUE);
        if (bytes > maxBytes) {
            return new Violation("CodeTooLarge", "The code is too large: " + size(bytes) + " (limit "
                    + size(maxBytes) + "). Split it into smaller cells, or build large data in a loop or read it"
                    + " from a file instead of writing it out in the code.");
        }
        int depth = "python".equals(language) ? pythonNesting(code, maxNesting) : javaScriptNesting(code, maxNesting);
        if (depth > maxNesting) {
            return new Violation("CodeTooDeep", "The code is too deeply nested: more than " + maxNesting
                    + " levels of brackets, parentheses, template substitutions, regular expression groups or"
                    + " chained operators in one expression (limit " + maxNesting + "). Split long expressions"
                    + " into several statements (sum in a loop instead of a + b + c + ...), and build deep"
                    + " structures in a loop.");
        }
        return null;
    }

    /** The UTF-8 length of {@code s}, counted until it passes {@code stopAbove}. */
    public static long utf8Length(CharSequence s, long stopAbove) {
        long n = 0;
        for (int i = 0; i < s.length() && n <= stopAbove; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** "1.5 MiB", "64 KiB", "12,010 bytes". */
    public static String size(long bytes) {
        if (bytes >= (1L << 20)) {
            return mib(bytes);
        }
        return bytes >= 1024 && bytes % 1024 == 0 ? (bytes / 1024) + " KiB" : String.format(Locale.ROOT, "%,d bytes", bytes);
    }

    /**
     * The nesting levels: a stack of open brackets, each remembering how many chained operators the expression
     * that holds it had reached, so the depth is every open bracket plus the operators chained at each level.
     */
    private static final class Levels {
        private char[] open = new char[64];
        private int[] savedChain = new int[64];
        private int size;
        private int savedSum;
        private int chain;
        int max;

        void push(char c) {
            if (size == open.length) {
                open = Arrays.copyOf(open, size * 2);
                savedChain = Arrays.copyOf(savedChain, size * 2);
            }
            open[size] = c;
            savedChain[size] = chain;
            savedSum += chain;
            size++;
            chain = 0;
            max = Math.max(max, size + savedSum);
        }

        /** Closes the innermost bracket, if any. */
        void pop() {
            if (size == 0) {
                chain = 0;
                return;
            }
            size--;
            chain = savedChain[size];
            savedSum -= chain;
        }

        char top() {
            return size == 0 ? '\0' : open[size - 1];
        }

        boolean outermost() {
            return size == 0;
        }

        void operator() {
            operators(1);
        }

        /**
         * Counts a run of {@code length} operator characters: one operator (none is longer than 4 characters,
         * {@code >>>=}), or, in a longer run, a chain of unary ones ({@code !!!!x}).
         */
        void operators(int length) {
            chain += Math.max(1, length - 3);
            max = Math.max(max, size + savedSum + chain);
        }

        void endExpression() {
            chain = 0;
        }
    }

    /** Whether the character at {@code i} is the point of a number ({@code 1.5}), not an operator. */
    private static boolean decimalPoint(String s, int i) {
        return s.charAt(i) == '.' && i > 0 && Character.isDigit(s.charAt(i - 1));
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    private static final Set<String> BEFORE_REGEXP = Set.of("return", "typeof", "case", "do",
            "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await");

    static int javaScriptNesting(String s, int limit) {
        Levels l = new Levels();
        int n = s.length();
        int i = 0;
        // Whether a '/' here starts a regular expression: after an operator, an opening bracket or a keyword.
        boolean regexpAllowed = true;
        // Whether the last token wants an operand after it (an operator, or a keyword such as `typeof`).
        boolean operandExpected = false;
        while (i < n) {
            if (l.max > limit) {
                return l.max;
            }
            char c = s.charAt(i);
            if (c == '\n') {
                // Code without semicolons: a line ends its expression unless the expression goes on (after an
                // operator, or before one: `1 +\n1`, `rows\n.map(f)`) or it is inside brackets other than a block.
                if (!operandExpected && (l.outermost() || l.top() == '{') && !continuesOnNextLine(s, i + 1)) {
                    l.endExpression();
                }
                i++;
                continue;
            }
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                continue;
            }
            if (c == '\'' || c == '"') {
                i = skipQuoted(s, i + 1, c);
                regexpAllowed = false;
                operandExpected = false;
                continue;
            }
            if (c == '`' || (c == '}' && l.top() == '`')) {
                if (c == '}') {
                    l.pop();
                }
                i = skipTemplateText(s, i + 1);
                if (i < n && s.charAt(i) == '$') {
                    l.push('`');
                    i += 2;
                    regexpAllowed = true;
                } else {
                    i++;
                    regexpAllowed = false;
                }
                operandExpected = false;
                continue;
            }
            if (c == '/' && regexpAllowed) {
                i = skipRegExp(s, i + 1, l);
                regexpAllowed = false;
                operandExpected = false;
                continue;
            }
            if (isWordChar(c)) {
                int start = i;
                while (i < n && isWordChar(s.charAt(i))) {
                    i++;
                }
                String word = i - start <= 10 ? s.substring(start, i) : "";
                regexpAllowed = BEFORE_REGEXP.contains(word);
                operandExpected = regexpAllowed;
                continue;
            }
            i++;
            operandExpected = false;
            switch (c) {
                case '(', '[', '{' -> {
                    l.push(c);
                    regexpAllowed = true;
                }
                case ')', ']', '}' -> {
                    l.pop();
                    // After `)` or `]` a slash divides; after a block's `}` it starts a regular expression.
                    regexpAllowed = c == '}';
                }
                case ',', ';' -> {
                    l.endExpression();
                    regexpAllowed = true;
                }
                case '+', '-', '*', '/', '%', '&', '|', '^', '!', '~', '<', '>', '=', '?', ':', '.' -> {
                    int at = i - 1;
                    // One operator of several characters (`===`, `=>`, `?.`, `...`) counts once.
                    while (i < n && "+-*/%&|^!~<>=?.".indexOf(s.charAt(i)) >= 0 && !(s.charAt(i) == '/'
                            && i + 1 < n && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*'))) {
                        i++;
                    }
                    if (!decimalPoint(s, at)) {
                        l.operators(i - at);
                        operandExpected = !postfix(s, at, i);
                    }
                    regexpAllowed = true;
                }
                default -> {
                }
            }
        }
        return l.max;
    }

    /**
     * Whether the line from {@code i} goes on with the expression before it: it starts with an operator, a
     * bracket that calls or indexes, a template, {@code in} or {@code instanceof}, or a comment (then the line
     * after the comment decides).
     */
    private static boolean continuesOnNextLine(String s, int i) {
        int n = s.length();
        while (i < n && s.charAt(i) != '\n' && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        if (i == n) {
            return false;
        }
        if (s.charAt(i) == '\n') {
            return true; // a blank line: the newline that ends it decides
        }
        if ("+-*/%&|^!~<>=?:.([`".indexOf(s.charAt(i)) >= 0) {
            return true;
        }
        return (s.startsWith("in", i) && (i + 2 == n || !isWordChar(s.charAt(i + 2))))
                || (s.startsWith("instanceof", i) && (i + 10 == n || !isWordChar(s.charAt(i + 10))));
    }

    /** Whether the operator from {@code from} to {@code to} is a postfix {@code ++} or {@code --} ({@code i++}). */
    private static boolean postfix(String s, int from, int to) {
        if (to - from != 2 || s.charAt(from) != s.charAt(from + 1) || "+-".indexOf(s.charAt(from)) < 0 || from == 0) {
            return false;
        }
        char before = s.charAt(from - 1);
        return isWordChar(before) || before == ')' || before == ']';
    }

    private static int skipQuoted(String s, int i, char quote) {
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else if (c == '\n' && quote != '`') {
                return i + 1;
            } else {
                i++;
            }
        }
        return n;
    }

    /** Skips template text from {@code i}; returns the index of the closing backquote or of a {@code ${}. */
    private static int skipTemplateText(String s, int i) {
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == '`' || (c == '$' && i + 1 < n && s.charAt(i + 1) == '{')) {
                return i;
            } else {
                i++;
            }
        }
        return n;
    }

    /** Skips a regular expression literal from {@code i}, counting its groups as levels. */
    private static int skipRegExp(String s, int i, Levels l) {
        int n = s.length();
        int groups = 0;
        boolean inClass = false;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '\n') {
                break;
            }
            if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                groups++;
                l.push('(');
            } else if (c == ')' && groups > 0) {
                groups--;
                l.pop();
            } else if (c == '/') {
                i++;
                break;
            }
            i++;
        }
        while (groups-- > 0) {
            l.pop();
        }
        while (i < n && isWordChar(s.charAt(i))) {
            i++;
        }
        return i;
    }

    static int pythonNesting(String s, int limit) {
        Levels l = new Levels();
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (l.max > limit) {
                return l.max;
            }
            char c = s.charAt(i);
            if (c == '#') {
                while (i < n && s.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                boolean triple = i + 2 < n && s.charAt(i + 1) == c && s.charAt(i + 2) == c;
                i = triple ? skipTripleQuoted(s, i + 3, c) : skipQuoted(s, i + 1, c);
                continue;
            }
            if (isWordChar(c)) {
                int start = i;
                while (i < n && isWordChar(s.charAt(i))) {
                    i++;
                }
                String word = s.substring(start, Math.min(i, start + 4));
                if (i - start <= 3 && (word.equals("and") || word.equals("or") || word.equals("not")
                        || word.equals("if") || word.equals("in") || word.equals("is"))) {
                    l.operator();
                }
                continue;
            }
            i++;
            switch (c) {
                case '(', '[', '{' -> l.push(c);
                case ')', ']', '}' -> l.pop();
                case ',', ';' -> l.endExpression();
                case '\n' -> {
                    if (l.outermost()) {
                        l.endExpression();
                    }
                }
                case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '=', '!', '.', ':' -> {
                    int at = i - 1;
                    while (i < n && "+-*/%@&|^~<>=!.:".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    if (!decimalPoint(s, at)) {
                        l.operators(i - at);
                    }
                }
                default -> {
                }
            }
        }
        return l.max;
    }

    private static int skipTripleQuoted(String s, int i, char quote) {
        int n = s.length();
        String end = String.valueOf(quote).repeat(3);
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (s.startsWith(end, i)) {
                return i + 3;
            } else {
                i++;
            }
        }
        return n;
    }

    /** A size in MiB as the limits' messages print it: whole, or with one decimal. */
    public static String mib(long bytes) {
        return (bytes % (1L << 20) == 0 ? String.valueOf(bytes >> 20) : String.format("%.1f", bytes / 1048576.0))
                + " MiB";
    }
}
