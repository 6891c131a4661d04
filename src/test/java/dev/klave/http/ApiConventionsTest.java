package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.messages.Message;
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

/**
 * The {@code /api} conventions of spec 1 §4, seen from a client: exact status, headers and body,
 * against a real server with probe routes registered the way domain packages register theirs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiConventionsTest {
    private TestingKlave klave;
    private TestingHttp http;

    /** A request body shaped like the API's: a record, snake_case, every field required. */
    record Greeting(String displayName, int count) {}

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings
                        .with("SERVICE_BASE_URL", "https://klave.example.com"),
                routes -> routes
                        .get("/api/probe/echo", Access.ANONYMOUS, request -> ApiResponse.ok(Map.of("method", "GET")))
                        .post("/api/probe/echo", Access.ANONYMOUS, request -> {
                            Greeting greeting = request.json(Greeting.class);
                            return ApiResponse.created(greeting);
                        })
                        .delete("/api/probe/items/{id}", Access.ANONYMOUS, request -> ApiResponse.noContent())
                        .get("/api/probe/items/{id}", Access.ANONYMOUS, request -> ApiResponse.ok(Map.of("id", request.pathParameter("id"))))
                        .get("/api/probe/boom", Access.ANONYMOUS, request -> {
                            throw new IllegalStateException("secret detail of the failure");
                        })
                        .get("/api/probe/refuse", Access.ANONYMOUS, request -> {
                            throw Message.LOGIN_TAKEN.refusal();
                        }));
        http = klave.http();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static void assertError(HttpResponse<String> response, int status, String text) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(response.body()).isEqualTo("{\"error\":\"" + text + "\"}");
    }

    @Test
    void successfulAnswerIsJsonAndNeverCached() {
        HttpResponse<String> response = http.send("POST", "/api/probe/echo", "{\"display_name\":\"Ana\",\"count\":2}");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).isEqualTo("{\"display_name\":\"Ana\",\"count\":2}");
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/probe/items/1", "/api/nothing", "/healthz", "/login", "/clusters/none/api"})
    void everyAnswerTellsBrowsersToKeepToHttpsWhenTheBaseUrlIsHttps(String path) {
        assertThat(http.get(path).headers().firstValue("Strict-Transport-Security")).contains("max-age=31536000");
    }

    @Test
    void pathParametersReachTheEndpoint() {
        HttpResponse<String> response = http.get("/api/probe/items/abc-123");

        assertThat(response.body()).isEqualTo("{\"id\":\"abc-123\"}");
    }

    @Test
    void noContentHasNoBody() {
        HttpResponse<String> response = http.send("DELETE", "/api/probe/items/1", null);

        assertThat(response.statusCode()).isEqualTo(204);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/nothing-here", "/api/", "/api", "/api/probe/echo/", "/api/probe//echo",
        "/api/probe/items/", "/api/PROBE/echo"})
    void unknownRouteUnderApiIs404(String path) {
        assertError(http.get(path), 404, "no encontrado");
    }

    @Test
    void knownRouteWithAnotherMethodIs405WithAllow() {
        HttpResponse<String> response = http.send("PATCH", "/api/probe/echo", "{}");

        assertError(response, 405, "método no permitido");
        assertThat(response.headers().firstValue("Allow")).contains("GET, POST");
    }

    @Test
    void allowListsTheMethodsOfTheTemplateThePathMatches() {
        HttpResponse<String> response = http.send("PUT", "/api/probe/items/7", "{}");

        assertError(response, 405, "método no permitido");
        assertThat(response.headers().firstValue("Allow")).contains("DELETE, GET");
    }

    @Test
    void bodyOfExactly64KiBIsAccepted() {
        String padding = "x".repeat(RoutePolicy.API_BODY_LIMIT - "{\"display_name\":\"\",\"count\":1}".length());
        String body = "{\"display_name\":\"" + padding + "\",\"count\":1}";
        assertThat(body).hasSize(64 * 1024);

        assertThat(http.send("POST", "/api/probe/echo", body).statusCode()).isEqualTo(201);
    }

    @Test
    void bodyDeclaredOver64KiBIs413() {
        String body = "{\"display_name\":\"" + "x".repeat(64 * 1024) + "\",\"count\":1}";

        assertError(http.send("POST", "/api/probe/echo", body), 413, "cuerpo demasiado grande");
    }

    @Test
    void bodyStreamingPast64KiBWithoutALengthIs413() {
        byte[] body = ("{\"display_name\":\"" + "x".repeat(200 * 1024) + "\",\"count\":1}").getBytes();

        String answer = http.rawChunked("POST /api/probe/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json", body, 8 * 1024);

        assertThat(answer).startsWith("HTTP/1.1 413 Request Entity Too Large\r\n")
                .containsIgnoringCase("cache-control: no-store\r\n")
                .containsIgnoringCase("connection: close\r\n")
                .endsWith("{\"error\":\"cuerpo demasiado grande\"}");
    }

    @Test
    void chunkedBodyWithinTheLimitIsAccepted() {
        byte[] body = "{\"display_name\":\"Ana\",\"count\":3}".getBytes();

        String answer = http.rawChunked("POST /api/probe/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close",
                body, 5);

        assertThat(answer).startsWith("HTTP/1.1 201 Created\r\n").endsWith("{\"display_name\":\"Ana\",\"count\":3}");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "not json",
        "{\"display_name\":\"Ana\",\"count\":1} {}",
        "{\"display_name\":\"Ana\",\"count\":1}x",
        "{\"display_name\":\"Ana\",\"display_name\":\"Eva\",\"count\":1}",
        "{\"display_name\":\"Ana\",\"count\":\"1\"}",
        "{\"display_name\":\"Ana\",\"count\":null}",
        "{\"display_name\":12,\"count\":1}",
        "{\"display_name\":12.5,\"count\":1}",
        "{\"display_name\":1e999999,\"count\":1}",
        "{\"display_name\":true,\"count\":1}",
        "{\"display_name\":{},\"count\":1}",
        "{\"display_name\":[\"Ana\"],\"count\":1}",
        "{\"display_name\":\"Ana\"",
        "[]",
        "null",
    })
    void malformedOrTrailingJsonIs400(String body) {
        assertError(http.send("POST", "/api/probe/echo", body), 400, "cuerpo JSON no válido");
    }

    @Test
    void anUnknownFieldIsNamed() {
        assertError(http.send("POST", "/api/probe/echo", "{\"display_name\":\"Ana\",\"count\":1,\"admin\":true}"),
                400, "cuerpo JSON no válido: campo desconocido «admin»");
        assertError(http.send("POST", "/api/probe/echo", "{\"displayName\":\"Ana\",\"count\":1}"),
                400, "cuerpo JSON no válido: campo desconocido «displayName»");
    }

    @Test
    void anUnknownFieldsNameIsEscapedAndCut() {
        // The name is the client's: its control characters are written as escapes, and a long one cut.
        HttpResponse<String> escaped = http.send("POST", "/api/probe/echo",
                "{\"display_name\":\"Ana\",\"count\":1,\"a\\u001b[2J\\nb\":1}");
        assertError(escaped, 400, "cuerpo JSON no válido: campo desconocido «a\\\\u001b[2J\\\\nb»");

        HttpResponse<String> cut = http.send("POST", "/api/probe/echo",
                "{\"display_name\":\"Ana\",\"count\":1,\"" + "x".repeat(1000) + "\":1}");
        assertError(cut, 400, "cuerpo JSON no válido: campo desconocido «" + "x".repeat(64) + "…(+936)»");
    }

    @Test
    void browserWriteFromAnotherOriginIs403() {
        HttpResponse<String> response = http.send("POST", "/api/probe/echo", "{\"display_name\":\"A\",\"count\":1}",
                "Origin", "https://evil.example.com");

        assertError(response, 403, "petición de otro origen rechazada");
    }

    @Test
    void originDifferingOnlyInSchemeOrPortIsAnotherOrigin() {
        String body = "{\"display_name\":\"A\",\"count\":1}";

        assertError(http.send("POST", "/api/probe/echo", body, "Origin", "http://klave.example.com"), 403,
                "petición de otro origen rechazada");
        assertError(http.send("DELETE", "/api/probe/items/1", null, "Origin", "https://klave.example.com:8443"),
                403, "petición de otro origen rechazada");
        assertError(http.send("POST", "/api/probe/echo", body, "Origin", "null"), 403,
                "petición de otro origen rechazada");
    }

    @Test
    void crossSiteFetchMetadataIs403EvenWithoutOrigin() {
        HttpResponse<String> response = http.send("DELETE", "/api/probe/items/1", null, "Sec-Fetch-Site", "cross-site");

        assertError(response, 403, "petición de otro origen rechazada");
    }

    @Test
    void browserWriteFromOurOwnOriginPasses() {
        HttpResponse<String> response = http.send("POST", "/api/probe/echo", "{\"display_name\":\"A\",\"count\":1}",
                "Origin", "https://klave.example.com", "Sec-Fetch-Site", "same-origin");

        assertThat(response.statusCode()).isEqualTo(201);
    }

    @Test
    void clientsWithoutOriginHeadersPass() {
        assertThat(http.send("DELETE", "/api/probe/items/1", null).statusCode()).isEqualTo(204);
    }

    @Test
    void readsFromAnotherOriginAreNotBlocked() {
        HttpResponse<String> response = http.get("/api/probe/echo", "Origin", "https://evil.example.com",
                "Sec-Fetch-Site", "cross-site");

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void unexpectedFailureIs500WithTheCauseOnlyInTheLog() {
        HttpResponse<String> response = http.get("/api/probe/boom");

        assertError(response, 500, "error interno");
        assertThat(response.body()).doesNotContain("secret detail").doesNotContain("Exception");
    }

    @Test
    void refusalCarriesTheCatalogueStatusAndText() {
        assertError(http.get("/api/probe/refuse"), 409, "ese login ya existe (los logins no se reutilizan)");
    }
}
