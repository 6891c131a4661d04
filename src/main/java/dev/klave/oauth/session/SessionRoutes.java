package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Json;
import dev.klave.http.RouteProvider;
import dev.klave.oauth.client.ClientMetadata;
import dev.klave.oauth.client.ClientStore;
import dev.klave.oauth.client.OAuthClient;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentSessions;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Agent sessions in the web interface (issue 31 item 6): {@code GET /api/me/agent-sessions} and
 * {@code POST /api/me/agent-sessions/{id}/end} for the person's own ("Agentes" in
 * {@code /mi-cuenta}); {@code GET /api/agent-sessions} and {@code POST /api/agent-sessions/{id}/end}
 * for administrators, over everyone's. Each session shows its client by the name it declared
 * (registered), or by its metadata document's host (a URL client id): never fetched from here.
 */
public final class SessionRoutes implements RouteProvider {
    private final AgentSessions sessions;
    private final ClientStore clients;

    public SessionRoutes(AgentSessions sessions, ClientStore clients) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.clients = requireNonNull(clients, "clients is null");
    }

    record ClientView(String id, Optional<String> name, Optional<String> uri) {}

    record PersonView(String id, String login) {}

    record PermissionView(String cluster, String role, String scope) {}

    /** {@code state}: {@code open}, {@code ended} (with when and why) or {@code expired}. */
    record SessionView(String id, ClientView client, PersonView person, List<PermissionView> permissions,
            boolean writesNeedApproval, Instant createdAt, Instant expiresAt, Optional<Instant> lastUsedAt,
            String state, Optional<Instant> endedAt, Optional<String> endReason) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/me/agent-sessions", Access.SESSION,
                        request -> ApiResponse.ok(views(sessions.own(Principal.of(request)))))
                .post("/api/me/agent-sessions/{id}/end", Access.SESSION, request -> ApiResponse.ok(new Names().view(
                        sessions.endOwn(idOf(request), Principal.of(request)))))
                .get("/api/agent-sessions", Access.ADMIN, request -> ApiResponse.ok(views(sessions.all())))
                .post("/api/agent-sessions/{id}/end", Access.ADMIN, request -> ApiResponse.ok(new Names().view(
                        sessions.endAny(idOf(request), Principal.of(request)))));
    }

    /** The session's id; the body, when there is one, carries nothing (an empty object). */
    private static String idOf(ApiRequest request) {
        if (request.body().length > 0) {
            Json.refuseUnknownFields(Json.readObject(request.body()), Set.of());
        }
        return request.pathParameter("id");
    }

    private List<SessionView> views(List<AgentSession> listed) {
        Names names = new Names();
        return listed.stream().map(names::view).toList();
    }

    /** One answer's views: each client and person looked up once however many sessions name them. */
    private final class Names {
        private final Map<String, ClientView> clientsSeen = new HashMap<>();
        private final Map<SubjectId, String> logins = new HashMap<>();

        SessionView view(AgentSession session) {
            Instant now = sessions.now();
            String state = session.endedAt().isPresent() ? "ended" : session.openAt(now) ? "open" : "expired";
            List<PermissionView> permissions = session.permissions().stream().map(permission -> new PermissionView(
                    permission.cluster().value(), permission.role().code(), permission.scope().value())).toList();
            String login = logins.computeIfAbsent(session.person(), person -> sessions.loginOf(person).orElse(""));
            return new SessionView(session.id(), clientsSeen.computeIfAbsent(session.clientId(),
                    SessionRoutes.this::client), new PersonView(session.person().value(), login), permissions,
                    session.writesNeedApproval(), session.createdAt(), session.expiresAt(), session.lastUsedAt(),
                    state, session.endedAt(), session.endReason());
        }
    }

    /** The name a client declared; a published client not kept here is named by its document's host. */
    private ClientView client(String id) {
        Optional<ClientMetadata> metadata = clients.find(id).map(OAuthClient::metadata);
        Optional<String> name = metadata.flatMap(ClientMetadata::clientName).or(() -> hostOf(id));
        return new ClientView(id, name, metadata.flatMap(ClientMetadata::clientUri));
    }

    private static Optional<String> hostOf(String clientId) {
        if (!clientId.startsWith("https://")) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(URI.create(clientId).getHost());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
