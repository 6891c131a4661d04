package dev.klave.account;

import dev.klave.messages.Message;
import java.util.Optional;
import java.util.regex.Pattern;

/** Checks of the free-text fields of an account. */
final class Fields {
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final int MAX_DISPLAY_NAME = 200;
    private static final int MAX_EMAIL = 254;

    private Fields() {}

    static String displayName(String value) {
        String trimmed = value.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_DISPLAY_NAME || trimmed.chars().anyMatch(Character::isISOControl)) {
            throw Message.DISPLAY_NAME_INVALID.refusal();
        }
        return trimmed;
    }

    /**
     * An address, or empty for "no address". Only ASCII spaces are trimmed (spec 2 §5 rule 7); an
     * address with a control character or other whitespace is refused, since it could never be
     * found by e-mail ({@link EmailKey}).
     */
    static Optional<String> email(String value) {
        String trimmed = EmailKey.trimSpaces(value);
        if (trimmed.isEmpty()) {
            return Optional.empty();
        }
        if (trimmed.length() > MAX_EMAIL || !EmailKey.usable(trimmed) || !EMAIL.matcher(trimmed).matches()) {
            throw Message.EMAIL_INVALID.refusal();
        }
        return Optional.of(trimmed);
    }
}
