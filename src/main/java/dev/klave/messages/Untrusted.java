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
        String escaped = escape(value, kept, true);
        return kept < value.length() ? escaped + "…(+" + (value.length() - kept) + ")" : escaped;
    }

    /**
     * Why a call to another service failed, for a log line or a status shown to administrators:
     * the failure's message escaped, or — the JDK's HTTP client often gives none, e.g. for a refused
     * connection — its kind ({@code ConnectException}) and that of its cause.
     */
    public static String failure(Throwable failure) {
        StringBuilder why = new StringBuilder();
        for (Throwable at = failure; at != null && why.length() == 0; at = at.getCause()) {
            if (at.getMessage() != null && !at.getMessage().isBlank()) {
                why.append(text(at.getMessage()));
            }
        }
        String kind = failure.getClass().getSimpleName();
        if (why.length() == 0) {
            Throwable cause = failure.getCause();
            return cause == null || cause == failure ? kind : kind + " (" + cause.getClass().getSimpleName() + ")";
        }
        return kind + ": " + why;
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
        return escape(line, line.length(), false);
    }

    /** The first {@code length} characters of {@code value}, escaped; the value itself when nothing needs it. */
    private static String escape(String value, int length, boolean backslashes) {
        int first = 0;
        while (first < length && !needsEscape(value.charAt(first), backslashes)) {
            first++;
        }
        if (first == value.length()) {
            return value;
        }
        StringBuilder out = new StringBuilder(length + 16).append(value, 0, first);
        for (int i = first; i < length; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == '\\' && backslashes) {
                        out.append("\\\\");
                    } else if (unsafe(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(char c, boolean backslashes) {
        return unsafe(c) || (backslashes && c == '\\');
    }

    /** C0 and C1 controls, DEL, line and paragraph separators, bidirectional embeddings and isolates. */
    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
    }
}
