package dev.klave.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A browser as far as sign-in needs one (forge or OIDC): follows redirects between Klave and the forge simulator
 * one hop at a time, keeps cookies with their paths (the state cookie goes to the callback only),
 * and sends every request from one client address ({@code X-Forwarded-For}, Klave trusting the
 * loopback as a proxy), so each test has a per-address limit of its own.
 */
public final class SignInBrowser {
    /** The default base URL, which tests that listen on a free port leave as it is. */
    static final String BASE_URL = "http://localhost:8080";
    private final HttpClient client;
    private final String klave;
    private final String address;
    private final Map<String, Cookie> cookies = new LinkedHashMap<>();

    private record Cookie(String value, String path) {}

    /**
     * @param providerTls what the browser trusts when it visits the provider (the forge or the
     *     OIDC simulator)
     */
    public SignInBrowser(javax.net.ssl.SSLContext providerTls, int klavePort, String address) {
        this.client = HttpClient.newBuilder().sslContext(providerTls).connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
        this.klave = "http://127.0.0.1:" + klavePort;
        this.address = address;
    }

    /** One hop: the answer, its cookies stored. */
    public HttpResponse<String> send(String method, String url, String body) {
        // Klave's base URL is the default (http://localhost:8080) while it listens on a free port.
        String local = url.startsWith(BASE_URL) ? url.substring(BASE_URL.length()) : url;
        URI uri = URI.create(local.startsWith("/") ? klave + local : local);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (uri.toString().startsWith(klave)) {
            request.header("X-Forwarded-For", address);
            String header = cookieHeader(uri.getPath());
            if (!header.isEmpty()) {
                request.header("Cookie", header);
            }
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (uri.toString().startsWith(klave)) {
                response.headers().allValues("Set-Cookie").forEach(this::store);
            }
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> get(String url) {
        return send("GET", url, null);
    }

    /** Follows redirects from {@code url} until an answer that is not one; returns the last Location seen. */
    public String follow(String url) {
        String next = url;
        String last = url;
        for (int hop = 0; hop < 10; hop++) {
            HttpResponse<String> response = get(next);
            if (response.statusCode() != 302) {
                return last;
            }
            last = response.headers().firstValue("Location").orElseThrow();
            if (last.startsWith("/") && !last.startsWith("/api/")) {
                // A page of the web interface: the sign-in is over.
                return last;
            }
            next = last;
        }
        throw new AssertionError("too many redirects from " + url);
    }

    /** Sign-in from the login page's forge button to where the browser lands. */
    public String signIn() {
        return follow("/api/auth/forge/login");
    }

    /** Sign-in from the login page's OIDC button to where the browser lands. */
    public String signInWithOidc() {
        return follow("/api/auth/oidc/login");
    }

    public boolean has(String cookie) {
        return cookies.containsKey(cookie);
    }

    public String cookie(String name) {
        Cookie cookie = cookies.get(name);
        return cookie == null ? null : cookie.value();
    }

    public void forget(String name) {
        cookies.remove(name);
    }

    public void set(String name, String value, String path) {
        cookies.put(name, new Cookie(value, path));
    }

    private void store(String setCookie) {
        String[] parts = setCookie.split(";");
        int equals = parts[0].indexOf('=');
        String name = parts[0].substring(0, equals).strip();
        String value = parts[0].substring(equals + 1).strip();
        String path = "/";
        boolean expired = false;
        for (String attribute : List.of(parts).subList(1, parts.length)) {
            String trimmed = attribute.strip();
            if (trimmed.regionMatches(true, 0, "Path=", 0, 5)) {
                path = trimmed.substring(5);
            } else if (trimmed.equalsIgnoreCase("Max-Age=0")) {
                expired = true;
            }
        }
        if (expired || value.isEmpty()) {
            cookies.remove(name);
        } else {
            cookies.put(name, new Cookie(value, path));
        }
    }

    private String cookieHeader(String path) {
        StringBuilder header = new StringBuilder();
        cookies.forEach((name, cookie) -> {
            if (path.equals(cookie.path()) || path.startsWith(cookie.path().endsWith("/") ? cookie.path()
                    : cookie.path() + "/") || cookie.path().equals("/")) {
                header.append(header.isEmpty() ? "" : "; ").append(name).append('=').append(cookie.value());
            }
        });
        return header.toString();
    }
}
