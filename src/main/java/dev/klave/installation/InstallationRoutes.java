package dev.klave.installation;

import static java.util.Objects.requireNonNull;

import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.util.List;
import java.util.Optional;

/** {@code GET /api/notices} and {@code GET /api/installation/health}, for administrators. */
public final class InstallationRoutes implements RouteProvider {
    private final Installation installation;

    public InstallationRoutes(Installation installation) {
        this.installation = requireNonNull(installation, "installation is null");
    }

    record NoticeView(String code, String level, String message) {}

    record CheckView(String name, String state, Optional<String> detail) {}

    record HealthView(boolean healthy, List<CheckView> checks) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/notices", Access.ADMIN, request -> ApiResponse.ok(installation.notices().stream()
                        .map(notice -> new NoticeView(notice.code().code(), notice.level().code(), notice.message()))
                        .toList()))
                .get("/api/installation/health", Access.ADMIN, request -> {
                    List<HealthCheck> checks = installation.checks();
                    return ApiResponse.ok(new HealthView(
                            checks.stream().noneMatch(check -> check.state() == CheckState.FAILING),
                            checks.stream().map(check -> new CheckView(check.name().code(), check.state().code(),
                                    check.detail())).toList()));
                });
    }
}
