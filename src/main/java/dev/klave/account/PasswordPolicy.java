package dev.klave.account;

import dev.klave.messages.Message;

/**
 * What a new password must be, wherever one is set (an invitation or reset link, one's own
 * change): at least 12 characters, and neither the login nor the login written again and again
 * ({@code anaanaanaana} for {@code ana}), in any case — the first thing anyone would guess.
 */
public final class PasswordPolicy {
    public static final int MINIMUM_LENGTH = 12;
    /** Argon2 takes any length; this bound only keeps one request from costing too much. */
    public static final int MAXIMUM_LENGTH = 1024;

    private PasswordPolicy() {}

    /** @throws dev.klave.messages.Refusal 400 with the reason */
    public static void check(String password, Login login) {
        if (password == null || password.codePointCount(0, password.length()) < MINIMUM_LENGTH) {
            throw Message.PASSWORD_TOO_SHORT.refusal();
        }
        if (password.length() > MAXIMUM_LENGTH) {
            throw Message.PASSWORD_TOO_LONG.refusal();
        }
        String stripped = password.strip();
        if (stripped.equalsIgnoreCase(login.value())) {
            throw Message.PASSWORD_IS_LOGIN.refusal();
        }
        if (isRepeated(stripped, login.value())) {
            throw Message.PASSWORD_IS_LOGIN_REPEATED.refusal();
        }
    }

    /** Whether {@code text} is {@code unit} written two or more times, ignoring case. */
    private static boolean isRepeated(String text, String unit) {
        if (text.length() % unit.length() != 0) {
            return false;
        }
        for (int at = 0; at < text.length(); at += unit.length()) {
            if (!text.regionMatches(true, at, unit, 0, unit.length())) {
                return false;
            }
        }
        return true;
    }
}
