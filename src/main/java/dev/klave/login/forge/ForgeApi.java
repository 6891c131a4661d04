package dev.klave.login.forge;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * What Klave asks of the forge (GitHub's REST API). One implementation talks HTTP
 * ({@link ForgeClient}); the seam lets the sign-in and sync rules be read apart from the wire.
 */
public interface ForgeApi {
    /** Where to send the browser to authorise the App as the person (user authorization). */
    URI authorizationUrl(String state, URI redirectUri);

    /**
     * Exchanges an authorization code for the person's token. The forge answers a bad or spent
     * code with 200 and an {@code error} field: that is {@link CodeRejectedException}.
     */
    String exchangeCode(String code, URI redirectUri) throws ForgeUnavailableException, CodeRejectedException;

    /** The person the token belongs to ({@code GET /user}). */
    ForgeUser user(String personToken) throws ForgeUnavailableException;

    /** The person's membership of the organisation; empty when not a member (404). */
    Optional<Membership> membership(String login) throws ForgeUnavailableException;

    /**
     * Whether the organisation requires two-factor; empty when the App may not read it (no
     * Administration permission: the field is absent).
     */
    Optional<Boolean> twoFactorRequired() throws ForgeUnavailableException;

    /** Every member of the organisation, all pages; any failing page fails the whole list. */
    List<ForgeUser> members() throws ForgeUnavailableException;

    /**
     * The App's installation was deleted or suspended (webhook): whatever installation token is
     * kept is not used again.
     */
    void installationChanged();

    /** {@code state} of {@code GET /orgs/{org}/memberships/{login}}. */
    enum Membership {
        ACTIVE,
        PENDING
    }

    /** The forge refused the code (200 with an {@code error} field); {@code error} is its code. */
    final class CodeRejectedException extends Exception {
        private static final long serialVersionUID = 1L;

        public CodeRejectedException(String error) {
            super(error);
        }
    }
}
