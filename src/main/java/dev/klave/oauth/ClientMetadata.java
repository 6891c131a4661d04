package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * What Klave keeps of a client's metadata document (RFC 7591 §2 fields,
 * draft-ietf-oauth-client-id-metadata-document §4.1): the client is public (auth method
 * {@code none}), so there is no secret to keep. Names and URIs are the client's own claims, shown
 * to the person as such; the redirect URIs are matched by the authorization endpoint.
 *
 * @param clientId the document's URL, equal to its {@code client_id}
 * @param redirectUris at least one, as written
 * @param grantTypes as declared, or RFC 7591's default {@code authorization_code}
 * @param responseTypes as declared, or RFC 7591's default {@code code}
 */
public record ClientMetadata(URI clientId, List<String> redirectUris, Optional<String> clientName,
        Optional<String> clientUri, Optional<String> logoUri, List<String> grantTypes, List<String> responseTypes) {
    public ClientMetadata {
        requireNonNull(clientId, "clientId is null");
        redirectUris = List.copyOf(requireNonNull(redirectUris, "redirectUris is null"));
        if (redirectUris.isEmpty()) {
            throw new IllegalArgumentException("a client declares at least one redirect URI");
        }
        requireNonNull(clientName, "clientName is null");
        requireNonNull(clientUri, "clientUri is null");
        requireNonNull(logoUri, "logoUri is null");
        grantTypes = List.copyOf(requireNonNull(grantTypes, "grantTypes is null"));
        responseTypes = List.copyOf(requireNonNull(responseTypes, "responseTypes is null"));
    }
}
