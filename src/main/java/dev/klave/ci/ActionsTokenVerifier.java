package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Checks an Actions ID token (spec 1 §4 "CI exchange rules" 1). The cheap checks come first —
 * shape, algorithm, issuer, audience, time, claims — so a token that fails them costs no key
 * fetch; then the RS256 signature against the issuer's keys. Every failure says exactly why, for
 * the log and the {@code ci.exchange.failure} event; the caller only ever learns "token no válido".
 */
public final class ActionsTokenVerifier {
    /** Tolerated difference between the forge's clock and ours, in both directions. */
    public static final Duration CLOCK_SKEW = Duration.ofSeconds(60);

    private static final List<String> REQUIRED = List.of("repository_owner_id", "repository_id", "repository", "ref",
            "run_id", "actor");

    private final String issuer;
    private final String audience;
    private final JWKSource<SecurityContext> keys;
    private final Clock clock;

    /** @param audience {@code SERVICE_BASE_URL}, compared character for character */
    public ActionsTokenVerifier(String issuer, String audience, JWKSource<SecurityContext> keys, Clock clock) {
        this.issuer = requireNonNull(issuer, "issuer is null");
        this.audience = requireNonNull(audience, "audience is null");
        this.keys = requireNonNull(keys, "keys is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A token that does not verify; the message is the exact reason. */
    public static final class InvalidTokenException extends Exception {
        InvalidTokenException(String reason) {
            super(reason);
        }
    }

    /**
     * @throws InvalidTokenException when anything about the token is wrong
     * @throws IssuerKeys.KeysUnavailableException when no key of the issuer could ever be had
     */
    public ActionsClaims verify(String token) throws InvalidTokenException, IssuerKeys.KeysUnavailableException {
        SignedJWT jwt = parse(token);
        JWSAlgorithm algorithm = jwt.getHeader().getAlgorithm();
        if (!JWSAlgorithm.RS256.equals(algorithm)) {
            throw new InvalidTokenException("algorithm " + algorithm + " is not accepted (RS256 only)");
        }
        JWTClaimsSet claims = claims(jwt);
        if (!issuer.equals(claims.getIssuer())) {
            throw new InvalidTokenException("issuer " + claims.getIssuer() + " is not " + issuer);
        }
        // Spec 1: the audience is the base URL — equal, not among others: a token minted for
        // several relying parties is a token any of them could replay here.
        List<String> audiences = claims.getAudience();
        if (audiences.size() != 1 || !audiences.get(0).equals(audience)) {
            throw new InvalidTokenException("audience " + audiences + " is not exactly " + audience);
        }
        Instant now = clock.instant();
        Date expiry = claims.getExpirationTime();
        if (expiry == null) {
            throw new InvalidTokenException("no exp claim");
        }
        if (!now.isBefore(expiry.toInstant().plus(CLOCK_SKEW))) {
            throw new InvalidTokenException("expired at " + expiry.toInstant());
        }
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now.plus(CLOCK_SKEW).isBefore(notBefore.toInstant())) {
            throw new InvalidTokenException("not valid before " + notBefore.toInstant());
        }
        Date issuedAt = claims.getIssueTime();
        if (issuedAt != null && now.plus(CLOCK_SKEW).isBefore(issuedAt.toInstant())) {
            // Issued in the future, beyond the skew: no issuer's clock is that far ahead.
            throw new InvalidTokenException("issued in the future, at " + issuedAt.toInstant());
        }
        String jti = claims.getJWTID();
        if (jti == null || jti.isBlank()) {
            throw new InvalidTokenException("no jti claim");
        }
        for (String name : REQUIRED) {
            if (text(claims, name).isEmpty()) {
                throw new InvalidTokenException("no " + name + " claim");
            }
        }
        verifySignature(jwt);
        return new ActionsClaims(jti, expiry.toInstant(), text(claims, "repository_owner_id"),
                text(claims, "repository_id"), text(claims, "repository"), text(claims, "ref"),
                text(claims, "environment"), text(claims, "run_id"), text(claims, "actor"));
    }

    private void verifySignature(SignedJWT jwt) throws InvalidTokenException, IssuerKeys.KeysUnavailableException {
        List<JWK> candidates;
        try {
            candidates = keys.get(new JWKSelector(JWKMatcher.forJWSHeader(jwt.getHeader())), null);
        } catch (IssuerKeys.KeysUnavailableException e) {
            throw e;
        } catch (KeySourceException e) {
            throw new InvalidTokenException("issuer keys unavailable: " + e.getMessage());
        }
        if (candidates.isEmpty()) {
            throw new InvalidTokenException("no key of the issuer matches kid " + jwt.getHeader().getKeyID());
        }
        for (JWK candidate : candidates) {
            if (candidate instanceof RSAKey rsa && verifies(jwt, rsa)) {
                return;
            }
        }
        throw new InvalidTokenException("bad signature (kid " + jwt.getHeader().getKeyID() + ")");
    }

    private static boolean verifies(SignedJWT jwt, RSAKey key) {
        try {
            return jwt.verify(new RSASSAVerifier(key));
        } catch (JOSEException e) {
            return false;
        }
    }

    private static SignedJWT parse(String token) throws InvalidTokenException {
        try {
            // A JWS only: "alg": "none" and encrypted tokens fail here.
            return SignedJWT.parse(token);
        } catch (ParseException e) {
            throw new InvalidTokenException("not a signed JWT: " + e.getMessage());
        }
    }

    private static JWTClaimsSet claims(SignedJWT jwt) throws InvalidTokenException {
        try {
            return jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new InvalidTokenException("unreadable claims: " + e.getMessage());
        }
    }

    /** A string claim; the forge sends ids as strings, but a number is read the same way. */
    private static String text(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        if (value instanceof String string) {
            return string;
        }
        if (value instanceof Number number) {
            return number.toString();
        }
        return "";
    }
}
