package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.IOException;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.Map;

/**
 * Reads the issuer's OpenID discovery document, checks that it names the configured issuer
 * exactly, then reads the key set at its {@code jwks_uri} (OpenID Connect Discovery 1.0 §4).
 * Both requests are bounded in time and size.
 */
public final class DiscoveryKeyFetcher implements IssuerKeys.Fetcher {
    private static final int SIZE_LIMIT = 256 * 1024;

    private final String issuer;
    private final DefaultResourceRetriever retriever;

    public DiscoveryKeyFetcher(URI issuer, Duration timeout) {
        this.issuer = requireNonNull(issuer, "issuer is null").toString();
        int millis = Math.toIntExact(requireNonNull(timeout, "timeout is null").toMillis());
        this.retriever = new DefaultResourceRetriever(millis, millis, SIZE_LIMIT);
    }

    @Override
    public JWKSet fetch() throws IOException {
        String discoveryUrl = withoutTrailingSlash(issuer) + "/.well-known/openid-configuration";
        try {
            Map<String, Object> discovery = JSONObjectUtils.parse(get(discoveryUrl));
            String announced = JSONObjectUtils.getString(discovery, "issuer");
            if (!issuer.equals(announced)) {
                throw new IOException(discoveryUrl + " names issuer " + announced + ", not " + issuer);
            }
            String jwksUri = JSONObjectUtils.getString(discovery, "jwks_uri");
            if (jwksUri == null) {
                throw new IOException(discoveryUrl + " has no jwks_uri");
            }
            return JWKSet.parse(get(jwksUri));
        } catch (ParseException e) {
            throw new IOException("unreadable answer from the CI issuer: " + e.getMessage(), e);
        }
    }

    private String get(String url) throws IOException {
        return retriever.retrieveResource(URI.create(url).toURL()).getContent();
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
