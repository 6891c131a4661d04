package dev.klave.http;

import dev.klave.account.Principal;
import java.util.List;

/** Turns the request's cookies into the caller, or refuses (401) when they name no valid session. */
@FunctionalInterface
public interface Authenticator {
    /**
     * @param cookieHeaders every {@code Cookie} header of the request
     * @throws dev.klave.messages.Refusal {@code SESSION_MISSING} or {@code SESSION_INVALID}
     */
    Principal authenticate(List<String> cookieHeaders);
}
