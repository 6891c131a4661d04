package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * A client identified by its published metadata document (draft-ietf-oauth-client-id-metadata-
 * document §4.1): the document's URL, which is its {@code client_id}, and what it declares. The
 * client is public (auth method {@code none}): there is no secret to keep. Names and URIs are the
 * client's own claims, shown to the person as such.
 */
public record PublishedClient(URI clientId, ClientMetadata metadata) {
    public PublishedClient {
        requireNonNull(clientId, "clientId is null");
        requireNonNull(metadata, "metadata is null");
    }

    public List<String> redirectUris() {
        return metadata.redirectUris();
    }

    public Optional<String> clientName() {
        return metadata.clientName();
    }

    public Optional<String> clientUri() {
        return metadata.clientUri();
    }

    public Optional<String> logoUri() {
        return metadata.logoUri();
    }

    public List<String> grantTypes() {
        return metadata.grantTypes();
    }

    public List<String> responseTypes() {
        return metadata.responseTypes();
    }
}
