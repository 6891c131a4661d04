package dev.klave.login;

import static java.util.Objects.requireNonNull;

/**
 * Why a password sign-in failed, as its {@code login.failure} event says (spec 1 §5 "Password
 * login"). The person always reads the same generic 401; only administrators see the reason.
 * The specification names {@code password_disabled}; the others are Klave's own.
 */
public enum PasswordFailure {
    PASSWORD_DISABLED("password_disabled"),
    UNKNOWN_LOGIN("unknown_login"),
    NO_PASSWORD("no_password"),
    WRONG_PASSWORD("wrong_password"),
    WRONG_PASSWORD_LOCKED("wrong_password_locked"),
    LOCKED("locked"),
    DISABLED("disabled"),
    RATE_LIMITED("rate_limited");

    private final String code;

    PasswordFailure(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The event's {@code reason}. */
    public String code() {
        return code;
    }

    /** The failure whose text is {@code code}; anything else is refused. */
    public static PasswordFailure parse(String code) {
        for (PasswordFailure failure : values()) {
            if (failure.code.equals(code)) {
                return failure;
            }
        }
        throw new IllegalArgumentException("unknown password sign-in failure: " + code);
    }
}
