package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import dev.klave.config.OidcSettings;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import dev.klave.login.ExternalSignIn;
import dev.klave.login.ExternalSignInRoutes;
import dev.klave.messages.Message;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The OIDC routes (spec 2 §4): sign-in and its callback, linking from an invitation or linking
 * link and from the account page, and the status administrators see. While OIDC is off they
 * answer 404 {@code el acceso con OIDC no está configurado} (the status says {@code configured:
 * false}).
 */
public final class OidcRoutes implements RouteProvider {
    /** Spec 2 §4: the redirect URI registered at the provider is {@code {base_url}} + this. */
    public static final String CALLBACK = ExternalSignInRoutes.callback("oidc");

    private final Optional<Configured> oidc;

    /** Everything the routes use when OIDC is on. */
    public record Configured(OidcSettings settings, ExternalSignIn signIn, OidcProvider provider) {
        public Configured {
            requireNonNull(settings, "settings is null");
            requireNonNull(signIn, "signIn is null");
            requireNonNull(provider, "provider is null");
        }
    }

    public OidcRoutes(Optional<Configured> oidc) {
        this.oidc = requireNonNull(oidc, "oidc is null");
    }

    record DiscoveryView(Optional<Instant> fetchedAt, Optional<Instant> failedAt, Optional<String> error) {}

    record StatusView(boolean configured, Optional<String> issuer, List<String> domains, Optional<String> autolink,
            Optional<Boolean> publicClient, Optional<String> displayName, Optional<DiscoveryView> discovery) {}

    @Override
    public void register(ApiRoutes routes) {
        ExternalSignInRoutes.register(routes, "oidc", oidc.map(Configured::signIn), Message.OIDC_NOT_CONFIGURED);
        routes.get("/api/oidc/status", Access.ADMIN, request -> ApiResponse.ok(status()));
    }

    private StatusView status() {
        if (oidc.isEmpty()) {
            return new StatusView(false, Optional.empty(), List.of(), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty());
        }
        OidcSettings settings = oidc.get().settings();
        // Spec 2 §4: `discovery` always carries `fetched_at` (null while not fetched yet), and the
        // last error when the last fetch failed.
        DiscoveryView discovery = oidc.get().provider().status().map(status -> new DiscoveryView(
                status.fetchedAt(), status.failedAt(), status.failing() ? status.error() : Optional.empty()))
                .orElse(new DiscoveryView(Optional.empty(), Optional.empty(), Optional.empty()));
        return new StatusView(true, Optional.of(settings.issuer().toString()), settings.allowedDomains(),
                Optional.of(settings.autolink().code()), Optional.of(settings.publicClient()),
                Optional.of(settings.displayName()), Optional.of(discovery));
    }
}
