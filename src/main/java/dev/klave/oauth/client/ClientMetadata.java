package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What a public client declared about itself (RFC 7591 §2), as Klave keeps it: the redirect URIs,
 * the grant and response types, and what the consent page shows. The token endpoint's
 * authentication method is always {@code none}.
 *
 * <p>What a client declares now is read through {@link #declared}, which accepts only redirect URIs
 * {@link RedirectUris} accepts. A client stored earlier is read back as it was stored, even when a
 * rule added since refuses one of its URIs (issue 51 refused more schemes): such a URI matches
 * nothing ({@link RedirectUris#matches}), and the client's other URIs, its listing and its deletion
 * keep working.
 */
public record ClientMetadata(List<String> redirectUris, Optional<String> clientName, Optional<String> clientUri,
        Optional<String> logoUri, List<String> grantTypes, List<String> responseTypes) {
    public ClientMetadata {
        redirectUris = List.copyOf(requireNonNull(redirectUris, "redirectUris is null"));
        requireNonNull(clientName, "clientName is null");
        requireNonNull(clientUri, "clientUri is null");
        requireNonNull(logoUri, "logoUri is null");
        grantTypes = List.copyOf(requireNonNull(grantTypes, "grantTypes is null"));
        responseTypes = List.copyOf(requireNonNull(responseTypes, "responseTypes is null"));
        if (redirectUris.isEmpty()) {
            throw new IllegalArgumentException("a client declares at least one redirect URI");
        }
    }

    /**
     * What a client declares now, by registration or in its metadata document.
     *
     * @throws IllegalArgumentException when a redirect URI is refused by the rules of spec 3 §4
     */
    public static ClientMetadata declared(List<String> redirectUris, Optional<String> clientName,
            Optional<String> clientUri, Optional<String> logoUri, List<String> grantTypes, List<String> responseTypes) {
        for (String uri : redirectUris) {
            if (!RedirectUris.isAcceptable(uri)) {
                throw new IllegalArgumentException("redirect URI refused by the rules of spec 3 §4");
            }
        }
        return new ClientMetadata(redirectUris, clientName, clientUri, logoUri, grantTypes, responseTypes);
    }
}
