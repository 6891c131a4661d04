package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.regex.Pattern;

/**
 * A subject's login. It becomes part of the impersonated Kubernetes user name ({@code user:<login>}
 * or {@code bot:<login>}), so the character set is kept to one that every Kubernetes object name
 * accepts (a DNS-1123 subdomain label set: lower-case letters, digits, {@code -} and {@code .}).
 */
public record Login(String value) {
    public static final int MAX_LENGTH = 63;
    private static final Pattern FORMAT = Pattern.compile("[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?");

    public Login {
        requireNonNull(value, "value is null");
        if (!isValid(value)) {
            throw Message.LOGIN_INVALID.refusal();
        }
    }

    public static boolean isValid(String text) {
        return text != null && text.length() <= MAX_LENGTH && FORMAT.matcher(text).matches();
    }

    @Override
    public String toString() {
        return value;
    }
}
