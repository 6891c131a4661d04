package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.OutboundHttp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Every call to the provider: the TLS trust of {@code SSL_CERT_FILE} added to the public CAs, no
 * redirects, and each call bounded by {@link OutboundHttp} — 5 s for all of it (connecting, the
 * head and the whole body) and 512 KiB of answer, counted while reading. A provider that trickles
 * or sends without end is {@code provider_unavailable} at once after that, and a discovery fetch
 * records why. Requests are built by the Nimbus SDK ({@link HTTPRequest}) and answered as its
 * {@link HTTPResponse}, so its parsers read them.
 */
final class OidcHttp {
    static final Duration DEADLINE = Duration.ofSeconds(5);
    static final int ANSWER_LIMIT = 512 * 1024;

    private final OutboundHttp http;

    OidcHttp(SSLContext tls) {
        this(OutboundHttp.over(tls, DEADLINE, ANSWER_LIMIT));
    }

    OidcHttp(OutboundHttp http) {
        this.http = requireNonNull(http, "http is null");
    }

    HTTPResponse send(HTTPRequest request, String what) throws ProviderUnavailableException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(request.getURL().toString()));
        @SuppressWarnings("unchecked")
        Map<String, List<String>> headers = request.getHeaderMap();
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            for (String value : header.getValue()) {
                builder.header(header.getKey(), value);
            }
        }
        String body = request.getBody();
        builder.method(request.getMethod().name(), body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        Answer answer;
        try {
            answer = http.send(builder.build());
        } catch (OutboundFailure e) {
            throw new ProviderUnavailableException(what + ": " + e.getMessage(), e);
        }
        HTTPResponse response = new HTTPResponse(answer.status());
        answer.headers().map().forEach((name, values) -> {
            if (!values.isEmpty() && !name.startsWith(":")) {
                response.setHeader(name, values.toArray(String[]::new));
            }
        });
        response.setBody(new String(answer.body(), StandardCharsets.UTF_8));
        return response;
    }

    /** A GET that must answer 200 with a body; the body. */
    String get(URI uri, String what) throws ProviderUnavailableException {
        HTTPResponse response;
        try {
            response = send(new HTTPRequest(HTTPRequest.Method.GET, uri.toURL()), what);
        } catch (java.net.MalformedURLException e) {
            throw new ProviderUnavailableException(what + ": not a URL", e);
        }
        if (response.getStatusCode() != 200) {
            throw new ProviderUnavailableException(what + ": HTTP " + response.getStatusCode());
        }
        return response.getBody();
    }
}
