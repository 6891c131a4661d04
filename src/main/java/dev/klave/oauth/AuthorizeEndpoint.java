package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.oauth.client.ClientMetadataDocuments;
import dev.klave.oauth.client.ClientStore;
import dev.klave.oauth.client.MetadataRefused;
import dev.klave.oauth.client.OAuthClient;
import dev.klave.oauth.client.RedirectUris;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code GET /oauth/authorize} (spec 3 §4 "Agent login"; OAuth 2.1 §4.1.1, RFC 7636, RFC 8707):
 * checks the client (registered, or its metadata document), the {@code redirect_uri} (rules 1–7),
 * {@code response_type=code}, PKCE S256 and {@code resource}, then sends the browser to the
 * consent page. Every error is a plain-text 400 and never a redirect (rule 7): until the client
 * and its redirect URI are proven, nothing may be sent there. 30 requests a minute per address.
 */
final class AuthorizeEndpoint {
    /** RFC 7636 §4.2: BASE64URL of a SHA-256, 43 characters. */
    private static final Pattern CHALLENGE = Pattern.compile("[A-Za-z0-9_-]{43}");
    static final String CONSENT_PAGE = "/agents/authorize/";

    private final ClientStore clients;
    private final ClientMetadataDocuments documents;
    private final PendingAuthorizations pending;
    private final PerAddressLimit perAddress;
    private final BaseUrl baseUrl;
    private final String resource;
    private final Clock clock;

    AuthorizeEndpoint(ClientStore clients, ClientMetadataDocuments documents, PendingAuthorizations pending,
            PerAddressLimit perAddress, BaseUrl baseUrl, Clock clock) {
        this.clients = requireNonNull(clients, "clients is null");
        this.documents = requireNonNull(documents, "documents is null");
        this.pending = requireNonNull(pending, "pending is null");
        this.perAddress = requireNonNull(perAddress, "perAddress is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
        this.resource = baseUrl.resolve("/mcp");
        this.clock = requireNonNull(clock, "clock is null");
    }

    ApiResponse authorize(ApiRequest request) {
        try {
            return check(request);
        } catch (MetadataRefused refused) {
            throw refused.refusal();
        }
    }

    private ApiResponse check(ApiRequest request) throws MetadataRefused {
        perAddress.count(request.clientAddress());
        String clientId = single(request, "client_id").orElseThrow(() -> invalid(Text.AUTHORIZE_PARAMETER_MISSING.text("client_id")));
        List<String> declared = redirectUrisOf(clientId);
        String redirectUri = single(request, "redirect_uri").orElseThrow(() -> invalid(Text.AUTHORIZE_PARAMETER_MISSING.text("redirect_uri")));
        if (RedirectUris.mustStopAuthorizing(declared)) {
            throw Message.AUTHORIZE_WRAPPER_CLIENT.refusal();
        }
        if (!RedirectUris.isAcceptable(redirectUri) || !RedirectUris.matches(redirectUri, declared)) {
            throw Message.AUTHORIZE_REDIRECT_NOT_REGISTERED.refusal();
        }
        if (!"code".equals(single(request, "response_type").orElse(""))) {
            throw invalid(Text.AUTHORIZE_RESPONSE_TYPE.text());
        }
        String challenge = single(request, "code_challenge").orElseThrow(Message.AUTHORIZE_PKCE::refusal);
        // OAuth 2.1 §4.1.1: S256 only; a missing method means plain, which is refused (no downgrade).
        if (!"S256".equals(single(request, "code_challenge_method").orElse("")) || !CHALLENGE.matcher(challenge)
                .matches()) {
            throw Message.AUTHORIZE_PKCE.refusal();
        }
        if (!resource.equals(single(request, "resource").orElse(""))) {
            throw invalid(Text.AUTHORIZE_RESOURCE.text(resource));
        }
        String id = pending.issue(clientId, redirectUri, challenge, single(request, "state"));
        return ApiResponse.redirect(baseUrl.resolve(CONSENT_PAGE + URLEncoder.encode(id, StandardCharsets.UTF_8)));
    }

    /** A registered client's redirect URIs, or those of the metadata document its https id names. */
    private List<String> redirectUrisOf(String clientId) throws MetadataRefused {
        Optional<OAuthClient> registered = clients.find(clientId);
        if (registered.isPresent()) {
            clients.touch(clientId, clock.instant());
            return registered.get().metadata().redirectUris();
        }
        if (clientId.startsWith("https://")) {
            return documents.fetch(clientId).redirectUris();
        }
        throw Message.AUTHORIZE_UNKNOWN_CLIENT.refusal();
    }

    private static Optional<String> single(ApiRequest request, String name) {
        Optional<String> value = request.queryParameter(name);
        if (value.isPresent() && request.queryParameters(name).size() > 1) {
            throw invalid(Text.AUTHORIZE_PARAMETER_REPEATED.text(name));
        }
        return value.filter(text -> !text.isEmpty());
    }

    private static RuntimeException invalid(String why) {
        return Message.AUTHORIZE_INVALID.refusal(why);
    }
}
