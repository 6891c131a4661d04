package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What a public client declared about itself (RFC 7591 §2), as Klave keeps it: the redirect URIs,
 * each already accepted by {@link RedirectUris}, the grant and response types, and what the consent
 * page shows. The token endpoint's authentication method is always {@code none}.
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
        for (String uri : redirectUris) {
            if (!RedirectUris.isAcceptable(uri)) {
                throw new IllegalArgumentException("redirect URI refused by the rules of spec 3 §4");
            }
        }
    }
}
