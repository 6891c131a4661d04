package bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Klave's /api as an administrator's script uses it: a session cookie and the Origin of the base URL. */
final class Api {
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().sslContext(Tls.CONTEXT)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private String cookie = "";

    Api(String base) {
        this.base = base;
    }

    Api signedIn(String cookie) {
        this.cookie = cookie;
        return this;
    }

    String cookie() {
        return cookie;
    }

    JsonNode send(String method, String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = raw(method, path, body);
        if (response.statusCode() / 100 != 2) {
            throw new IOException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        response.headers().firstValue("Set-Cookie").ifPresent(set -> cookie = set.substring(0, set.indexOf(';')));
        return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
    }

    HttpResponse<String> raw(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Origin", base)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (!cookie.isEmpty()) {
            request.header("Cookie", cookie);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
