package dev.klave.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * The forge (GitHub) as Klave sees it, over HTTPS in the test JVM: user authorization (consent as
 * a chosen user, or {@code error=access_denied}), the code exchange (client secret checked, codes
 * single use, a bad code answered 200 with {@code error}), {@code /user}, memberships, the
 * organisation with or without two-factor and without the Administration permission, App JWTs
 * checked against the App's public key, installation tokens, paged members with {@code Link}
 * headers, renames, faults, and a webhook sender that signs as the forge does.
 */
public final class TestingForge implements AutoCloseable {
    public static final long APP_ID = 424_242L;
    public static final String CLIENT_ID = "Iv1.klavetest";
    public static final String CLIENT_SECRET = "forge-client-secret-for-tests";
    public static final String ORG = "acme";
    public static final String WEBHOOK_SECRET = "forge-webhook-secret-for-tests";
    private static final long INSTALLATION_ID = 77L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong(5_100_000);

    /** One fault the simulator can play on a family of endpoints. */
    public enum Fault {
        NONE,
        /** 502 from the forge. */
        SERVER_ERROR,
        /** No answer for longer than Klave waits (5 s). */
        TIMEOUT,
        /** The head at once, then a byte every 200 ms. */
        TRICKLE,
        /** The head at once, then a body without end. */
        ENDLESS
    }

    private final TestingBodies bodies = new TestingBodies();

    private final HttpsServer server;
    private final SSLContext clientTls;
    private final KeyPair appKeys;
    private final SecureRandom random = new SecureRandom();
    private final Map<Long, String> users = new ConcurrentHashMap<>();
    private final Map<String, String> memberships = new ConcurrentHashMap<>();
    private final Map<String, Long> codes = new ConcurrentHashMap<>();
    private final Map<String, Long> personTokens = new ConcurrentHashMap<>();
    private final Map<String, Instant> installationTokens = new ConcurrentHashMap<>();
    private final AtomicReference<Long> consenting = new AtomicReference<>();
    private final AtomicReference<Optional<Boolean>> twoFactor = new AtomicReference<>(Optional.of(true));
    private volatile boolean installed = true;
    private volatile boolean deny;
    private volatile boolean codesReusable;
    private volatile int pageSize = 100;
    private volatile int failingPage;
    private final Map<String, Fault> faults = new ConcurrentHashMap<>();
    private final AtomicInteger installationTokensIssued = new AtomicInteger();
    private final AtomicInteger twoFactorQueries = new AtomicInteger();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private final Clock clock;

    private TestingForge(HttpsServer server, SSLContext clientTls, KeyPair appKeys, Clock clock) {
        this.clock = clock;
        this.server = server;
        this.clientTls = clientTls;
        this.appKeys = appKeys;
    }

