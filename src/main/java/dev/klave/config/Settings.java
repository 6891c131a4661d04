package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Everything the service reads from its environment, already checked. Built by
 * {@link SettingsLoader}; see the README for each variable's meaning and default.
 */
public record Settings(
        BaseUrl baseUrl,
        ListenAddress listen,
        DatabaseUrl database,
        EncryptionKeySource encryptionKey,
        List<Cidr> trustedProxies,
        Optional<ServerTls> tls,
        TlsEngine tlsEngine,
        boolean requirePodSecurity,
        Duration maxCredentialTtl,
        ProxyLimits proxy,
        ConnectionLimits connections,
        AddressGroups addressGroups,
        Duration auditTimeout,
        Duration shutdownDelay,
        Duration shutdownTimeout,
        CiExchangeSettings ci,
        Optional<ForgeSettings> forge,
        Optional<OidcSettings> oidc,
        Optional<String> accessContact,
        Optional<ExtraCertificates> extraCertificates,
        AgentSettings agents,
        Optional<ListenAddress> metricsListen,
        Optional<Duration> auditRetention,
        NotifySettings notifications,
        RecordingSettings recordings) {
    public Settings {
        requireNonNull(baseUrl, "baseUrl is null");
        requireNonNull(notifications, "notifications is null");
        requireNonNull(recordings, "recordings is null");
        requireNonNull(listen, "listen is null");
        requireNonNull(database, "database is null");
        requireNonNull(encryptionKey, "encryptionKey is null");
        trustedProxies = List.copyOf(requireNonNull(trustedProxies, "trustedProxies is null"));
        requireNonNull(tls, "tls is null");
        requireNonNull(tlsEngine, "tlsEngine is null");
        requireNonNull(proxy, "proxy is null");
        requireNonNull(connections, "connections is null");
        requireNonNull(addressGroups, "addressGroups is null");
        requireNonNull(auditTimeout, "auditTimeout is null");
        requireNonNull(shutdownDelay, "shutdownDelay is null");
        requireNonNull(shutdownTimeout, "shutdownTimeout is null");
        requireNonNull(ci, "ci is null");
        requireNonNull(forge, "forge is null");
        requireNonNull(oidc, "oidc is null");
        requireNonNull(accessContact, "accessContact is null");
        requireNonNull(extraCertificates, "extraCertificates is null");
        requireNonNull(agents, "agents is null");
        requireNonNull(metricsListen, "metricsListen is null");
        requireNonNull(auditRetention, "auditRetention is null");
    }
}
