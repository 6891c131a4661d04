package dev.klave.messages;

/**
 * A value that came from outside — a path, a header, a token's claim, a login, a webhook field —
 * made safe to put in a log line, an event or a message: every control character is written as an
 * escape ({@code \n}, {@code \r}, {@code \t}, otherwise {@code \u001b} and the like, also for C1
 * controls, line and paragraph separators and bidirectional overrides), a backslash as
 * {@code \\}, and a long value is cut. A client can then neither start a log line of its own, nor
 * recolour or rewrite a terminal, nor flood the log with one value.
 */
public final class Untrusted {
    /** Longest part of a value kept; the rest is counted, not written. */
    public static final int MAX_LENGTH = 200;

    private Untrusted() {}

    /** The value escaped and cut to {@link #MAX_LENGTH} characters. */
    public static String text(String value) {
        return text(value, MAX_LENGTH);
    }

    /** The value escaped and cut to {@code max} characters ({@code "null"} for none). */
    public static String text(String value, int max) {
        if (value == null) {
            return "null";
        }
        int kept = Math.min(value.length(), max);
        if (kept > 0 && kept < value.length() && Character.isHighSurrogate(value.charAt(kept - 1))) {
            kept--; // never split a surrogate pair
        }
        if (kept == value.length() && clean(value)) {
            return value;
        }
        StringBuilder out = new StringBuilder(kept + 16);
        for (int i = 0; i < kept; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (unsafe(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (kept < value.length()) {
            out.append("…(+").append(value.length() - kept).append(')');
        }
        return out.toString();
    }

    /**
     * A whole log line's text with its control characters escaped and nothing cut, backslashes
     * kept: the last line of defence in the log layout, for values no call site escaped (an
     * exception's message, say). Values escaped by {@link #text} pass through unchanged.
     */
    public static String controls(String line) {
        if (line == null) {
            return "null";
        }
        int first = -1;
        for (int i = 0; i < line.length(); i++) {
            if (unsafe(line.charAt(i))) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return line;
        }
        StringBuilder out = new StringBuilder(line.length() + 16).append(line, 0, first);
        for (int i = first; i < line.length(); i++) {
            char c = line.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (unsafe(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static boolean clean(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || unsafe(c)) {
                return false;
            }
        }
        return true;
    }

    /** C0 and C1 controls, DEL, line and paragraph separators, bidirectional embeddings and isolates. */
    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
    }
}
