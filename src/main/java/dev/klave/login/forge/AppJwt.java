package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.interfaces.RSAPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * The JSON Web Token a forge App signs to act as itself (RS256 with the App's private key):
 * issued 60 s in the past, so a forge clock a little ahead still accepts it, valid 9 minutes
 * (the forge refuses more than 10), issued by the App id.
 */
final class AppJwt {
    static final Duration BACKDATE = Duration.ofSeconds(60);
    static final Duration LIFETIME = Duration.ofMinutes(9);

    private final long appId;
    private final RSASSASigner signer;
    private final Clock clock;

    AppJwt(long appId, RSAPrivateKey privateKey, Clock clock) {
        this.appId = appId;
        this.signer = new RSASSASigner(requireNonNull(privateKey, "privateKey is null"));
        this.clock = requireNonNull(clock, "clock is null");
    }

    String sign() {
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(Long.toString(appId))
                .issueTime(Date.from(now.minus(BACKDATE)))
                .expirationTime(Date.from(now.plus(LIFETIME)))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign the App JWT", e);
        }
        return jwt.serialize();
    }
}
