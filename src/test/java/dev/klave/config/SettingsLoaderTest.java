package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pins every variable's name, default and error. */
class SettingsLoaderTest {
    private static final String KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

    private static List<String> problemsOf(Map<String, String> environment) {
        return SettingsProblems.of(environment);
    }

    @Test
    void emptyEnvironmentGivesTheDocumentedDefaults() throws Exception {
        Settings settings = SettingsLoader.load(Map.of());

        assertThat(settings.baseUrl().toString()).isEqualTo("http://localhost:8080");
        assertThat(settings.listen()).isEqualTo(new ListenAddress("0.0.0.0", 8080));
        assertThat(settings.database()).isEqualTo(new DatabaseUrl.Sqlite(Path.of("data/klave.db")));
        assertThat(settings.encryptionKey()).isEqualTo(
                new EncryptionKeySource.GeneratedFile(Path.of("data/encryption.key").toAbsolutePath()));
        assertThat(settings.trustedProxies()).isEmpty();
        assertThat(settings.tls()).isEmpty();
        assertThat(settings.tlsEngine()).isEqualTo(TlsEngine.OPENSSL);
        assertThat(settings.requirePodSecurity()).isTrue();
        assertThat(settings.maxCredentialTtl()).isEqualTo(Duration.ofDays(30));
        assertThat(settings.proxy()).isEqualTo(new ProxyLimits(Duration.ofSeconds(60), Duration.ofSeconds(5), 32, 500));
        assertThat(settings.connections()).isEqualTo(new ConnectionLimits(Duration.ofSeconds(10),
                Duration.ofSeconds(120), 512));
        assertThat(settings.addressGroups()).isEqualTo(new AddressGroups(64));
        assertThat(settings.auditTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.shutdownDelay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.ci().issuer()).hasToString("https://token.actions.githubusercontent.com");
        assertThat(settings.ci().credentialTtl()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void selfHostedForgeIssuesActionsTokensUnderItsServicesPath() throws Exception {
        assertThat(SettingsLoader.load(Map.of("FORGE_URL", "https://forge.example.com/")).ci().issuer())
                .hasToString("https://forge.example.com/_services/token");
        assertThat(SettingsLoader.load(Map.of("FORGE_URL", "https://forge.example.com",
                "SERVICE_CI_ISSUER", "http://127.0.0.1:9999/actions")).ci().issuer())
                .hasToString("http://127.0.0.1:9999/actions");
    }

    @Test
    void variableNamesAreTheOnesTheReadmeDocuments() {
        assertThat(List.of(SettingsLoader.BASE_URL, SettingsLoader.LISTEN, SettingsLoader.DATABASE_URL,
                SettingsLoader.ENCRYPTION_KEY, SettingsLoader.TRUSTED_PROXIES, SettingsLoader.TLS_CERT, SettingsLoader.TLS_KEY,
                SettingsLoader.TLS_CLIENT_CA, SettingsLoader.REQUIRE_POD_SECURITY,
                SettingsLoader.MAX_CREDENTIAL_TTL, SettingsLoader.PROXY_TIMEOUT, SettingsLoader.SHUTDOWN_DELAY,
                SettingsLoader.SHUTDOWN_TIMEOUT, SettingsLoader.FORGE_URL, SettingsLoader.CI_ISSUER,
                SettingsLoader.CI_CREDENTIAL_TTL, SettingsLoader.TLS_ENGINE, SettingsLoader.AUDIT_TIMEOUT,
                SettingsLoader.PROXY_QUEUE_TIMEOUT, SettingsLoader.PROXY_MAX_REQUESTS_PER_CREDENTIAL,
                SettingsLoader.PROXY_MAX_STREAMS_PER_CREDENTIAL, SettingsLoader.REQUEST_HEAD_TIMEOUT,
                SettingsLoader.IDLE_TIMEOUT, SettingsLoader.MAX_CONNECTIONS_PER_ADDRESS, SettingsLoader.IPV6_PREFIX))
                .containsExactly("SERVICE_BASE_URL", "SERVICE_LISTEN", "SERVICE_DATABASE_URL",
                        "SERVICE_ENCRYPTION_KEY", "SERVICE_TRUSTED_PROXIES", "SERVICE_TLS_CERT", "SERVICE_TLS_KEY",
                        "SERVICE_KUBECONFIG_CA", "SERVICE_REQUIRE_POD_SECURITY",
                        "SERVICE_MAX_CREDENTIAL_TTL", "SERVICE_PROXY_TIMEOUT", "SERVICE_SHUTDOWN_DELAY",
                        "SERVICE_SHUTDOWN_TIMEOUT", "FORGE_URL", "SERVICE_CI_ISSUER", "SERVICE_CI_CREDENTIAL_TTL",
                        "SERVICE_TLS_ENGINE", "SERVICE_AUDIT_TIMEOUT", "SERVICE_PROXY_QUEUE_TIMEOUT",
                        "SERVICE_PROXY_MAX_REQUESTS_PER_CREDENTIAL", "SERVICE_PROXY_MAX_STREAMS_PER_CREDENTIAL",
                        "SERVICE_REQUEST_HEAD_TIMEOUT", "SERVICE_IDLE_TIMEOUT", "SERVICE_MAX_CONNECTIONS_PER_ADDRESS",
                        "SERVICE_IPV6_PREFIX");
    }

    @Test
    void everySettingIsReadWhenGiven() throws Exception {
        Settings settings = SettingsLoader.load(Map.of(
                "SERVICE_BASE_URL", "https://klave.example.com/",
                "SERVICE_LISTEN", "[::]:9443",
                "SERVICE_DATABASE_URL", "postgresql://klave:s%40cret@db.internal:6432/klave?sslmode=verify-full",
                "SERVICE_ENCRYPTION_KEY", KEY,
                "SERVICE_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.7",
                "SERVICE_REQUIRE_POD_SECURITY", "false",
                "SERVICE_SHUTDOWN_DELAY", "0s",
                "SERVICE_SHUTDOWN_TIMEOUT", "45s",
                "SERVICE_CI_CREDENTIAL_TTL", "15m",
                "SERVICE_TLS_ENGINE", "JDK"));
        Settings limits = SettingsLoader.load(Map.of("SERVICE_PROXY_TIMEOUT", "2m", "SERVICE_PROXY_QUEUE_TIMEOUT", "1s",
                "SERVICE_PROXY_MAX_REQUESTS_PER_CREDENTIAL", "8", "SERVICE_PROXY_MAX_STREAMS_PER_CREDENTIAL", "10000",
                "SERVICE_REQUEST_HEAD_TIMEOUT", "3s", "SERVICE_IDLE_TIMEOUT", "75s",
                "SERVICE_MAX_CONNECTIONS_PER_ADDRESS", "20000", "SERVICE_IPV6_PREFIX", "56"));

        assertThat(settings.baseUrl().toString()).isEqualTo("https://klave.example.com");
        assertThat(settings.listen()).isEqualTo(new ListenAddress("::", 9443));
        DatabaseUrl.Postgres postgres = (DatabaseUrl.Postgres) settings.database();
        assertThat(postgres.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6432/klave?sslmode=verify-full");
        assertThat(postgres.user()).isEqualTo("klave");
        assertThat(postgres.password()).contains("s@cret");
        assertThat(((EncryptionKeySource.Given) settings.encryptionKey()).key().toBase64()).isEqualTo(KEY);
        assertThat(settings.trustedProxies()).extracting(Object::toString).containsExactly("10.0.0.0/8", "192.168.1.7");
        assertThat(settings.requirePodSecurity()).isFalse();
        assertThat(settings.ci().credentialTtl()).isEqualTo(Duration.ofMinutes(15));
        assertThat(settings.shutdownDelay()).isEqualTo(Duration.ZERO);
        assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(settings.tlsEngine()).isEqualTo(TlsEngine.JDK);
        assertThat(limits.proxy()).isEqualTo(new ProxyLimits(Duration.ofMinutes(2), Duration.ofSeconds(1), 8, 10_000));
        assertThat(limits.connections()).isEqualTo(new ConnectionLimits(Duration.ofSeconds(3), Duration.ofSeconds(75),
                20_000));
        assertThat(limits.addressGroups()).isEqualTo(new AddressGroups(56));
        assertThat(SettingsLoader.load(Map.of("SERVICE_AUDIT_TIMEOUT", "3s")).auditTimeout())
                .isEqualTo(Duration.ofSeconds(3));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "SERVICE_BASE_URL|ftp://klave.example.com|SERVICE_BASE_URL: scheme must be http or https (got 'ftp://klave.example.com')",
        "SERVICE_BASE_URL|https://klave.example.com/?x=1|SERVICE_BASE_URL: must not have a query or fragment (got 'https://klave.example.com/?x=1')",
        "SERVICE_BASE_URL|https://klave.example.com/#top|SERVICE_BASE_URL: must not have a query or fragment (got 'https://klave.example.com/#top')",
        "SERVICE_BASE_URL|klave.example.com|SERVICE_BASE_URL: must be an absolute http(s) URL (got 'klave.example.com')",
        "SERVICE_LISTEN|8080|SERVICE_LISTEN: must be host:port, e.g. 0.0.0.0:8080 (got '8080')",
        "SERVICE_LISTEN|0.0.0.0:99999|SERVICE_LISTEN: port must be between 0 and 65535 (got '0.0.0.0:99999')",
        "SERVICE_LISTEN|0.0.0.0:http|SERVICE_LISTEN: port is not a number (got '0.0.0.0:http')",
        "SERVICE_DATABASE_URL|mysql://root@localhost/klave|SERVICE_DATABASE_URL: must be sqlite:<path> or postgres://user:password@host:port/database",
        "SERVICE_DATABASE_URL|postgres://db.internal/klave|SERVICE_DATABASE_URL: postgres URL must name a user: postgres://user:password@host/db",
        "SERVICE_DATABASE_URL|postgres://klave:pw@db.internal/|SERVICE_DATABASE_URL: postgres URL must name one database: postgres://…/klave",
        "SERVICE_DATABASE_URL|sqlite:|SERVICE_DATABASE_URL: sqlite: needs a file path, e.g. sqlite:data/klave.db",
        "SERVICE_ENCRYPTION_KEY|not base64!|SERVICE_ENCRYPTION_KEY: is not valid base64",
        "SERVICE_ENCRYPTION_KEY|c2hvcnQ=|SERVICE_ENCRYPTION_KEY: must be base64 of exactly 32 bytes (got 5)",
        "SERVICE_TRUSTED_PROXIES|10.0.0.0/33|SERVICE_TRUSTED_PROXIES: '10.0.0.0/33' has a prefix length outside 0..32 (got '10.0.0.0/33')",
        "SERVICE_TRUSTED_PROXIES|proxy.internal|SERVICE_TRUSTED_PROXIES: 'proxy.internal' is not an IP address or CIDR block (got 'proxy.internal')",
        "SERVICE_REQUIRE_POD_SECURITY|yes|SERVICE_REQUIRE_POD_SECURITY: must be true or false (got 'yes')",
        "SERVICE_KUBECONFIG_CA|/nonexistent/ca.crt|SERVICE_KUBECONFIG_CA: cannot read the file (got '/nonexistent/ca.crt')",
        "SERVICE_PROXY_TIMEOUT|0s|SERVICE_PROXY_TIMEOUT: must be longer than zero (got '0s')",
        "SERVICE_AUDIT_TIMEOUT|0s|SERVICE_AUDIT_TIMEOUT: must be longer than zero (got '0s')",
        "SERVICE_PROXY_QUEUE_TIMEOUT|0s|SERVICE_PROXY_QUEUE_TIMEOUT: must be longer than zero (got '0s')",
        "SERVICE_PROXY_MAX_REQUESTS_PER_CREDENTIAL|0|SERVICE_PROXY_MAX_REQUESTS_PER_CREDENTIAL: must be a whole number from 1 to 2147483647 (got '0')",
        "SERVICE_PROXY_MAX_STREAMS_PER_CREDENTIAL|many|SERVICE_PROXY_MAX_STREAMS_PER_CREDENTIAL: must be a whole number from 1 to 2147483647 (got 'many')",
        "SERVICE_REQUEST_HEAD_TIMEOUT|0s|SERVICE_REQUEST_HEAD_TIMEOUT: must be longer than zero (got '0s')",
        "SERVICE_IDLE_TIMEOUT|never|SERVICE_IDLE_TIMEOUT: must be a number followed by ms, s, m, h or d, e.g. 30s (got 'never')",
        "SERVICE_MAX_CONNECTIONS_PER_ADDRESS|-1|SERVICE_MAX_CONNECTIONS_PER_ADDRESS: must be a whole number from 1 to 2147483647 (got '-1')",
        "SERVICE_IPV6_PREFIX|129|SERVICE_IPV6_PREFIX: must be a prefix length from 1 to 128 (got '129')",
        "SERVICE_IPV6_PREFIX|/64|SERVICE_IPV6_PREFIX: must be a prefix length from 1 to 128 (got '/64')",
        "SERVICE_MAX_CREDENTIAL_TTL|0d|SERVICE_MAX_CREDENTIAL_TTL: must be longer than zero (got '0d')",
        "SERVICE_SHUTDOWN_DELAY|5 seconds|SERVICE_SHUTDOWN_DELAY: must be a number followed by ms, s, m, h or d, e.g. 30s (got '5 seconds')",
        "SERVICE_CI_ISSUER|token.actions.example|SERVICE_CI_ISSUER: must be an http(s) URL without query or fragment (got 'token.actions.example')",
        "FORGE_URL|forge.example.com|FORGE_URL: must be an http(s) URL without query or fragment (got 'forge.example.com')",
        "SERVICE_CI_CREDENTIAL_TTL|0s|SERVICE_CI_CREDENTIAL_TTL: must be longer than zero (got '0s')",
        "SERVICE_TLS_ENGINE|gnutls|SERVICE_TLS_ENGINE: use openssl or jdk (got 'gnutls')",
        "SERVICE_SHUTDOWN_TIMEOUT|soon|SERVICE_SHUTDOWN_TIMEOUT: must be a number followed by ms, s, m, h or d, e.g. 30s (got 'soon')",
    })
    void badValueIsReportedWithTheVariableName(String name, String value, String problem) {
        assertThat(problemsOf(Map.of(name, value))).containsExactly(problem);
    }

    @Test
    void tlsNeedsBothReadableFiles() {
        assertThat(problemsOf(Map.of("SERVICE_TLS_CERT", "/nonexistent/tls.crt"))).containsExactly(
                "SERVICE_TLS_CERT: cannot read the file (got '/nonexistent/tls.crt')",
                "SERVICE_TLS_CERT, SERVICE_TLS_KEY: set both (PEM files) or neither");
    }

    @Test
    void postgresWithoutAnEncryptionKeyIsRefused() {
        assertThat(problemsOf(Map.of("SERVICE_DATABASE_URL", "postgres://klave:pw@db.internal/klave")))
                .containsExactly("SERVICE_ENCRYPTION_KEY: required with PostgreSQL (base64 of 32 random bytes, "
                        + "for example the output of `openssl rand -base64 32`)");
    }

    @Test
    void sqliteElsewhereKeepsItsGeneratedKeyBesideTheDatabase() throws Exception {
        Settings settings = SettingsLoader.load(Map.of("SERVICE_DATABASE_URL", "sqlite:/var/lib/klave/state.db"));

        assertThat(settings.encryptionKey())
                .isEqualTo(new EncryptionKeySource.GeneratedFile(Path.of("/var/lib/klave/encryption.key")));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        Map<String, String> environment = new HashMap<>();
        environment.put("SERVICE_BASE_URL", "ftp://x");
        environment.put("SERVICE_LISTEN", "nowhere");
        environment.put("SERVICE_DATABASE_URL", "postgres://klave:pw@db.internal/klave");
        environment.put("SERVICE_TRUSTED_PROXIES", "bad");
        environment.put("SERVICE_SHUTDOWN_TIMEOUT", "forever");

        assertThat(problemsOf(environment)).extracting(problem -> problem.substring(0, problem.indexOf(':')))
                .containsExactly("SERVICE_BASE_URL", "SERVICE_LISTEN", "SERVICE_ENCRYPTION_KEY",
                        "SERVICE_TRUSTED_PROXIES", "SERVICE_SHUTDOWN_TIMEOUT");
    }

    @Test
    void secretsNeverAppearInProblems() {
        String secretKey = "c2VjcmV0LWtleS10aGF0LWlzLXRvby1zaG9ydA==";
        List<String> problems = problemsOf(Map.of(
                "SERVICE_DATABASE_URL", "mysql://root:hunter2@localhost/klave",
                "SERVICE_ENCRYPTION_KEY", secretKey));

        assertThat(String.join("\n", problems)).doesNotContain("hunter2").doesNotContain(secretKey);
    }

    @Test
    void postgresPasswordIsNeverPrinted() throws Exception {
        Settings settings = SettingsLoader.load(Map.of(
                "SERVICE_DATABASE_URL", "postgres://klave:hunter2@db.internal/klave",
                "SERVICE_ENCRYPTION_KEY", KEY));

        assertThat(settings.toString()).doesNotContain("hunter2").doesNotContain(KEY);
        assertThat(settings.database().display()).isEqualTo("postgres://klave:***@db.internal:5432/klave");
    }

    @Test
    void blankValuesMeanTheDefault() throws Exception {
        Settings settings = SettingsLoader.load(Map.of("SERVICE_LISTEN", "  ", "SERVICE_TRUSTED_PROXIES", ""));

        assertThat(settings.listen()).isEqualTo(new ListenAddress("0.0.0.0", 8080));
    }

    @Test
    void problemsAreNotSwallowedWhenThrown() {
        assertThatThrownBy(() -> SettingsLoader.load(Map.of("SERVICE_LISTEN", "x")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("SERVICE_LISTEN");
    }

    @Test
    void auditRetentionIsOffUnlessSetAndAtLeastADay() throws Exception {
        assertThat(SettingsLoader.load(Map.of()).auditRetention()).isEmpty();
        assertThat(SettingsLoader.load(Map.of("SERVICE_AUDIT_RETENTION", "400d")).auditRetention())
                .contains(java.time.Duration.ofDays(400));
        assertThatThrownBy(() -> SettingsLoader.load(Map.of("SERVICE_AUDIT_RETENTION", "2h")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("SERVICE_AUDIT_RETENTION: must be at least 1d");
    }

    @Test
    void recordingsHaveAShareAndARetentionByDefault() throws Exception {
        RecordingSettings defaults = SettingsLoader.load(Map.of()).recordings();
        assertThat(defaults).isEqualTo(RecordingSettings.DEFAULTS);
        assertThat(defaults.shareBytes()).isEqualTo(1024L << 20);
        assertThat(defaults.retention()).as("never for ever").isEqualTo(java.time.Duration.ofDays(90));
        assertThat(SettingsLoader.load(Map.of("SERVICE_AUDIT_RETENTION", "30d")).recordings().retention())
                .as("as the audit's").isEqualTo(java.time.Duration.ofDays(30));
        assertThat(SettingsLoader.load(Map.of("SERVICE_RECORDING_QUOTA_MIB", "512")).recordings().shareBytes())
                .as("a quota smaller than the default share").isEqualTo(512L << 20);
        assertThat(SettingsLoader.load(Map.of("SERVICE_RECORDING_SHARE_MIB", "128")).recordings().shareBytes())
                .isEqualTo(128L << 20);
        assertThatThrownBy(() -> SettingsLoader.load(Map.of("SERVICE_RECORDING_SHARE_MIB", "32")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("SERVICE_RECORDING_SHARE_MIB: must be at least SERVICE_RECORDING_CAP_MIB (64)");
        assertThatThrownBy(() -> SettingsLoader.load(Map.of("SERVICE_RECORDING_SHARE_MIB", "20000")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("SERVICE_RECORDING_SHARE_MIB: must be at most SERVICE_RECORDING_QUOTA_MIB (10240)");
    }
}