    /** @param clock the forge's time (App JWTs and installation tokens): the Klave under test's */
    public static TestingForge start(Clock clock) {
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            KeyPair appKeys = rsa.generateKeyPair();
            TestingTls.Pair tls = TestingTls.serverAndClient("forge-simulator");
            SSLContext serverTls = tls.server();
            SSLContext clientTls = tls.client();
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            TestingForge forge = new TestingForge(server, clientTls, appKeys, clock);
            server.createContext("/", forge::handle);
            server.start();
            return forge;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot start the forge simulator", e);
        }
    }

    /** {@code FORGE_URL}, {@code FORGE_API_URL} and the App's settings, for a Klave using this forge. */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("FORGE_URL", url());
        settings.put("FORGE_API_URL", url() + "/api/v3");
        settings.put("FORGE_APP_ID", Long.toString(APP_ID));
        settings.put("FORGE_APP_CLIENT_ID", CLIENT_ID);
        settings.put("FORGE_APP_CLIENT_SECRET", CLIENT_SECRET);
        settings.put("FORGE_APP_PRIVATE_KEY", privateKeyPem());
        settings.put("FORGE_ORG", ORG);
        settings.put("FORGE_WEBHOOK_SECRET", WEBHOOK_SECRET);
        return settings;
    }

    public String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    /** What Klave must trust to talk to this forge. */
    public SSLContext clientTls() {
        return clientTls;
    }

    /** The App's private key as the forge hands it out (PKCS#1 PEM). */
    public String privateKeyPem() {
        try {
            StringWriter text = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
                writer.writeObject(appKeys.getPrivate());
            }
            return text.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // --- the world -------------------------------------------------------------------------

    /** A new forge account; returns its numeric id. */
    public long createUser(String login) {
        long id = IDS.incrementAndGet();
        users.put(id, login);
        return id;
    }

    public void rename(long id, String login) {
        String old = users.put(id, login);
        String state = old == null ? null : memberships.remove(old);
        if (state != null) {
            memberships.put(login, state);
        }
    }

    public String login(long id) {
        return users.get(id);
    }

    public void addMember(long id) {
        memberships.put(users.get(id), "active");
    }

    public void invite(long id) {
        memberships.put(users.get(id), "pending");
    }

    public void removeMember(long id) {
        memberships.remove(users.get(id));
    }

    /** Empty: the App lacks the Administration permission and the field is absent. */
    public void twoFactorRequired(Optional<Boolean> value) {
        twoFactor.set(value);
    }

    /** Uninstalling (or suspending) the App revokes every installation token it had, as the forge does. */
    public void installed(boolean value) {
        installed = value;
        if (!value) {
            installationTokens.clear();
        }
    }

    /** The person the authorization page consents as. */
    public void consentAs(long id) {
        consenting.set(id);
        deny = false;
    }

    /** The person presses "Cancel" on the authorization page. */
    public void denyConsent() {
        deny = true;
    }

    public void pageSize(int size) {
        pageSize = size;
    }

    /** Members page {@code page} (1-based) answers 502; 0 for none. */
    public void failPage(int page) {
        failingPage = page;
    }

    /** A fault on {@code family}: {@code token} (code exchange), {@code user}, {@code membership}, {@code org}, {@code members}, {@code installation}. */
    public void fault(String family, Fault fault) {
        faults.put(family, fault);
    }

    public int installationTokensIssued() {
        return installationTokensIssued.get();
    }

    public int twoFactorQueries() {
        return twoFactorQueries.get();
    }

    /** Every request line the forge received, for tests that check no token reached the URL. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** Whether a code may be exchanged more than once, as some providers allow (the forge does not). */
    public void codesReusable(boolean value) {
        codesReusable = value;
    }

    /** The body bytes the last trickling or endless answer had written when Klave let go of it. */
    public long lastMisbehavingBytes(Duration limit) {
        return bodies.lastWritten(limit);
    }

    /** A code as the authorization page would hand out, for tests that skip the browser. */
    public String issueCode(long id) {
        String code = token("code");
        codes.put(code, id);
        return code;
    }

    /**
     * A person in {@code klave} whose account is linked to a new forge account, a member of the
     * organisation when {@code member}; linked directly, without a browser.
     */
    public Linked linkedPerson(TestingKlave klave, String login, boolean admin, boolean member) {
        dev.klave.account.IssuedLink invitation = klave.accounts().createPerson(
                new dev.klave.account.NewPerson(new dev.klave.account.Login(login), Optional.empty(), Optional.empty(),
                        admin, false), Optional.empty());
        long id = createUser(login + "-gh");
        if (member) {
            addMember(id);
        }
        klave.identities().link(new dev.klave.account.ExternalIdentity(invitation.subject().id(),
                dev.klave.account.ExternalIdentity.Key.forge(id), Optional.of(login + "-gh"), Optional.empty(),
                clock.instant()));
        return new Linked(invitation.subject(), id);
    }

    /** A linked person: the account and its forge account's id. */
    public record Linked(dev.klave.account.Subject subject, long forgeId) {}

    // --- webhook sender --------------------------------------------------------------------

    /** The {@code X-Hub-Signature-256} value the forge sends for {@code body}. */
    public static String sign(byte[] body, String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return "sha256=" + java.util.HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body of an {@code organization}/{@code member_removed} delivery. */
    public byte[] memberRemoved(long id) {
        return json(Map.of("action", "member_removed",
                "membership", Map.of("state", "active", "role", "member",
                        "user", Map.of("id", id, "login", users.getOrDefault(id, "gone"))),
                "organization", Map.of("login", ORG, "id", 1)));
    }

    // --- HTTP ------------------------------------------------------------------------------

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI uri = exchange.getRequestURI();
            requests.add(exchange.getRequestMethod() + " " + uri);
            String path = uri.getPath();
            String method = exchange.getRequestMethod();
            if (method.equals("GET") && path.equals("/login/oauth/authorize")) {
                authorize(exchange, query(uri.getRawQuery()));
            } else if (method.equals("POST") && path.equals("/login/oauth/access_token")) {
                if (!playFault(exchange, "token")) {
                    exchangeCode(exchange, query(new String(exchange.getRequestBody().readAllBytes(),
                            StandardCharsets.UTF_8)));
                }
            } else if (path.startsWith("/api/v3/")) {
                api(exchange, method, path.substring("/api/v3".length()), query(uri.getRawQuery()));
            } else {
                send(exchange, 404, Map.of("message", "Not Found"));
            }
        } catch (RuntimeException e) {
            send(exchange, 500, Map.of("message", String.valueOf(e)));
        }
    }

    private void authorize(HttpExchange exchange, Map<String, String> query) throws IOException {
        String redirect = query.get("redirect_uri");
        String state = query.getOrDefault("state", "");
        if (!CLIENT_ID.equals(query.get("client_id")) || redirect == null) {
            send(exchange, 400, Map.of("message", "bad client or redirect_uri"));
            return;
        }
        String location;
        if (deny || consenting.get() == null) {
            location = redirect + "?error=access_denied&error_description=denied&state=" + encode(state);
        } else {
            location = redirect + "?code=" + encode(issueCode(consenting.get())) + "&state=" + encode(state);
        }
        exchange.getResponseHeaders().add("Location", location);
        exchange.sendResponseHeaders(302, -1);
    }

    private void exchangeCode(HttpExchange exchange, Map<String, String> form) throws IOException {
        if (!CLIENT_ID.equals(form.get("client_id")) || !CLIENT_SECRET.equals(form.get("client_secret"))) {
            send(exchange, 200, Map.of("error", "incorrect_client_credentials"));
            return;
        }
        Long user = codesReusable ? codes.get(form.getOrDefault("code", ""))
                : codes.remove(form.getOrDefault("code", ""));
        if (user == null) {
            // The forge answers a bad, spent or expired code with 200 and an error field.
            send(exchange, 200, Map.of("error", "bad_verification_code",
                    "error_description", "The code passed is incorrect or expired."));
            return;
        }
        String token = token("ghu");
        personTokens.put(token, user);
        send(exchange, 200, Map.of("access_token", token, "token_type", "bearer", "scope", ""));
    }

    private void api(HttpExchange exchange, String method, String path, Map<String, String> query) throws IOException {
        String bearer = bearer(exchange);
        if (method.equals("GET") && path.equals("/user")) {
            if (playFault(exchange, "user")) {
                return;
            }
            Long id = personTokens.get(bearer);
            if (id == null) {
                send(exchange, 401, Map.of("message", "Bad credentials"));
                return;
            }
            send(exchange, 200, Map.of("id", id, "login", users.get(id)));
        } else if (method.equals("GET") && path.equals("/orgs/" + ORG + "/installation")) {
            if (playFault(exchange, "installation") || !appJwtValid(exchange, bearer)) {
                return;
            }
            if (!installed) {
                send(exchange, 404, Map.of("message", "Not Found"));
                return;
            }
            send(exchange, 200, Map.of("id", INSTALLATION_ID, "account", Map.of("login", ORG)));
        } else if (method.equals("POST") && path.equals("/app/installations/" + INSTALLATION_ID + "/access_tokens")) {
            if (!appJwtValid(exchange, bearer)) {
                return;
            }
            if (!installed) {
                send(exchange, 404, Map.of("message", "Not Found"));
                return;
            }
            String token = token("ghs");
            Instant expires = clock.instant().plus(Duration.ofHours(1));
            installationTokens.put(token, expires);
            installationTokensIssued.incrementAndGet();
            send(exchange, 201, Map.of("token", token, "expires_at", expires.toString()));
        } else if (!installationTokenValid(bearer)) {
            send(exchange, 401, Map.of("message", "Bad credentials"));
        } else if (method.equals("GET") && path.startsWith("/orgs/" + ORG + "/memberships/")) {
            if (playFault(exchange, "membership")) {
                return;
            }
            String login = URLDecoder.decode(path.substring(("/orgs/" + ORG + "/memberships/").length()),
                    StandardCharsets.UTF_8);
            String state = memberships.get(login);
            if (state == null) {
                send(exchange, 404, Map.of("message", "Not Found"));
                return;
            }
            send(exchange, 200, Map.of("state", state, "role", "member", "user", Map.of("login", login)));
        } else if (method.equals("GET") && path.equals("/orgs/" + ORG)) {
            twoFactorQueries.incrementAndGet();
            if (playFault(exchange, "org")) {
                return;
            }
            Map<String, Object> org = new LinkedHashMap<>(Map.of("login", ORG, "id", 1));
            twoFactor.get().ifPresent(value -> org.put("two_factor_requirement_enabled", value));
            send(exchange, 200, org);
        } else if (method.equals("GET") && path.equals("/orgs/" + ORG + "/members")) {
            members(exchange, query);
        } else {
            send(exchange, 404, Map.of("message", "Not Found"));
        }
    }

    private void members(HttpExchange exchange, Map<String, String> query) throws IOException {
        if (playFault(exchange, "members")) {
            return;
        }
        int page = Integer.parseInt(query.getOrDefault("page", "1"));
        if (page == failingPage) {
            send(exchange, 502, Map.of("message", "Server Error"));
            return;
        }
        List<Map<String, Object>> all = new ArrayList<>();
        users.forEach((id, login) -> {
            if ("active".equals(memberships.get(login))) {
                all.add(Map.of("id", id, "login", login));
            }
        });
        all.sort((a, b) -> Long.compare((Long) a.get("id"), (Long) b.get("id")));
        int size = pageSize;
        int from = Math.min(all.size(), (page - 1) * size);
        int to = Math.min(all.size(), from + size);
        if (to < all.size()) {
            exchange.getResponseHeaders().add("Link", "<" + url() + "/api/v3/orgs/" + ORG + "/members?per_page="
                    + query.getOrDefault("per_page", "30") + "&page=" + (page + 1) + ">; rel=\"next\", <" + url()
                    + "/api/v3/orgs/" + ORG + "/members?page=" + ((all.size() + size - 1) / size) + ">; rel=\"last\"");
        }
        send(exchange, 200, all.subList(from, to));
    }

    /** The forge checks the App JWT: RS256 by the App's key, issued by the App id, at most 10 minutes long. */
    private boolean appJwtValid(HttpExchange exchange, String bearer) throws IOException {
        try {
            SignedJWT jwt = SignedJWT.parse(bearer);
            JWSVerifier verifier = new RSASSAVerifier((RSAPublicKey) appKeys.getPublic());
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Instant now = clock.instant();
            boolean valid = jwt.verify(verifier) && Long.toString(APP_ID).equals(claims.getIssuer())
                    && claims.getIssueTime() != null && claims.getExpirationTime() != null
                    && !claims.getIssueTime().toInstant().isAfter(now.plusSeconds(5))
                    && claims.getExpirationTime().toInstant().isAfter(now)
                    && Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant())
                            .compareTo(Duration.ofMinutes(10)) <= 0;
            if (!valid) {
                send(exchange, 401, Map.of("message", "A JSON web token could not be decoded"));
            }
            return valid;
        } catch (java.text.ParseException | com.nimbusds.jose.JOSEException e) {
            send(exchange, 401, Map.of("message", "A JSON web token could not be decoded"));
            return false;
        }
    }

    private boolean installationTokenValid(String bearer) {
        Instant expires = installationTokens.get(bearer);
        return expires != null && expires.isAfter(clock.instant());
    }

    private boolean playFault(HttpExchange exchange, String family) throws IOException {
        Fault fault = faults.getOrDefault(family, Fault.NONE);
        switch (fault) {
            case NONE -> {
                return false;
            }
            case SERVER_ERROR -> send(exchange, 502, Map.of("message", "Server Error"));
            case TIMEOUT -> {
                try {
                    Thread.sleep(Duration.ofSeconds(7)); // the forge's TIMEOUT fault: it answers too late
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                send(exchange, 502, Map.of("message", "too late"));
            }
            case TRICKLE -> bodies.play(exchange, TestingBodies.Misbehaviour.TRICKLE);
            case ENDLESS -> bodies.play(exchange, TestingBodies.Misbehaviour.ENDLESS);
        }
        return true;
    }

    private static String bearer(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        return header != null && header.startsWith("Bearer ") ? header.substring(7) : "";
    }

    private static void send(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = json(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return values;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            values.putIfAbsent(name, value);
        }
        return values;
    }

    private String token(String prefix) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return prefix + "_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
