package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Health endpoints and the web interface route rule (spec 1 §4 "Health", "Web interface"). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebAndHealthTest {
    private TestingKlave klave;
    private TestingHttp http;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings
                        .with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32"),
                routes -> routes.get("/api/probe/client", Access.ANONYMOUS,
                        request -> ApiResponse.ok(Map.of("ip", request.clientAddress().getHostAddress()))));
        http = klave.http();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/healthz", "/login", "/api/nothing"})
    void aPlainHttpBaseUrlSendsNoStrictTransportSecurity(String path) {
        assertThat(http.get(path).headers().firstValue("Strict-Transport-Security")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/healthz", "/readyz"})
    void healthAnswersOkToGet(String path) {
        HttpResponse<String> response = http.get(path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ok");
        assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; charset=utf-8");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/healthz", "/readyz"})
    void healthAnswersHeadWithoutABody(String path) {
        HttpResponse<String> response = http.head(path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().firstValue("Content-Length")).contains("2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE", "PATCH"})
    void healthRefusesOtherMethodsWithAllow(String method) {
        for (String path : new String[] {"/healthz", "/readyz"}) {
            HttpResponse<String> response = http.send(method, path, "");

            assertThat(response.statusCode()).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/login", "/cuenta", "/mi-cuenta", "/admin/usuarios", "/admin/clusters/prod-1"})
    void interfaceRoutesServeTheAppWithSecurityHeaders(String path) {
        HttpResponse<String> response = http.get(path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("<title>Klave</title>");
        assertThat(response.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        String policy = response.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(policy).contains("script-src 'self'").contains("frame-ancestors 'none'")
                .doesNotContain("unsafe-inline");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(response.headers().firstValue("Referrer-Policy")).contains("no-referrer");
        assertThat(response.headers().firstValue("X-Frame-Options")).contains("DENY");
    }

    @Test
    void existingFileIsServedWithItsTypeAndCachedForEver() {
        // Vite names the built stylesheet after its content; the page links it.
        java.util.regex.Matcher link = java.util.regex.Pattern.compile("href=\"(/assets/[^\"]+\\.css)\"")
                .matcher(http.get("/login").body());
        assertThat(link.find()).as("index.html links a stylesheet under /assets/").isTrue();
        HttpResponse<String> response = http.get(link.group(1));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("text/css; charset=utf-8");
        assertThat(response.headers().firstValue("Cache-Control")).contains("public, max-age=31536000, immutable");
        assertThat(response.body()).contains("font-family");
    }

    @Test
    void fileOutsideAssetsIsServedButRevalidated() {
        HttpResponse<String> response = http.get("/favicon.svg");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("image/svg+xml");
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-cache");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/assets/missing.js", "/assets/", "/assets/nested/app.css", "/robots.txt",
        "/assets/../index.html"})
    void missingFileIs404(String path) {
        assertThat(http.get(path).statusCode()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/agents/authorize/eyJjIjoiYSJ9*c2lnbmF0dXJl", "/agents/requests/wr_abc"})
    void theAgentsPagesAreInterfaceRoutes(String path) {
        HttpResponse<String> response = http.get(path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
    }

    @Test
    void headOfTheAppHasTheLengthButNoBody() {
        HttpResponse<String> response = http.head("/login");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat(Integer.parseInt(response.headers().firstValue("Content-Length").orElseThrow()))
                .isEqualTo(http.get("/login").body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE"})
    void appRefusesWritesWithAllow(String method) {
        HttpResponse<String> response = http.send(method, "/login", "x");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD");
    }

    @Test
    void forwardedClientAddressIsBelievedFromATrustedProxy() {
        HttpResponse<String> response = http.get("/api/probe/client", "X-Forwarded-For", "6.6.6.6, 198.51.100.7");

        assertThat(response.body()).isEqualTo("{\"ip\":\"198.51.100.7\"}");
    }
}
