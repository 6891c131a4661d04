package dev.klave.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * An OpenID Connect provider with the habits real ones have and mock servers do not: ID tokens
 * signed HS256, tokens without a key id (with one or two published keys), a hosted-domain
 * provider ({@code hd} in {@code claims_supported}), tenant-style claims ({@code oid},
 * {@code xms_edov}), an issuer with a trailing slash, an e-mail only in userinfo, a discovery
 * document that is down, codes that can be exchanged twice, answers that trickle or never end
 * ({@link #misbehave}). Over HTTPS with its own CA ({@link #caFile()}, for {@code SSL_CERT_FILE}).
 */
public final class TestingOddProvider implements AutoCloseable {
    public static final String CLIENT_ID = "klave-odd";
    public static final String CLIENT_SECRET = "an-hs256-secret-of-at-least-32-bytes!";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How ID tokens are signed. */
    public enum Signing {
        RS256,
        RS256_WITHOUT_KID,
        HS256
    }

    private final HttpsServer server;
    private final Path caFile;
    private final String issuer;
    private final List<RSAKey> keys;
    private final Map<String, String> nonces = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> userInfos = new ConcurrentHashMap<>();
    private final List<String> tokenRequests = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile Signing signing = Signing.RS256;
    private volatile Map<String, Object> nextClaims = Map.of();
    private volatile Map<String, Object> nextUserInfo = Map.of();
    private volatile boolean discoveryUp = true;
    private volatile boolean hostedDomain;
    private volatile boolean codesReusable;
    private final Map<String, TestingBodies.Misbehaviour> misbehaving = new ConcurrentHashMap<>();
    private final TestingBodies bodies = new TestingBodies();

    private TestingOddProvider(HttpsServer server, Path caFile, String issuer, List<RSAKey> keys) {
        this.server = server;
        this.caFile = caFile;
        this.issuer = issuer;
        this.keys = keys;
    }

    /**
     * @param issuerPath the issuer's path, e.g. {@code /tenant} or {@code /tenant/} (trailing slash)
     * @param publishedKeys how many RSA signing keys the key set holds (the first signs)
     */
    public static TestingOddProvider start(String issuerPath, int publishedKeys) {
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            KeyPair tlsKeys = rsa.generateKeyPair();
            X509Certificate certificate = TestingTls.selfSigned("odd-provider", tlsKeys, "SHA256withRSA");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("odd", tlsKeys.getPrivate(), new char[0], new X509Certificate[] {certificate});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(store, new char[0]);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(keyManagers.getKeyManagers(), null, null);
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            Path caFile = Files.createTempDirectory("klave-odd-").resolve("ca.pem");
            StringWriter pem = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(pem)) {
                writer.writeObject(certificate);
            }
            Files.writeString(caFile, pem.toString());
            List<RSAKey> keys = new ArrayList<>();
            for (int i = 0; i < publishedKeys; i++) {
                keys.add(new RSAKeyGenerator(2048).keyID("key-" + i).keyUse(KeyUse.SIGNATURE).generate());
            }
            String issuer = "https://127.0.0.1:" + server.getAddress().getPort() + issuerPath;
            TestingOddProvider provider = new TestingOddProvider(server, caFile, issuer, keys);
            server.createContext("/", provider::handle);
            server.start();
            return provider;
        } catch (GeneralSecurityException | IOException | JOSEException e) {
            throw new IllegalStateException("cannot start the provider", e);
        }
    }

    public String issuer() {
        return issuer;
    }

    public Path caFile() {
        return caFile;
    }

    /** The settings of a Klave signing people in here (a confidential client unless {@code publicClient}). */
    public Map<String, String> settings(boolean publicClient) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("OIDC_ISSUER", issuer);
        settings.put("OIDC_CLIENT_ID", CLIENT_ID);
        if (!publicClient) {
            settings.put("OIDC_CLIENT_SECRET", CLIENT_SECRET);
        }
        settings.put("OIDC_ALLOWED_DOMAINS", "example.com");
        settings.put("SSL_CERT_FILE", caFile.toString());
        return settings;
    }

    public void signing(Signing value) {
        signing = value;
    }

    public void hostedDomain(boolean value) {
        hostedDomain = value;
    }

    /** Whether a code may be exchanged more than once (OAuth 2.0 says no; some providers allow it). */
    public void codesReusable(boolean value) {
        codesReusable = value;
    }

    public void discoveryUp(boolean value) {
        discoveryUp = value;
    }

    /** The claims of the next ID token (besides iss, aud, exp, iat, nonce); {@code sub} included. */
    public void nextSignIn(Map<String, Object> claims, Map<String, Object> userInfo) {
        nextClaims = Map.copyOf(claims);
        nextUserInfo = Map.copyOf(userInfo);
    }

    /**
     * From now on {@code endpoint} ({@code discovery}, {@code jwks}, {@code token} or
     * {@code userinfo}) answers its head at once and then its body as {@code how} says; empty for
     * answering well again.
     */
    public void misbehave(String endpoint, java.util.Optional<TestingBodies.Misbehaviour> how) {
        how.ifPresentOrElse(value -> misbehaving.put(endpoint, value), () -> misbehaving.remove(endpoint));
    }

    /** The body bytes the last misbehaving answer had written when Klave let go of it. */
    public long lastMisbehavingBytes(java.time.Duration limit) {
        return bodies.lastWritten(limit);
    }

    /** The bodies and Authorization headers of the token requests received, in order. */
    public List<String> tokenRequests() {
        return List.copyOf(tokenRequests);
    }

    private String base() {
        return issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String prefix = java.net.URI.create(base()).getPath();
            String local = path.startsWith(prefix) ? path.substring(prefix.length()) : path;
            TestingBodies.Misbehaviour how = misbehaving.get(switch (local) {
                case "/.well-known/openid-configuration" -> "discovery";
                default -> local.substring(1);
            });
            if (how != null) {
                bodies.play(exchange, how);
                return;
            }
            switch (local) {
                case "/.well-known/openid-configuration" -> discovery(exchange);
                case "/jwks" -> send(exchange, 200, new JWKSet(new ArrayList<>(keys.stream()
                        .map(RSAKey::toPublicJWK).toList())).toJSONObject());
                case "/authorize" -> authorize(exchange);
                case "/token" -> token(exchange);
                case "/userinfo" -> userInfo(exchange);
                default -> send(exchange, 404, Map.of("error", "not_found"));
            }
        } catch (RuntimeException | JOSEException e) {
            send(exchange, 500, Map.of("error", String.valueOf(e)));
        }
    }

    private void discovery(HttpExchange exchange) throws IOException {
        if (!discoveryUp) {
            send(exchange, 503, Map.of("error", "down"));
            return;
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("issuer", issuer);
        document.put("authorization_endpoint", base() + "/authorize");
        document.put("token_endpoint", base() + "/token");
        document.put("userinfo_endpoint", base() + "/userinfo");
        document.put("jwks_uri", base() + "/jwks");
        document.put("response_types_supported", List.of("code"));
        document.put("subject_types_supported", List.of("public"));
        document.put("id_token_signing_alg_values_supported", List.of("RS256"));
        document.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic", "none"));
        document.put("claims_supported", hostedDomain ? List.of("sub", "email", "hd") : List.of("sub", "email"));
        send(exchange, 200, document);
    }

    private void authorize(HttpExchange exchange) throws IOException {
        Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
        String code = UUID.randomUUID().toString();
        nonces.put(code, query.getOrDefault("nonce", ""));
        exchange.getResponseHeaders().add("Location", query.get("redirect_uri") + "?code=" + code + "&state="
                + URLEncoder.encode(query.getOrDefault("state", ""), StandardCharsets.UTF_8));
        exchange.sendResponseHeaders(302, -1);
    }

    private void token(HttpExchange exchange) throws IOException, JOSEException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        tokenRequests.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")) + " " + body);
        String code = form(body).getOrDefault("code", "");
        String nonce = codesReusable ? nonces.get(code) : nonces.remove(code);
        if (nonce == null) {
            send(exchange, 400, Map.of("error", "invalid_grant"));
            return;
        }
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).audience(CLIENT_ID)
                .issueTime(Date.from(Instant.now())).expirationTime(Date.from(Instant.now().plusSeconds(600)))
                .claim("nonce", nonce);
        nextClaims.forEach(claims::claim);
        JWTClaimsSet set = claims.build();
        SignedJWT token = switch (signing) {
            case RS256 -> new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(keys.getFirst().getKeyID())
                    .build(), set);
            case RS256_WITHOUT_KID -> new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), set);
            case HS256 -> new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), set);
        };
        if (signing == Signing.HS256) {
            token.sign(new MACSigner(CLIENT_SECRET.getBytes(StandardCharsets.UTF_8)));
        } else {
            token.sign(new RSASSASigner(keys.getFirst()));
        }
        String accessToken = UUID.randomUUID().toString();
        userInfos.put(accessToken, nextUserInfo);
        send(exchange, 200, Map.of("access_token", accessToken, "token_type", "Bearer", "expires_in", 600,
                "id_token", token.serialize()));
    }

    private void userInfo(HttpExchange exchange) throws IOException {
        String header = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
        Map<String, Object> info = userInfos.get(header.startsWith("Bearer ") ? header.substring(7) : "");
        if (info == null) {
            send(exchange, 401, Map.of("error", "invalid_token"));
            return;
        }
        send(exchange, 200, info);
    }

    private static Map<String, String> form(String raw) {
        Map<String, String> values = new LinkedHashMap<>();
        if (raw == null) {
            return values;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                values.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    private static void send(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
