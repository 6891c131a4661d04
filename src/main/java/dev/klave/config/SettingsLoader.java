package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads {@link Settings} from environment variables. Each variable is parsed on its own and every
 * problem is collected, so one start-up attempt reports all of them.
 */
public final class SettingsLoader {
    public static final String BASE_URL = "SERVICE_BASE_URL";
    public static final String LISTEN = "SERVICE_LISTEN";
    public static final String DATABASE_URL = "SERVICE_DATABASE_URL";
    public static final String ENCRYPTION_KEY = "SERVICE_ENCRYPTION_KEY";
    public static final String TRUSTED_PROXIES = "SERVICE_TRUSTED_PROXIES";
    public static final String TLS_CERT = "SERVICE_TLS_CERT";
    public static final String TLS_KEY = "SERVICE_TLS_KEY";
    public static final String TLS_CLIENT_CA = "SERVICE_KUBECONFIG_CA";
    public static final String REQUIRE_POD_SECURITY = "SERVICE_REQUIRE_POD_SECURITY";
    public static final String TLS_ENGINE = "SERVICE_TLS_ENGINE";
    public static final String MAX_CREDENTIAL_TTL = "SERVICE_MAX_CREDENTIAL_TTL";
    public static final String PROXY_TIMEOUT = "SERVICE_PROXY_TIMEOUT";
    public static final String PROXY_QUEUE_TIMEOUT = "SERVICE_PROXY_QUEUE_TIMEOUT";
    public static final String PROXY_MAX_REQUESTS_PER_CREDENTIAL = "SERVICE_PROXY_MAX_REQUESTS_PER_CREDENTIAL";
    public static final String PROXY_MAX_STREAMS_PER_CREDENTIAL = "SERVICE_PROXY_MAX_STREAMS_PER_CREDENTIAL";
    public static final String REQUEST_HEAD_TIMEOUT = "SERVICE_REQUEST_HEAD_TIMEOUT";
    public static final String IDLE_TIMEOUT = "SERVICE_IDLE_TIMEOUT";
    public static final String MAX_CONNECTIONS_PER_ADDRESS = "SERVICE_MAX_CONNECTIONS_PER_ADDRESS";
    public static final String IPV6_PREFIX = "SERVICE_IPV6_PREFIX";
    public static final String AUDIT_TIMEOUT = "SERVICE_AUDIT_TIMEOUT";
    public static final String SHUTDOWN_DELAY = "SERVICE_SHUTDOWN_DELAY";
    public static final String SHUTDOWN_TIMEOUT = "SERVICE_SHUTDOWN_TIMEOUT";
    public static final String FORGE_URL = "FORGE_URL";
    public static final String FORGE_API_URL = "FORGE_API_URL";
    public static final String FORGE_APP_ID = "FORGE_APP_ID";
    public static final String FORGE_APP_CLIENT_ID = "FORGE_APP_CLIENT_ID";
    public static final String FORGE_APP_CLIENT_SECRET = "FORGE_APP_CLIENT_SECRET";
    public static final String FORGE_APP_PRIVATE_KEY = "FORGE_APP_PRIVATE_KEY";
    public static final String FORGE_ORG = "FORGE_ORG";
    public static final String FORGE_WEBHOOK_SECRET = "FORGE_WEBHOOK_SECRET";
    public static final String FORGE_REQUIRE_ORG_2FA = "FORGE_REQUIRE_ORG_2FA";
    public static final String OIDC_ISSUER = "OIDC_ISSUER";
    public static final String OIDC_CLIENT_ID = "OIDC_CLIENT_ID";
    public static final String OIDC_CLIENT_SECRET = "OIDC_CLIENT_SECRET";
    public static final String OIDC_ALLOWED_DOMAINS = "OIDC_ALLOWED_DOMAINS";
    public static final String OIDC_DISPLAY_NAME = "OIDC_DISPLAY_NAME";
    public static final String OIDC_SCOPES = "OIDC_SCOPES";
    public static final String OIDC_SUBJECT_CLAIM = "OIDC_SUBJECT_CLAIM";
    public static final String OIDC_EMAIL_VERIFIED_CLAIM = "OIDC_EMAIL_VERIFIED_CLAIM";
    public static final String OIDC_AUTOLINK = "OIDC_AUTOLINK";
    public static final String ACCESS_CONTACT = "SERVICE_ACCESS_CONTACT";
    public static final String SSL_CERT_FILE = "SSL_CERT_FILE";
    /** Spec 2 §2 rule 1: these turn OIDC sign-in on; a secret alone counts. */
    private static final List<String> OIDC_ON = List.of(OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET,
            OIDC_ALLOWED_DOMAINS);
    /** ... and these are then required. */
    private static final List<String> OIDC_REQUIRED = List.of(OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_ALLOWED_DOMAINS);
    /** The longest contact line the login screen shows. */
    private static final int ACCESS_CONTACT_LIMIT = 200;
    /** Spec 1 §5: "the first five go together". */
    private static final List<String> FORGE_APP = List.of(FORGE_APP_ID, FORGE_APP_CLIENT_ID, FORGE_APP_CLIENT_SECRET,
            FORGE_APP_PRIVATE_KEY, FORGE_ORG);
    public static final String CI_ISSUER = "SERVICE_CI_ISSUER";
    public static final String CI_CREDENTIAL_TTL = "SERVICE_CI_CREDENTIAL_TTL";
    public static final String MCP_ENABLED = "SERVICE_MCP_ENABLED";
    public static final String MCP_RATE_LIMIT = "SERVICE_MCP_RATE_LIMIT";
    public static final String AGENT_APPROVAL_WAIT = "SERVICE_AGENT_APPROVAL_WAIT";
    public static final String MCP_HIDE_CREDENTIALS = "SERVICE_MCP_HIDE_CREDENTIALS";
    /** How long audit rows are kept (issue 32); unset keeps them for ever. */
    public static final String AUDIT_RETENTION = "SERVICE_AUDIT_RETENTION";
    public static final String METRICS_LISTEN = "SERVICE_METRICS_LISTEN";
    /** Issue 41: e-mail notifications. */
    public static final String SMTP_URL = "SERVICE_SMTP_URL";
    public static final String SMTP_FROM = "SERVICE_SMTP_FROM";
    /** Issue 42: recorded sessions' cap, quota and retention. */
    public static final String RECORDING_CAP_MIB = "SERVICE_RECORDING_CAP_MIB";
    public static final String RECORDING_QUOTA_MIB = "SERVICE_RECORDING_QUOTA_MIB";
    public static final String RECORDING_RETENTION = "SERVICE_RECORDING_RETENTION";
    public static final String RECORDING_SHARE_MIB = "SERVICE_RECORDING_SHARE_MIB";
    /** Issue 41: private address blocks webhooks may reach. */
    public static final String WEBHOOK_ALLOW = "SERVICE_WEBHOOK_ALLOW";
    /** Read by the logging set-up (logback.xml) before anything else; checked here with the rest. */
    public static final String LOG_FORMAT = "KLAVE_LOG_FORMAT";

