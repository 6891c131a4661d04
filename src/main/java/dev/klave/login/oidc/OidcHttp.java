package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import dev.klave.messages.Untrusted;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Every call to the provider, through the JDK's client: the TLS trust of {@code SSL_CERT_FILE}
 * added to the public CAs, 5 s to connect and 5 s for the answer, answers bounded in size, no
 * redirects. Requests are built by the Nimbus SDK ({@link HTTPRequest}) and answered as its
 * {@link HTTPResponse}, so its parsers read them.
 */
final class OidcHttp {
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int ANSWER_LIMIT = 512 * 1024;

    private final HttpClient client;

    OidcHttp(SSLContext tls) {
        this.client = HttpClient.newBuilder()
                .sslContext(requireNonNull(tls, "tls is null"))
                .connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    HTTPResponse send(HTTPRequest request, String what) throws ProviderUnavailableException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(request.getURL().toString()))
                .timeout(TIMEOUT);
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
        HttpResponse<byte[]> answer;
        try {
            answer = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new ProviderUnavailableException(what + ": no answer within " + TIMEOUT.toSeconds() + " s", e);
        } catch (IOException e) {
            throw new ProviderUnavailableException(what + ": " + Untrusted.failure(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProviderUnavailableException(what + ": interrupted", e);
        }
        if (answer.body().length > ANSWER_LIMIT) {
            throw new ProviderUnavailableException(what + ": answer larger than " + ANSWER_LIMIT + " bytes");
        }
        HTTPResponse response = new HTTPResponse(answer.statusCode());
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
