package dev.klave.http;

import dev.klave.messages.Message;
import java.util.List;
import java.util.Optional;

/** Turns a request's proof of identity into its {@link Caller}, or refuses (401). */
@FunctionalInterface
public interface Authenticator {
    /**
     * @param cookieHeaders every {@code Cookie} header of the request
     * @throws dev.klave.messages.Refusal {@code SESSION_MISSING} or {@code SESSION_INVALID}
     */
    Caller.Session session(List<String> cookieHeaders);

    /**
     * The caller of an {@link Access#BEARER} route. Without an issuer of bearer tokens wired in,
     * every token is refused: failing closed is the default.
     *
     * @param authorization the {@code Authorization} header, if any
     * @throws dev.klave.messages.Refusal a 401 when the header names no valid token
     */
    default Caller.Bearer bearer(Optional<String> authorization) {
        throw Message.TOKEN_MISSING.refusal();
    }
}