    public static final String DEFAULT_BASE_URL = "http://localhost:8080";
    public static final String DEFAULT_LISTEN = "0.0.0.0:8080";
    public static final String DEFAULT_SHUTDOWN_DELAY = "5s";
    /** Above SQLite's busy timeout (10 s) and PostgreSQL's connection timeout (5 s): those fail first. */
    public static final String DEFAULT_AUDIT_TIMEOUT = "15s";
    public static final String DEFAULT_SHUTDOWN_TIMEOUT = "30s";
    public static final String DEFAULT_CI_CREDENTIAL_TTL = "1h";

    /** The file the generated key goes to, beside the SQLite database file. */
    public static final String KEY_FILE_NAME = "encryption.key";

    private final Map<String, String> environment;
    private final List<String> problems = new ArrayList<>();

    private SettingsLoader(Map<String, String> environment) {
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
    }

    public static Settings load(Map<String, String> environment) throws InvalidSettingsException {
        return new SettingsLoader(environment).load();
    }

    private Settings load() throws InvalidSettingsException {
        Optional<BaseUrl> baseUrl = read(BASE_URL, DEFAULT_BASE_URL, BaseUrl::parse);
        Optional<ListenAddress> listen = read(LISTEN, DEFAULT_LISTEN, ListenAddress::parse);
        Optional<DatabaseUrl> database = read(DATABASE_URL, DatabaseUrl.DEFAULT, DatabaseUrl::parse);
        Optional<EncryptionKeySource> key = encryptionKey(database);
        Optional<List<Cidr>> trustedProxies = read(TRUSTED_PROXIES, "", SettingsLoader::parseCidrs);
        Optional<Optional<ServerTls>> tls = tls();
        Optional<TlsEngine> tlsEngine = read(TLS_ENGINE, "openssl", TlsEngine::parse);
        Optional<Boolean> requirePodSecurity = read(REQUIRE_POD_SECURITY, "true", SettingsLoader::parseBoolean);
        Optional<Duration> maxCredentialTtl = read(MAX_CREDENTIAL_TTL, "30d", SettingsLoader::parsePositive);
        Optional<ProxyLimits> proxy = proxyLimits();
        Optional<ConnectionLimits> connections = connectionLimits();
        Optional<AddressGroups> addressGroups = read(IPV6_PREFIX, String.valueOf(AddressGroups.DEFAULT_IPV6_PREFIX),
                AddressGroups::parse);
        Optional<Duration> auditTimeout = read(AUDIT_TIMEOUT, DEFAULT_AUDIT_TIMEOUT, SettingsLoader::parsePositive);
        Optional<Duration> shutdownDelay = read(SHUTDOWN_DELAY, DEFAULT_SHUTDOWN_DELAY, Durations::parse);
        Optional<Duration> shutdownTimeout = read(SHUTDOWN_TIMEOUT, DEFAULT_SHUTDOWN_TIMEOUT, Durations::parse);
        Optional<URI> ciIssuer = read(CI_ISSUER, defaultCiIssuer(), CiExchangeSettings::parseIssuer);
        Optional<Duration> ciCredentialTtl = read(CI_CREDENTIAL_TTL, DEFAULT_CI_CREDENTIAL_TTL,
                SettingsLoader::parsePositive);
        Optional<ForgeSettings> forge = forge();
        Optional<OidcSettings> oidc = oidc();
        Optional<Optional<String>> accessContact = Optional.of(optional(ACCESS_CONTACT,
                SettingsLoader::parseAccessContact, true));
        Optional<Optional<ExtraCertificates>> extraCas = isSet(SSL_CERT_FILE)
                ? parse(SSL_CERT_FILE, environment.get(SSL_CERT_FILE), text -> Optional.of(
                        ExtraCertificates.read(Path.of(text.strip()))), true)
                : Optional.of(Optional.empty());
        Optional<Boolean> mcpEnabled = read(MCP_ENABLED, "true", SettingsLoader::parseBoolean);
        Optional<Integer> mcpRateLimit = read(MCP_RATE_LIMIT, "120", SettingsLoader::parseCount);
        Optional<Duration> approvalWait = read(AGENT_APPROVAL_WAIT, "50s", AgentSettings::parseWait);
        Optional<Boolean> hideCredentials = read(MCP_HIDE_CREDENTIALS, "true", SettingsLoader::parseBoolean);
        Optional<Optional<ListenAddress>> metricsListen = metricsListen(listen);
        read(LOG_FORMAT, "text", SettingsLoader::parseLogFormat);
        Optional<Duration> auditRetention = optional(AUDIT_RETENTION, SettingsLoader::parseRetention, true);
        // The URL may carry a password: never shown back.
        Optional<SmtpSettings> smtp = optional(SMTP_URL, text -> SmtpSettings.parse(text,
                environment.getOrDefault(SMTP_FROM, "")), false);
        if (!isSet(SMTP_URL) && isSet(SMTP_FROM)) {
            problems.add(SMTP_FROM + ": set only with " + SMTP_URL);
        }
        Optional<List<Cidr>> webhookAllow = read(WEBHOOK_ALLOW, "", SettingsLoader::parseCidrs);
        Optional<Integer> recordingCap = read(RECORDING_CAP_MIB, "64", SettingsLoader::parseCount);
        Optional<Integer> recordingQuota = read(RECORDING_QUOTA_MIB, "10240", SettingsLoader::parseCount);
        Optional<Integer> recordingShare = read(RECORDING_SHARE_MIB, "1024", SettingsLoader::parseCount);
        Optional<Duration> recordingRetention = optional(RECORDING_RETENTION, SettingsLoader::parseRetention, true);
        if (recordingCap.isPresent() && recordingQuota.isPresent() && recordingQuota.get() < recordingCap.get()) {
            problems.add(RECORDING_QUOTA_MIB + ": must be at least " + RECORDING_CAP_MIB + " ("
                    + recordingCap.get() + ")");
        }
        // Unset, the share is 1024 MiB, or the quota when that is smaller (and never under the cap).
        Optional<Long> shareBytes = recordingShare.map(mib -> (long) mib << 20).map(bytes -> isSet(RECORDING_SHARE_MIB)
                ? bytes : Math.max(Math.min(bytes, (long) recordingQuota.orElse(0) << 20),
                        (long) recordingCap.orElse(0) << 20));
        if (isSet(RECORDING_SHARE_MIB) && recordingShare.isPresent() && recordingCap.isPresent()
                && recordingShare.get() < recordingCap.get()) {
            problems.add(RECORDING_SHARE_MIB + ": must be at least " + RECORDING_CAP_MIB + " (" + recordingCap.get()
                    + ")");
        }
        if (isSet(RECORDING_SHARE_MIB) && recordingShare.isPresent() && recordingQuota.isPresent()
                && recordingShare.get() > recordingQuota.get()) {
            problems.add(RECORDING_SHARE_MIB + ": must be at most " + RECORDING_QUOTA_MIB + " ("
                    + recordingQuota.get() + ")");
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return new Settings(baseUrl.orElseThrow(), listen.orElseThrow(), database.orElseThrow(),
                key.orElseThrow(), trustedProxies.orElseThrow(), tls.orElseThrow(), tlsEngine.orElseThrow(),
                requirePodSecurity.orElseThrow(),
                maxCredentialTtl.orElseThrow(), proxy.orElseThrow(), connections.orElseThrow(),
                addressGroups.orElseThrow(), auditTimeout.orElseThrow(),
                shutdownDelay.orElseThrow(),
                shutdownTimeout.orElseThrow(),
                new CiExchangeSettings(ciIssuer.orElseThrow(), ciCredentialTtl.orElseThrow()), forge, oidc,
                accessContact.orElseThrow(), extraCas.orElseThrow(), new AgentSettings(mcpEnabled.orElseThrow(),
                        mcpRateLimit.orElseThrow(), approvalWait.orElseThrow(), hideCredentials.orElseThrow()),
                metricsListen.orElseThrow(),
                auditRetention, new NotifySettings(smtp, webhookAllow.orElseThrow()),
                new RecordingSettings((long) recordingCap.orElseThrow() << 20, (long) recordingQuota.orElseThrow() << 20,
                        shareBytes.orElseThrow(),
                        recordingRetention.or(() -> auditRetention).orElse(RecordingSettings.DEFAULT_RETENTION)));
    }

    /**
     * {@code SERVICE_METRICS_LISTEN}: off when unset. Metrics are for the operator's scraper, never
     * for the public port, so the two listeners may not share a port (a fixed port, not 0).
     */
    private Optional<Optional<ListenAddress>> metricsListen(Optional<ListenAddress> listen) {
        if (!isSet(METRICS_LISTEN)) {
            return Optional.of(Optional.empty());
        }
        Optional<ListenAddress> metrics = parse(METRICS_LISTEN, environment.get(METRICS_LISTEN).strip(),
                ListenAddress::parse, true);
        if (metrics.isEmpty()) {
            return Optional.empty();
        }
        if (listen.isPresent() && metrics.get().port() != 0 && metrics.get().port() == listen.get().port()) {
            problems.add(METRICS_LISTEN + ": must not use " + LISTEN + "'s port " + listen.get().port()
                    + ": metrics have a listener of their own (got '" + metrics.get() + "')");
            return Optional.empty();
        }
        return Optional.of(metrics);
    }

    /** {@code KLAVE_LOG_FORMAT}: {@code text} (the default) or {@code json}, one object per line. */
    private static String parseLogFormat(String text) {
        // Not stripped: the logging set-up reads the variable as it is.
        if (!text.equals("text") && !text.equals("json")) {
            throw new IllegalArgumentException("must be text or json");
        }
        return text;
    }

    /**
     * The proxy's time-outs and each credential's share (spec 1 §8 leaves the proxy's limits to
     * the installation). The defaults let a busy CI credential or a controller with a few hundred
     * watches work, and keep any one credential well under a cluster's 64 pooled connections per
     * event loop.
     */
    private Optional<ProxyLimits> proxyLimits() {
        Optional<Duration> timeout = read(PROXY_TIMEOUT, "60s", SettingsLoader::parsePositive);
        Optional<Duration> queue = read(PROXY_QUEUE_TIMEOUT, "5s", SettingsLoader::parsePositive);
        Optional<Integer> requests = read(PROXY_MAX_REQUESTS_PER_CREDENTIAL, "32", SettingsLoader::parseCount);
        Optional<Integer> streams = read(PROXY_MAX_STREAMS_PER_CREDENTIAL, "500", SettingsLoader::parseCount);
        if (timeout.isEmpty() || queue.isEmpty() || requests.isEmpty() || streams.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ProxyLimits(timeout.get(), queue.get(), requests.get(), streams.get()));
    }

    /**
     * Time-outs and a cap for connections that send no request. The idle time-out is above the
     * 90 s for which kubectl's (Go's) client keeps an idle connection, so Klave does not close
     * one under a client about to reuse it.
     */
    private Optional<ConnectionLimits> connectionLimits() {
        Optional<Duration> head = read(REQUEST_HEAD_TIMEOUT, "10s", SettingsLoader::parsePositive);
        Optional<Duration> idle = read(IDLE_TIMEOUT, "120s", SettingsLoader::parsePositive);
        Optional<Integer> perAddress = read(MAX_CONNECTIONS_PER_ADDRESS, "512", SettingsLoader::parseCount);
        if (head.isEmpty() || idle.isEmpty() || perAddress.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ConnectionLimits(head.get(), idle.get(), perAddress.get()));
    }

    /**
     * Spec 1 §5 "Forge App configuration": off when none of the five App variables nor the webhook
     * secret is set; otherwise all five are required, and every missing or bad one is reported.
     * Secret values are never echoed.
     */
    private Optional<ForgeSettings> forge() {
        boolean anySet = FORGE_APP.stream().anyMatch(this::isSet) || isSet(FORGE_WEBHOOK_SECRET);
        if (!anySet) {
            return Optional.empty();
        }
        int before = problems.size();
        for (String name : FORGE_APP) {
            if (!isSet(name)) {
                problems.add(name + ": required when the forge App is configured (" + String.join(", ", FORGE_APP)
                        + (isSet(FORGE_WEBHOOK_SECRET) ? " and " + FORGE_WEBHOOK_SECRET : "") + " go together)");
            }
        }
        Optional<Long> appId = optional(FORGE_APP_ID, ForgeSettings::parseAppId, true);
        Optional<String> clientId = optional(FORGE_APP_CLIENT_ID, String::strip, true);
        Optional<Secret> clientSecret = optional(FORGE_APP_CLIENT_SECRET, text -> new Secret(text.strip()), false);
        Optional<java.security.interfaces.RSAPrivateKey> privateKey = optional(FORGE_APP_PRIVATE_KEY,
                RsaPrivateKeyPem::parse, false);
        Optional<String> org = optional(FORGE_ORG, ForgeSettings::parseOrg, true);
        Optional<Secret> webhookSecret = optional(FORGE_WEBHOOK_SECRET, text -> new Secret(text.strip()), false);
        Optional<Boolean> requireTwoFactor = read(FORGE_REQUIRE_ORG_2FA, "true", SettingsLoader::parseBoolean);
        Optional<URI> webUrl = read(FORGE_URL, ForgeSettings.PUBLIC_WEB_URL, ForgeSettings::parseUrl);
        String defaultApi = isSet(FORGE_URL) ? webUrl.map(url -> url + "/api/v3").orElse(ForgeSettings.PUBLIC_API_URL)
                : ForgeSettings.PUBLIC_API_URL;
        Optional<URI> apiUrl = read(FORGE_API_URL, defaultApi, ForgeSettings::parseUrl);
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ForgeSettings(appId.orElseThrow(), clientId.orElseThrow(), clientSecret.orElseThrow(),
                privateKey.orElseThrow(), org.orElseThrow(), webhookSecret, requireTwoFactor.orElseThrow(),
                webUrl.orElseThrow(), apiUrl.orElseThrow()));
    }

