package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.util.Map;

/**
 * {@code GET /api/agents/clients} (how many clients are registered, and the cap) and
 * {@code POST /api/agents/clients/purge} (delete those that never completed a login), for
 * administrators: the line of {@code /admin/instalacion} that empties a flood of registrations.
 */
public final class ClientRoutes implements RouteProvider {
    private final RegisteredClients clients;

    public ClientRoutes(RegisteredClients clients) {
        this.clients = requireNonNull(clients, "clients is null");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/agents/clients", Access.ADMIN, request -> ApiResponse.ok(Map.of("registered",
                        clients.count(), "max", Registration.MAX_CLIENTS)))
                .post("/api/agents/clients/purge", Access.ADMIN, request -> ApiResponse.ok(Map.of("deleted",
                        clients.purgeNeverSignedIn(Principal.of(request)))));
    }
}
