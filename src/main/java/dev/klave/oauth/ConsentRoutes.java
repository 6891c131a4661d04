package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.account.Principal;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Json;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import dev.klave.oauth.client.ClientMetadata;
import dev.klave.oauth.client.RedirectUris;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.access.Permission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The consent page's API (spec 3 §4 "Agent login" 3), for the person signed in:
 * {@code GET /api/agents/authorize/{id}} shows the client, where the answer goes (and whether that
 * is a loopback address, rule 6), and the permissions the person may give;
 * {@code POST /api/agents/authorize/{id}} approves with the chosen ones or denies, and answers the
 * redirect the browser follows.
 */
final class ConsentRoutes implements RouteProvider {
    private static final Set<String> FIELDS = Set.of("approve", "permissions", "writes_need_approval");

    private final Consent consent;
    private final ClientLookup clients;

    /** The client a pending request names, registered or published. */
    @FunctionalInterface
    interface ClientLookup {
        ClientMetadata find(String clientId);
    }

    ConsentRoutes(Consent consent, ClientLookup clients) {
        this.consent = requireNonNull(consent, "consent is null");
        this.clients = requireNonNull(clients, "clients is null");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/agents/authorize/{id}", Access.SESSION, this::view)
                .post("/api/agents/authorize/{id}", Access.SESSION, this::decide);
    }

    private ApiResponse view(ApiRequest request) {
        PendingAuthorization pending = consent.open(request.pathParameter("id"));
        ClientMetadata client = clients.find(pending.clientId());
        Map<String, Object> view = new LinkedHashMap<>();
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("id", pending.clientId());
        about.put("name", client.clientName().orElse(null));
        about.put("uri", client.clientUri().orElse(null));
        view.put("client", about);
        view.put("redirect_uri", pending.redirectUri());
        // Rule 6: warn unless the answer stays on this machine.
        view.put("redirect_is_loopback", RedirectUris.isLoopback(pending.redirectUri()));
        view.put("expires_at", pending.expiresAt().toString());
        // How long the agent keeps what it is given, said on the page (issue 40 item 5).
        view.put("access_until", consent.accessUntil().toString());
        view.put("access_days", AgentTokens.SESSION_LIFETIME.toDays());
        List<Map<String, String>> choosable = new ArrayList<>();
        for (Permission permission : consent.choosable(Principal.of(request).subjectId())) {
            choosable.add(Map.of("cluster", permission.cluster().value(), "role", permission.role().code(),
                    "scope", permission.scope().value()));
        }
        view.put("permissions", choosable);
        return ApiResponse.ok(view);
    }

    private ApiResponse decide(ApiRequest request) {
        ObjectNode body = Json.readObject(request.body());
        Json.refuseUnknownFields(body, FIELDS);
        String id = request.pathParameter("id");
        if (!body.path("approve").isBoolean()) {
            throw Message.INVALID_JSON.refusal();
        }
        Principal caller = Principal.of(request);
        Optional<String> clientName = clientName(consent.open(id).clientId());
        if (!body.path("approve").asBoolean()) {
            return ApiResponse.ok(Map.of("redirect", consent.deny(id, caller, clientName)));
        }
        List<Permission> chosen = new ArrayList<>();
        for (JsonNode entry : body.path("permissions")) {
            chosen.add(Consent.permission(entry.path("cluster").asText(), entry.path("role").asText(),
                    entry.path("scope").asText()));
        }
        boolean writesNeedApproval = !body.has("writes_need_approval") || body.path("writes_need_approval").asBoolean();
        return ApiResponse.ok(Map.of("redirect", consent.approve(id, caller, chosen, writesNeedApproval, clientName)));
    }

    /** The name the client declared, for the event; a document that cannot be read now names none. */
    private Optional<String> clientName(String clientId) {
        try {
            return clients.find(clientId).clientName();
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