    /**
     * Spec 2 §2: off unless one of the four variables that turn it on is set; then the issuer, the
     * client id and the domains are required, and every problem is reported. A tenant issuer
     * takes {@code oid} and {@code xms_edov} as its defaults (rule 3).
     */
    private Optional<OidcSettings> oidc() {
        if (OIDC_ON.stream().noneMatch(this::isSet)) {
            return Optional.empty();
        }
        int before = problems.size();
        for (String name : OIDC_REQUIRED) {
            if (!isSet(name)) {
                problems.add(name + ": required when OIDC sign-in is configured (" + String.join(", ", OIDC_REQUIRED)
                        + " go together; " + OIDC_CLIENT_SECRET + " is optional)");
            }
        }
        Optional<URI> issuer = optional(OIDC_ISSUER, OidcSettings::parseIssuer, true);
        boolean tenant = issuer.map(OidcSettings::isTenantIssuer).orElse(false);
        Optional<String> clientId = optional(OIDC_CLIENT_ID, String::strip, true);
        Optional<Secret> clientSecret = optional(OIDC_CLIENT_SECRET, text -> new Secret(text.strip()), false);
        Optional<List<String>> domains = optional(OIDC_ALLOWED_DOMAINS, OidcSettings::parseDomains, true);
        Optional<String> displayName = read(OIDC_DISPLAY_NAME, OidcSettings.DEFAULT_DISPLAY_NAME,
                OidcSettings::parseDisplayName);
        Optional<List<String>> scopes = read(OIDC_SCOPES, OidcSettings.DEFAULT_SCOPES, OidcSettings::parseScopes);
        Optional<String> verified = read(OIDC_EMAIL_VERIFIED_CLAIM,
                tenant ? OidcSettings.TENANT_VERIFIED_CLAIM : OidcSettings.DEFAULT_VERIFIED_CLAIM,
                OidcSettings::parseClaimName);
        Optional<String> subject = read(OIDC_SUBJECT_CLAIM,
                tenant ? OidcSettings.TENANT_SUBJECT_CLAIM : OidcSettings.DEFAULT_SUBJECT_CLAIM,
                text -> OidcSettings.parseSubjectClaim(text, verified.orElse(OidcSettings.DEFAULT_VERIFIED_CLAIM)));
        Optional<OidcSettings.Autolink> autolink = read(OIDC_AUTOLINK, "all", OidcSettings.Autolink::parse);
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new OidcSettings(issuer.orElseThrow(), clientId.orElseThrow(), clientSecret,
                domains.orElseThrow(), displayName.orElseThrow(), scopes.orElseThrow(), subject.orElseThrow(),
                verified.orElseThrow(), autolink.orElseThrow()));
    }

    private static String parseAccessContact(String text) {
        String contact = text.strip();
        if (contact.length() > ACCESS_CONTACT_LIMIT || contact.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("must be one line of at most " + ACCESS_CONTACT_LIMIT + " characters");
        }
        return contact;
    }

    private boolean isSet(String name) {
        String value = environment.get(name);
        return value != null && !value.isBlank();
    }

    /** A variable with no default: empty when unset (the caller reports that), parsed when set. */
    private <T> Optional<T> optional(String name, Function<String, T> parser, boolean showValue) {
        return isSet(name) ? parse(name, environment.get(name), parser, showValue) : Optional.empty();
    }

    /**
     * The forge's public Actions issuer, or that of the self-hosted forge at {@code FORGE_URL}
     * (spec 1 §5 "Forge App configuration"). A bad {@code FORGE_URL} is reported here.
     */
    private String defaultCiIssuer() {
        String forge = environment.get(FORGE_URL);
        if (forge == null || forge.isBlank()) {
            return CiExchangeSettings.PUBLIC_ISSUER;
        }
        return parse(FORGE_URL, forge, text -> CiExchangeSettings.issuerOf(
                        CiExchangeSettings.parseIssuer(text).toString()), true)
                .orElse(CiExchangeSettings.PUBLIC_ISSUER);
    }

    private Optional<EncryptionKeySource> encryptionKey(Optional<DatabaseUrl> database) {
        String value = environment.get(ENCRYPTION_KEY);
        if (value != null && !value.isBlank()) {
            return parse(ENCRYPTION_KEY, value, text -> new EncryptionKeySource.Given(MasterKey.parseBase64(text)),
                    false);
        }
        if (database.isEmpty()) {
            // The database problem is already reported; whether a key is needed cannot be told.
            return Optional.empty();
        }
        if (database.get() instanceof DatabaseUrl.Sqlite sqlite) {
            Path directory = sqlite.file().toAbsolutePath().getParent();
            return Optional.of(new EncryptionKeySource.GeneratedFile(directory.resolve(KEY_FILE_NAME)));
        }
        problems.add(ENCRYPTION_KEY + ": required with PostgreSQL (base64 of 32 random bytes, "
                + "for example the output of `openssl rand -base64 32`)");
        return Optional.empty();
    }

    private <T> Optional<T> read(String name, String defaultValue, Function<String, T> parser) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            value = defaultValue;
        }
        return parse(name, value, parser, true);
    }

    private <T> Optional<T> parse(String name, String value, Function<String, T> parser, boolean showValue) {
        try {
            return Optional.of(parser.apply(value));
        } catch (IllegalArgumentException e) {
            // Secrets are never echoed back: the key's problem names no part of its value.
            String shown = showValue && !name.equals(DATABASE_URL) ? " (got '" + value + "')" : "";
            String problem = name + ": " + e.getMessage() + shown;
            // One variable may be read for two settings (FORGE_URL: the forge and the CI issuer).
            if (!problems.contains(problem)) {
                problems.add(problem);
            }
            return Optional.empty();
        }
    }

    /** Both files or neither; empty inner value when Klave serves plain HTTP (TLS ends at a proxy). */
    private Optional<Optional<ServerTls>> tls() {
        Optional<Path> certificate = file(TLS_CERT);
        Optional<Path> privateKey = file(TLS_KEY);
        Optional<Path> clientCa = file(TLS_CLIENT_CA);
        if (certificate.isEmpty() != privateKey.isEmpty()) {
            problems.add(TLS_CERT + ", " + TLS_KEY + ": set both (PEM files) or neither");
            return Optional.empty();
        }
        if (certificate.isEmpty()) {
            return Optional.of(Optional.empty());
        }
        return Optional.of(Optional.of(new ServerTls(certificate.get(), privateKey.get(), clientCa)));
    }

    private Optional<Path> file(String name) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path path = Path.of(value.strip());
        if (!java.nio.file.Files.isReadable(path)) {
            problems.add(name + ": cannot read the file (got '" + value + "')");
        }
        return Optional.of(path);
    }

    /** At least a day: a shorter retention is a typo more likely than a policy. */
    private static Duration parseRetention(String text) {
        Duration duration = Durations.parse(text);
        if (duration.compareTo(Duration.ofDays(1)) < 0) {
            throw new IllegalArgumentException("must be at least 1d (for example 400d)");
        }
        return duration;
    }

    private static Duration parsePositive(String text) {
        Duration duration = Durations.parse(text);
        if (duration.isZero()) {
            throw new IllegalArgumentException("must be longer than zero");
        }
        return duration;
    }

    private static int parseCount(String text) {
        try {
            int count = Integer.parseInt(text.strip());
            if (count >= 1) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("must be a whole number from 1 to " + Integer.MAX_VALUE);
    }

    private static boolean parseBoolean(String text) {
        return switch (text.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false");
        };
    }

    private static List<Cidr> parseCidrs(String text) {
        List<Cidr> blocks = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                blocks.add(Cidr.parse(part));
            }
        }
        return blocks;
    }
}
