package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialStore;
import dev.klave.crypto.TokenHash;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import java.util.List;
import java.util.Optional;

/**
 * Which bearer tokens a way in accepts. The proxy's finds credentials issued for the proxy and
 * nothing else: a token of another kind stored elsewhere (an agent's access token, spec 3 §4
 * "Agent login", valid only on {@code /mcp}) is unknown to it by construction, whatever its prefix.
 */
public interface Bearers {
    /** The credential {@code token} names, in what this way in accepts; empty when it names none. */
    Optional<Credential> find(TokenHash token);

    /** A credential this way in accepts, by its id (an open call's, checked again by the stream guard). */
    Optional<Credential> findById(String credentialId);

    /**
     * The grants a credential acts with on a cluster, among its owner's {@code active} ones there:
     * all of them for a credential; for a delegated agent's session, those carrying a permission
     * its person chose (spec 3 §4 "Agent login" 5: the intersection, at each call).
     */
    default List<Grant> reach(Credential credential, List<Grant> active) {
        return active;
    }

    /** Credentials for the proxy (spec 1 §2 "Credential"): the credentials table. */
    static Bearers proxyCredentials(CredentialStore credentials) {
        requireNonNull(credentials, "credentials is null");
        return new Bearers() {
            @Override
            public Optional<Credential> find(TokenHash token) {
                return credentials.findByTokenHash(token.hex());
            }

            @Override
            public Optional<Credential> findById(String credentialId) {
                return credentials.findById(credentialId);
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
