package dev.klave.login.oidc;

/**
 * The provider could not be reached or answered nonsense: discovery, keys, token endpoint or
 * userinfo unreachable, an invalid discovery document, or one naming another issuer (spec 2 §7
 * {@code provider_unavailable}). The message is for the log; it never holds a token.
 */
public final class ProviderUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProviderUnavailableException(String message) {
        super(message);
    }

    public ProviderUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
