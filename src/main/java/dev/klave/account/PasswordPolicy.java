package dev.klave.account;

import dev.klave.messages.Message;

/** What a new password must be: at least 12 characters, and not the login. */
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
        if (password.strip().equalsIgnoreCase(login.value())) {
            throw Message.PASSWORD_IS_LOGIN.refusal();
        }
    }
}
