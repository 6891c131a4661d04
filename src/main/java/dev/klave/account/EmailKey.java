package dev.klave.account;

/**
 * How accounts are found by e-mail (spec 2 §5 rule 7): spaces trimmed, the letters A to Z folded to
 * a to z, every other character compared exactly (so {@code İ} or {@code ß} never meet a look-alike).
 */
public final class EmailKey {
    private EmailKey() {}

    public static String of(String email) {
        String trimmed = email.strip();
        StringBuilder key = new StringBuilder(trimmed.length());
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            key.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return key.toString();
    }
}
