package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.JSONObjectUtils;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.OutboundHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.text.ParseException;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Reads the issuer's OpenID discovery document, checks that it names the configured issuer
 * exactly, then reads the key set at its {@code jwks_uri} (OpenID Connect Discovery 1.0 §4).
 * Each request is bounded by {@link OutboundHttp}: 5 s in all and 256 KiB of answer, so an issuer
 * that trickles or sends without end fails the fetch instead of holding it.
 */
public final class DiscoveryKeyFetcher implements IssuerKeys.Fetcher {
    static final Duration DEADLINE = Duration.ofSeconds(5);
    static final int ANSWER_LIMIT = 256 * 1024;

    private final String issuer;
    private final OutboundHttp http;

    /** @param tls what the issuer's certificate must chain to (the public CAs, and {@code SSL_CERT_FILE}'s) */
    public DiscoveryKeyFetcher(URI issuer, SSLContext tls) {
        this(issuer, OutboundHttp.over(tls, DEADLINE, ANSWER_LIMIT));
    }

    DiscoveryKeyFetcher(URI issuer, OutboundHttp http) {
        this.issuer = requireNonNull(issuer, "issuer is null").toString();
        this.http = requireNonNull(http, "http is null");
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
        Answer answer;
        try {
            answer = http.send(HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json").GET()
                    .build());
        } catch (OutboundFailure e) {
            throw new IOException(url + ": " + e.getMessage(), e);
        }
        if (answer.status() != 200) {
            throw new IOException(url + ": HTTP " + answer.status());
        }
        return answer.text();
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
