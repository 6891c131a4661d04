package dev.klave.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The person's browser in the agent login (spec 3 §4 "Agent login"), as the tests' real OAuth
 * clients meet it: it opens the authorization URL the client printed, follows Klave to the consent
 * page, decides there through the page's own API with the person's signed-in session (the
 * {@code service_session} cookie of a real sign-in), and follows the answer to the client's
 * loopback callback. Nothing in Klave consents on its own: without this person and their grant
 * the client waits.
 */
final class ConsentingBrowser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    private final String base;
    private final String session;

    /**
     * @param base Klave's base URL
     * @param session the {@code Cookie} header of the person's signed-in session
     */
    ConsentingBrowser(String base, String session) {
        this.base = base;
        this.session = session;
    }

    /**
     * What the person saw and what the client's callback answered.
     *
     * @param consent the consent page's view (client, redirect_uri, the permissions the person may give)
     * @param redirect where Klave sent the browser with the decision
     * @param callback the client's answer at that address
     */
    record Visit(JsonNode consent, String redirect, HttpResponse<String> callback) {}

    /**
     * Opens {@code authorizationUrl} (which must be Klave's authorization endpoint) and approves with
     * {@code permissions} (a JSON array of {@code {cluster, role, scope}}), writes not held for approval.
     */
    Visit approve(String authorizationUrl, String permissions) {
        return decide(authorizationUrl, "{\"approve\":true,\"permissions\":" + permissions
                + ",\"writes_need_approval\":false}");
    }

    /** Opens {@code authorizationUrl} and denies. */
    Visit deny(String authorizationUrl) {
        return decide(authorizationUrl, "{\"approve\":false}");
    }

    private Visit decide(String authorizationUrl, String decision) {
        if (!authorizationUrl.startsWith(base + "/oauth/authorize?")) {
            throw new AssertionError("the client sent the person elsewhere than Klave's authorization endpoint: "
                    + authorizationUrl);
        }
        HttpResponse<String> authorize = send("GET", authorizationUrl, null, false);
        String page = authorize.headers().firstValue("Location").map(location -> URI.create(base).resolve(location)
                .toString()).orElseThrow(() -> new AssertionError("the authorization endpoint did not send the "
                        + "browser on: " + authorize.statusCode() + " " + authorize.body()));
        if (authorize.statusCode() != 302 || !page.startsWith(base + "/agents/authorize/")) {
            throw new AssertionError("expected the consent page, got " + authorize.statusCode() + " " + page);
        }
        expect(200, send("GET", page, null, true));
        String api = base + "/api" + page.substring(base.length());
        JsonNode consent = read(expect(200, send("GET", api, null, true)));
        String redirect = read(expect(200, send("POST", api, decision, true))).path("redirect").asText();
        return new Visit(consent, redirect, send("GET", redirect, null, false));
    }

    private HttpResponse<String> send(String method, String url, String body, boolean signedIn) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (signedIn) {
            request.header("Cookie", session);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + " from " + response.request().method() + " "
                    + response.uri() + ": " + response.statusCode() + " " + response.body());
        }
        return response;
    }

    private static JsonNode read(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
