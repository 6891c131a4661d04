package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.credential.CredentialStore;
import dev.klave.crypto.TokenHash;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import java.util.Optional;

/**
 * Which bearers a way in accepts, by the token presented and by id. The proxy's finds credentials
 * issued for the proxy and nothing else: a token of another kind stored elsewhere (an agent's
 * access token, spec 3 §4 "Agent login", valid only on {@code /mcp}) is unknown to it by
 * construction, whatever its prefix.
 */
public interface Bearers {
    /** The bearer {@code token} names, in what this way in accepts; empty when it names none. */
    Optional<Bearer> find(TokenHash token);

    /** A bearer this way in accepts, by its id (an open call's, checked again by the stream guard). */
    Optional<Bearer> findById(String id);

    /** Credentials for the proxy (spec 1 §2 "Credential"): the credentials table. */
    static Bearers proxyCredentials(CredentialStore credentials) {
        requireNonNull(credentials, "credentials is null");
        return new Bearers() {
            @Override
            public Optional<Bearer> find(TokenHash token) {
                return credentials.findByTokenHash(token.hex()).map(Bearer.OfCredential::new);
            }

            @Override
            public Optional<Bearer> findById(String id) {
                return credentials.findById(id).map(Bearer.OfCredential::new);
            }
        };
    }

    /**
     * The token of an {@code Authorization: Bearer klt_…} header.
     *
     * @throws dev.klave.messages.Refusal 401 {@code TOKEN_MISSING} for no header or one of another shape
     */
    static TokenHash token(Optional<String> authorization) {
        return TokenHash.ofBearer(authorization, TokenKind.CREDENTIAL).orElseThrow(Message.TOKEN_MISSING::refusal);
    }
}
