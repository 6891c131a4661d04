package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Duration;

/**
 * How the CI exchange (spec 1 §4 "CI and forge") trusts Actions ID tokens.
 *
 * @param issuer the {@code iss} every token must carry, character for character; its discovery
 *     document is read from {@code <issuer>/.well-known/openid-configuration}
 * @param credentialTtl lifetime of the credential an exchange issues
 */
public record CiExchangeSettings(URI issuer, Duration credentialTtl) {
    /** The forge's public Actions issuer. */
    public static final String PUBLIC_ISSUER = "https://token.actions.githubusercontent.com";

    public CiExchangeSettings {
        requireNonNull(issuer, "issuer is null");
        requireNonNull(credentialTtl, "credentialTtl is null");
        if (credentialTtl.isZero() || credentialTtl.isNegative()) {
            throw new IllegalArgumentException("credentialTtl must be positive");
        }
    }

    /** A self-hosted forge serves its Actions tokens under {@code /_services/token}. */
    public static String issuerOf(String forgeUrl) {
        String base = forgeUrl.strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return base + "/_services/token";
    }

    /** An absolute http(s) URL without query or fragment. */
    public static URI parseIssuer(String text) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("must be an http(s) URL");
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("must be an http(s) URL without query or fragment");
        }
        return uri;
    }
}
