package dev.klave.account;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The {@code service_session} cookie (spec 1 §5 "Sessions"): HttpOnly, SameSite=Lax, Path=/,
 * 12 hours, Secure when the base URL is https.
 */
public final class SessionCookie {
    public static final String NAME = "service_session";

    private SessionCookie() {}

    public static String set(String value, Duration lifetime, boolean secure) {
        return NAME + "=" + value + "; Path=/; Max-Age=" + lifetime.toSeconds() + "; HttpOnly; SameSite=Lax"
                + (secure ? "; Secure" : "");
    }

    public static String clear(boolean secure) {
        return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    /** The cookie's value among the request's {@code Cookie} headers (RFC 6265 §5.4 form). */
    public static Optional<String> read(List<String> cookieHeaders) {
        for (String header : cookieHeaders) {
            for (String pair : header.split(";")) {
                String trimmed = pair.strip();
                if (trimmed.startsWith(NAME + "=")) {
                    String value = trimmed.substring(NAME.length() + 1);
                    return value.isEmpty() ? Optional.empty() : Optional.of(value);
                }
            }
        }
        return Optional.empty();
    }
}
