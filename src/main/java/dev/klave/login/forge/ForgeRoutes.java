package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.klave.config.ForgeSettings;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.BodyType;
import dev.klave.http.RoutePolicy;
import dev.klave.http.RouteProvider;
import dev.klave.login.ExternalSignIn;
import dev.klave.login.ExternalSignInRoutes;
import dev.klave.messages.Message;
import java.time.Instant;
import java.util.Optional;

/**
 * The forge routes of spec 1 §4: sign-in and linking ("Login methods and forge login"), the
 * status panel, and the webhook. Without the forge configured, the four {@code auth/forge} and
 * {@code me/forge} routes answer 404 {@code el acceso con Forge no está configurado}; without a
 * webhook secret, the webhook is 404 like any unknown route.
 */
public final class ForgeRoutes implements RouteProvider {
    /** Spec 1 §5 "Forge App configuration": the App's callback URL is {@code {base_url}} + this. */
    public static final String CALLBACK = ExternalSignInRoutes.callback("forge");

    private final Optional<Configured> forge;

    /** Everything the routes use when the forge is on. */
    public record Configured(ForgeSettings settings, ExternalSignIn signIn, Optional<ForgeWebhook> webhook,
            SyncReportStore reports) {
        public Configured {
            requireNonNull(settings, "settings is null");
            requireNonNull(signIn, "signIn is null");
            requireNonNull(webhook, "webhook is null");
            requireNonNull(reports, "reports is null");
        }
    }

    public ForgeRoutes(Optional<Configured> forge) {
        this.forge = requireNonNull(forge, "forge is null");
    }

    record SyncView(Instant at, Instant finishedAt, String replica, int membersSeen, int disabled, int renamed,
            Optional<Boolean> twoFactorRequired, Optional<String> error) {}

    record StatusView(boolean configured, Optional<String> org, boolean webhook,
            @JsonProperty("require_org_2fa") Optional<Boolean> requireOrgTwoFactor, Optional<SyncView> lastSync) {}

    @Override
    public void register(ApiRoutes routes) {
        ExternalSignInRoutes.register(routes, "forge", forge.map(Configured::signIn), Message.FORGE_NOT_CONFIGURED);
        routes.get("/api/forge/status", Access.ADMIN, request -> ApiResponse.ok(status()));
        forge.flatMap(Configured::webhook).ifPresent(webhook -> routes.add("POST", "/v1/forge/webhook",
                Access.ANONYMOUS,
                // Spec 1 §8: up to 1 MiB, read as raw bytes so the signature covers exactly what came.
                RoutePolicy.MACHINE.withBody(BodyType.RAW, RoutePolicy.LARGE_BODY_LIMIT),
                request -> ApiResponse.ok(webhook.receive(request))));
    }

    private StatusView status() {
        if (forge.isEmpty()) {
            return new StatusView(false, Optional.empty(), false, Optional.empty(), Optional.empty());
        }
        Configured on = forge.get();
        Optional<SyncView> last = on.reports().last().map(report -> new SyncView(report.startedAt(),
                report.finishedAt(), report.replica(), report.membersSeen(), report.disabled(), report.renamed(),
                report.twoFactorRequired(), report.error()));
        return new StatusView(true, Optional.of(on.settings().org()), on.webhook().isPresent(),
                Optional.of(on.settings().requireOrgTwoFactor()), last);
    }
}
