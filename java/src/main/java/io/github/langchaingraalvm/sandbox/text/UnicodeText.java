package io.github.langchaingraalvm.sandbox.text;

/**
 * Strings with unpaired UTF-16 surrogates, which a guest makes easily (an emoji sliced in half) and which strict
 * UTF-8 codecs refuse. Bindings that speak UTF-8 (JPype) cross them through these helpers: text going in as exact
 * UTF-16 code units, text coming out with each lone surrogate shown as a {@code \\uXXXX} escape.
 */
public final class UnicodeText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private UnicodeText() {}

    /** {@code text} as a JSON string literal: quotes, backslashes and control characters escaped. */
    public static String jsonString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Whether {@code s} holds a surrogate that is not part of a valid pair. */
    public static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** {@code s} with every lone surrogate replaced by the six characters of its {@code \\uXXXX} escape. */
    public static String visible(String s) {
        if (s == null || !hasLoneSurrogate(s)) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                        .append(HEX[c & 0xf]);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The string whose UTF-16 code units are {@code bytes}, little-endian, with no decoder to replace any. */
    public static String fromUtf16LE(byte[] bytes) {
        char[] chars = new char[bytes.length / 2];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ((bytes[2 * i] & 0xff) | ((bytes[2 * i + 1] & 0xff) << 8));
        }
        return new String(chars);
    }
}
