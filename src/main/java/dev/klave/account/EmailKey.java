package dev.klave.account;

import java.util.Optional;

/**
 * How accounts are found by e-mail (spec 2 §5 rule 7): spaces trimmed, the letters A to Z folded to
 * a to z, every other character compared exactly (so {@code İ} or {@code ß} never meet a look-alike).
 *
 * <p>"Spaces" are the ASCII space only. An address holding a control character (C0 — tab included —,
 * DEL or C1) or any other whitespace ({@code U+00A0}, {@code U+2003}, {@code U+3000}, line
 * separators…) anywhere has no key: it finds no account, an administrator cannot set it, and a
 * provider that sends it gives no usable e-mail. Trimming those too would let
 * {@code "ana@example.com\u3000"} open the account of {@code ana@example.com}; the tab is refused
 * rather than trimmed because it is a control character, which no address holds.
 */
public final class EmailKey {
    private EmailKey() {}

    /** The address's key, or empty when it holds a control character or whitespace other than spaces. */
    public static Optional<String> of(String email) {
        String trimmed = trimSpaces(email);
        StringBuilder key = new StringBuilder(trimmed.length());
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (Character.isISOControl(c) || (c != ' ' && (Character.isWhitespace(c) || Character.isSpaceChar(c)))) {
                return Optional.empty();
            }
            key.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return Optional.of(key.toString());
    }

    /** Whether {@code email} has a key (see {@link #of}). */
    public static boolean usable(String email) {
        return of(email).isPresent();
    }

    /** The address without the ASCII spaces around it, and nothing else removed. */
    public static String trimSpaces(String email) {
        int start = 0;
        int end = email.length();
        while (start < end && email.charAt(start) == ' ') {
            start++;
        }
        while (end > start && email.charAt(end - 1) == ' ') {
            end--;
        }
        return email.substring(start, end);
    }
}
