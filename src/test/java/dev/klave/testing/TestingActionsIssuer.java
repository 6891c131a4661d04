package dev.klave.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;

/**
 * A real OIDC issuer in the test JVM (mock-oauth2-server: discovery document and JWKS over HTTP)
 * standing in for the forge's Actions token service, with a signing key the test holds, so a test
 * can mint tokens with exactly the claims — and the flaws — it needs. Tokens carry every claim
 * the forge sends in an Actions ID token.
 */
public final class TestingActionsIssuer implements AutoCloseable {
    public static final String ISSUER_ID = "actions";
    public static final long OWNER_ID = 4_100_001L;
    public static final long REPOSITORY_ID = 7_200_002L;

    private static final AtomicLong RUNS = new AtomicLong(9_000_000_000L);

    private final MockOAuth2Server server;
    private final RSAKey key;
    private final Clock clock;

    private TestingActionsIssuer(MockOAuth2Server server, RSAKey key, Clock clock) {
        this.server = server;
        this.key = key;
        this.clock = clock;
    }

    /** @param clock the time tokens are issued at (the Klave under test should share it) */
    public static TestingActionsIssuer start(Clock clock) {
        // The server names each issuer's key after the issuer, so the kid is the issuer id.
        RSAKey key = newKey(ISSUER_ID);
        // The first issuer the server is asked about takes the first of these keys.
        OAuth2TokenProvider tokens = new OAuth2TokenProvider(new KeyProvider(List.<JWK>of(key), "RS256"));
        MockOAuth2Server server = new MockOAuth2Server(new OAuth2Config(false, null, null, false, tokens));
        server.start();
        server.issuerUrl(ISSUER_ID);
        return new TestingActionsIssuer(server, key, clock);
    }

    public static RSAKey newKey(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code iss} of this issuer's tokens; its discovery document lives below it. */
    public String issuer() {
        return server.issuerUrl(ISSUER_ID).toString();
    }

    /** Another issuer on the same server, with keys of its own. */
    public String otherIssuer() {
        return server.issuerUrl("other-issuer").toString();
    }

    /** The claims of a push to main of the standard test repository, for {@code audience}. */
    public Map<String, Object> claims(String audience) {
        Instant now = clock.instant();
        String runId = Long.toString(RUNS.incrementAndGet());
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("jti", UUID.randomUUID().toString());
        claims.put("sub", "repo:acme/deploy:ref:refs/heads/main");
        claims.put("aud", audience);
        claims.put("ref", "refs/heads/main");
        claims.put("sha", "4f1c2a9d0e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a");
        claims.put("repository", "acme/deploy");
        claims.put("repository_owner", "acme");
        claims.put("repository_owner_id", Long.toString(OWNER_ID));
        claims.put("run_id", runId);
        claims.put("run_number", "42");
        claims.put("run_attempt", "1");
        claims.put("repository_visibility", "private");
        claims.put("repository_id", Long.toString(REPOSITORY_ID));
        claims.put("actor_id", "5100003");
        claims.put("actor", "octo-dev");
        claims.put("workflow", "deploy");
        claims.put("head_ref", "");
        claims.put("base_ref", "");
        claims.put("event_name", "push");
        claims.put("ref_protected", "true");
        claims.put("ref_type", "branch");
        claims.put("workflow_ref", "acme/deploy/.github/workflows/deploy.yml@refs/heads/main");
        claims.put("workflow_sha", "4f1c2a9d0e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a");
        claims.put("job_workflow_ref", "acme/deploy/.github/workflows/deploy.yml@refs/heads/main");
        claims.put("job_workflow_sha", "4f1c2a9d0e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a");
        claims.put("runner_environment", "github-hosted");
        claims.put("iss", issuer());
        claims.put("nbf", now.minusSeconds(5));
        claims.put("iat", now);
        claims.put("exp", now.plus(Duration.ofMinutes(5)));
        return claims;
    }

    /** Signs {@code claims} with this issuer's key, RS256, as the forge does. */
    public String sign(Map<String, Object> claims) {
        return sign(claims, key);
    }

    /** Signs with any RSA key, under that key's {@code kid}. */
    public static String sign(Map<String, Object> claims, RSAKey signingKey) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT)
                    .keyID(signingKey.getKeyID()).build(), claimsSet(claims));
            jwt.sign(new RSASSASigner(signingKey));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** HS256 with the issuer's public modulus as the secret: the classic algorithm-confusion attack. */
    public String signHs256(Map<String, Object> claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT)
                    .keyID(key.getKeyID()).build(), claimsSet(claims));
            jwt.sign(new MACSigner(key.toPublicJWK().toJSONString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsecured token ({@code "alg": "none"}) with an empty signature part. */
    public static String unsigned(Map<String, Object> claims) {
        String header = Base64URL.encode("{\"alg\":\"none\",\"typ\":\"JWT\"}").toString();
        return header + "." + Base64URL.encode(claimsSet(claims).toString()).toString() + ".";
    }

    private static JWTClaimsSet claimsSet(Map<String, Object> claims) {
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder();
        claims.forEach((name, value) -> builder.claim(name, value instanceof Instant instant ? Date.from(instant) : value));
        return builder.build();
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
