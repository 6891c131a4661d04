package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.audit.ControlEvents;
import dev.klave.config.BaseUrl;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.BodyType;
import dev.klave.http.ErrorFormat;
import dev.klave.http.RoutePolicy;
import dev.klave.http.RouteProvider;
import dev.klave.limits.PerAddressLimit;
import dev.klave.oauth.client.ClientMetadata;
import dev.klave.oauth.client.ClientMetadataDocuments;
import dev.klave.oauth.client.ClientStore;
import dev.klave.oauth.client.MetadataRefused;
import dev.klave.oauth.client.OAuthClient;
import dev.klave.oauth.client.Registration;
import dev.klave.oauth.session.AgentSessions;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.oauth.session.SessionRoutes;
import dev.klave.storage.UsedStateStore;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent login's routes (spec 3 §4 "Agent login"): the two metadata documents, dynamic
 * client registration, the token endpoint and revocation, the consent page's API and the agent
 * sessions people and administrators list and end. Registered only with {@code SERVICE_MCP_ENABLED}; the mounts they live
 * under ({@code /.well-known}, {@code /oauth}) are the agent endpoint's, so that with the switch
 * off every path there is 404.
 */
public final class OAuthRoutes implements RouteProvider {
    /**
     * Endpoints OAuth clients read by program: no origin check (they are unauthenticated and carry
     * no cookie), refusals in the OAuth shape.
     */
    public static final RoutePolicy POLICY = RoutePolicy.MACHINE.withErrors(ErrorFormat.OAUTH);
    /** Spec 3 §4: the metadata documents answer cross-origin requests (browser-based clients). */
    static final RoutePolicy PUBLIC_DOCUMENTS = POLICY.readableCrossOrigin();

    /** Spec 3 §4: the token endpoint is form-encoded (RFC 6749 §4.1.3) and answers cross-origin requests. */
    static final RoutePolicy TOKEN = POLICY.withBody(BodyType.FORM, RoutePolicy.API_BODY_LIMIT).readableCrossOrigin();
    /** RFC 7009 §2.1: form-encoded too; not readable cross-origin (spec 3 §4 names the token endpoint only). */
    static final RoutePolicy REVOKE = POLICY.withBody(BodyType.FORM, RoutePolicy.API_BODY_LIMIT);

    /** Spec 3 §4 rule 7: every error of the authorization endpoint is a plain-text 400 for the person's browser. */
    static final RoutePolicy AUTHORIZE = POLICY.withErrors(ErrorFormat.PLAIN_TEXT);

    private final Registration registration;
    private final TokenEndpoint tokens;
    private final AuthorizeEndpoint authorize;
    private final ConsentRoutes consent;
    private final SessionRoutes sessions;
    private final BaseUrl baseUrl;

    public OAuthRoutes(Registration registration, AgentTokens tokens, PerAddressLimit tokenRequests,
            Authorization authorization, AgentSessions sessions, BaseUrl baseUrl, Clock clock) {
        this.registration = requireNonNull(registration, "registration is null");
        this.authorize = new AuthorizeEndpoint(authorization.clients(), authorization.documents(),
                authorization.pending(), authorization.perAddress(), baseUrl, clock);
        this.consent = new ConsentRoutes(new Consent(authorization.pending(), tokens, authorization.authority(),
                authorization.identities(), authorization.answered(), authorization.events(), baseUrl.toString(), clock),
                clientId -> client(authorization, clientId));
        this.sessions = new SessionRoutes(sessions, authorization.clients());
        this.tokens = new TokenEndpoint(tokens, tokenRequests, baseUrl, clock);
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    @Override
    public void register(ApiRoutes routes) {
        Map<String, Object> resource = Metadata.protectedResource(baseUrl);
        Map<String, Object> server = Metadata.authorizationServer(baseUrl);
        routes.add("GET", Metadata.protectedResourcePath(baseUrl), Access.ANONYMOUS, PUBLIC_DOCUMENTS,
                request -> ApiResponse.ok(resource));
        routes.add("GET", Metadata.authorizationServerPath(baseUrl), Access.ANONYMOUS, PUBLIC_DOCUMENTS,
                request -> ApiResponse.ok(server));
        routes.add("POST", Metadata.REGISTER, Access.ANONYMOUS, POLICY,
                request -> ApiResponse.created(information(
                        registration.register(request.body(), request.clientAddress()))));
        routes.add("GET", Metadata.AUTHORIZE, Access.ANONYMOUS, AUTHORIZE, authorize::authorize);
        routes.add("POST", "/oauth/token", Access.ANONYMOUS, TOKEN, tokens::token);
        consent.register(routes);
        sessions.register(routes);
        routes.add("POST", "/oauth/revoke", Access.ANONYMOUS, REVOKE, tokens::revoke);
    }

    /** The client a consent page names: registered, or its published document (kept an hour). */
    private static ClientMetadata client(Authorization authorization, String clientId) {
        return authorization.clients().find(clientId).map(OAuthClient::metadata).orElseGet(() -> {
            try {
                return authorization.documents().fetch(clientId).metadata();
            } catch (MetadataRefused refused) {
                throw refused.refusal();
            }
        });
    }

    /** What the authorization endpoint needs: the clients, their documents, the consent page's ids, its limit. */
    /** @param answered the consent requests answered, across replicas (one answer each) */
    public record Authorization(ClientStore clients, ClientMetadataDocuments documents, PendingAuthorizations pending,
            PerAddressLimit perAddress, Authority authority, ExternalIdentityStore identities,
            UsedStateStore answered, ControlEvents events) {
        public Authorization {
            requireNonNull(events, "events is null");
            requireNonNull(answered, "answered is null");
            requireNonNull(authority, "authority is null");
            requireNonNull(identities, "identities is null");
            requireNonNull(clients, "clients is null");
            requireNonNull(documents, "documents is null");
            requireNonNull(pending, "pending is null");
            requireNonNull(perAddress, "perAddress is null");
        }
    }

    /** RFC 7591 §3.2.1: the client's id, when it was issued, and what it declared; no secret. */
    private static Map<String, Object> information(OAuthClient client) {
        Map<String, Object> answer = new LinkedHashMap<>();
        ClientMetadata metadata = client.metadata();
        answer.put("client_id", client.id());
        answer.put("client_id_issued_at", client.createdAt().getEpochSecond());
        answer.put("redirect_uris", metadata.redirectUris());
        metadata.clientName().ifPresent(name -> answer.put("client_name", name));
        metadata.clientUri().ifPresent(uri -> answer.put("client_uri", uri));
        metadata.logoUri().ifPresent(uri -> answer.put("logo_uri", uri));
        answer.put("grant_types", metadata.grantTypes());
        answer.put("response_types", metadata.responseTypes());
        answer.put("token_endpoint_auth_method", "none");
        return answer;
    }
}
