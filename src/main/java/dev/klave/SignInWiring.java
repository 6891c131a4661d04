package dev.klave;

import dev.klave.config.BaseUrl;
import dev.klave.config.ForgeSettings;
import dev.klave.config.OidcSettings;
import dev.klave.config.Settings;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.KeyPurpose;
import dev.klave.http.RouteProvider;
import dev.klave.login.ExternalSignIn;
import dev.klave.login.LoginRoutes;
import dev.klave.login.PasswordLogin;
import dev.klave.login.SignInMeters;
import dev.klave.login.SignInMethods;
import dev.klave.login.SignInParts;
import dev.klave.login.StateCookie;
import dev.klave.login.forge.ForgeClient;
import dev.klave.login.forge.ForgeRoutes;
import dev.klave.login.forge.ForgeSignIn;
import dev.klave.login.forge.ForgeSync;
import dev.klave.login.forge.ForgeWebhook;
import dev.klave.login.forge.SyncReportStore;
import dev.klave.login.oidc.EmailLinking;
import dev.klave.login.oidc.OidcProvider;
import dev.klave.login.oidc.OidcRoutes;
import dev.klave.login.oidc.OidcSignIn;
import dev.klave.store.Database;
import dev.klave.store.JdbiDiscoveryStatusStore;
import dev.klave.store.JdbiLeaseStore;
import dev.klave.store.JdbiSyncReportStore;
import dev.klave.store.JdbiUsedStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * Signing in: by password, through the forge's App (with its webhook and hourly member sync) and
 * through an OIDC provider, each only when configured. Both external ways share one
 * {@link SignInParts}. Starts nothing: {@link Services#start()} starts the sync and the provider's
 * discovery.
 */
final class SignInWiring {
    final PasswordLogin password;
    final Optional<ForgeRoutes.Configured> forge;
    /** The hourly forge member sync, when the forge is configured. */
    final Optional<ForgeSync> forgeSync;
    final Optional<SyncReportStore> syncReports;
    final Optional<OidcRoutes.Configured> oidc;

    /**
     * @param outboundTls what calls to the forge and the OIDC provider trust
     * @param replica this replica's name in the sync's lease
     */
    SignInWiring(Database database, Settings settings, AccountsWiring base, PeopleWiring people, SSLContext outboundTls,
            String replica, MeterRegistry registry) {
        BaseUrl baseUrl = settings.baseUrl();
        SignInMeters meters = new SignInMeters(registry);
        password = new PasswordLogin(database, base.subjects, base.sessions, base.hasher, base.throttle, base.events,
                base.mode, meters);
        SignInParts parts = new SignInParts(database, base.subjects, base.identities, base.linkTokens, base.sessions,
                base.events, base.throttle, new JdbiUsedStateStore(database), base.tokens, meters, base.clock);
        Hmac stateKey = new Hmac(base.keys.derive(KeyPurpose.SIGN_IN_STATE));
        Optional<ForgeSettings> forgeSettings = settings.forge();
        Optional<ForgeClient> client = forgeSettings.map(forgeOn -> new ForgeClient(forgeOn, outboundTls, base.clock));
        syncReports = forgeSettings.map(forgeOn -> new JdbiSyncReportStore(database));
        forge = forgeSettings.map(forgeOn -> {
            // The browser sees the callback under the base URL's path (a front end may strip it).
            StateCookie cookie = new StateCookie("service_forge_state", baseUrl.path() + ForgeRoutes.CALLBACK,
                    stateKey, baseUrl.isHttps(), base.clock);
            ExternalSignIn signIn = new ExternalSignIn(new ForgeSignIn(client.get(),
                    URI.create(baseUrl.resolve(ForgeRoutes.CALLBACK)), forgeOn.requireOrgTwoFactor(), base.clock),
                    cookie, parts, baseUrl, ExternalSignIn.CallbackHost.ANY);
            return new ForgeRoutes.Configured(forgeOn, signIn, forgeOn.webhookSecret().map(secret ->
                    new ForgeWebhook(secret, forgeOn.org(), base.identities, people.lifecycle, client.get())),
                    syncReports.get());
        });
        forgeSync = client.map(forgeClient -> new ForgeSync(forgeClient, base.identities, people.lifecycle,
                new JdbiLeaseStore(database), syncReports.get(), replica, base.clock));
        oidc = settings.oidc().map(oidcOn -> oidc(database, oidcOn, base, parts, stateKey, baseUrl, outboundTls));
    }

    private static OidcRoutes.Configured oidc(Database database, OidcSettings settings, AccountsWiring base,
            SignInParts parts, Hmac stateKey, BaseUrl baseUrl, SSLContext outboundTls) {
        OidcProvider provider = new OidcProvider(settings, outboundTls, new JdbiDiscoveryStatusStore(database),
                base.clock);
        StateCookie cookie = new StateCookie("service_oidc_state", baseUrl.path() + OidcRoutes.CALLBACK, stateKey,
                baseUrl.isHttps(), base.clock);
        EmailLinking linking = new EmailLinking(settings.autolink(), base.subjects, base.identities, base.sessionStore,
                base.linkTokens, base.clock);
        ExternalSignIn signIn = new ExternalSignIn(new OidcSignIn(settings, provider,
                URI.create(baseUrl.resolve(OidcRoutes.CALLBACK)), linking), cookie, parts, baseUrl,
                ExternalSignIn.CallbackHost.BASE_URL);
        return new OidcRoutes.Configured(settings, signIn, provider);
    }

    /** The OIDC provider, when OIDC sign-in is on. */
    Optional<OidcProvider> oidcProvider() {
        return oidc.map(OidcRoutes.Configured::provider);
    }

    List<RouteProvider> routes(SignInMethods methods, PeopleWiring people, Settings settings) {
        return List.of(new ForgeRoutes(forge), new OidcRoutes(oidc),
                new LoginRoutes(password, methods, people.signedIn, settings.accessContact()));
    }
}
