package dev.klave.installation;

import static java.util.Objects.requireNonNull;

import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.util.List;

/** {@code GET /api/notices} and {@code GET /api/installation/health}, for administrators. */
public final class InstallationRoutes implements RouteProvider {
    private final Installation installation;

    public InstallationRoutes(Installation installation) {
        this.installation = requireNonNull(installation, "installation is null");
    }

    record HealthView(boolean healthy, List<HealthCheck> checks) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/notices", Access.ADMIN, request -> ApiResponse.ok(installation.notices()))
                .get("/api/installation/health", Access.ADMIN, request -> {
                    List<HealthCheck> checks = installation.checks();
                    return ApiResponse.ok(new HealthView(
                            checks.stream().noneMatch(check -> check.state().equals(HealthCheck.FAILING)), checks));
                });
    }
}
