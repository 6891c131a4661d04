package dev.klave.http;

import java.util.List;

/** Turns a request's proof of identity into its {@link Caller}, or refuses (401). */
@FunctionalInterface
public interface Authenticator {
    /**
     * @param cookieHeaders every {@code Cookie} header of the request
     * @throws dev.klave.messages.Refusal {@code SESSION_MISSING} or {@code SESSION_INVALID}
     */
    Caller.Session session(List<String> cookieHeaders);
}
