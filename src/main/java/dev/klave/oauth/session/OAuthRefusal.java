package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

/**
 * A refused token or revocation request (RFC 6749 §5.2): the error code OAuth clients read, and a
 * description for the person reading the client's log.
 */
public final class OAuthRefusal extends Exception {
    /** RFC 6749 §5.2 error codes this server uses. */
    public enum Error {
        INVALID_REQUEST("invalid_request"),
        INVALID_CLIENT("invalid_client"),
        INVALID_GRANT("invalid_grant"),
        UNSUPPORTED_GRANT_TYPE("unsupported_grant_type"),
        INVALID_TARGET("invalid_target");

        private final String code;

        Error(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final Error error;

    public OAuthRefusal(Error error, String description) {
        super(requireNonNull(description, "description is null"), null, false, false);
        this.error = requireNonNull(error, "error is null");
    }

    public Error error() {
        return error;
    }
}
