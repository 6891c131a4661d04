package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dynamic client registration (spec 3 §4 "Clients", §8; RFC 7591) as a client sees it. Each test
 * registers from an address of its own (Klave trusts the loopback proxy here), so that the
 * per-address limit of one does not reach another.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OAuthRegistrationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;
    private TestingHttp http;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1"));
        http = klave.http();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static String newAddress() {
        int n = ADDRESSES.incrementAndGet();
        return "198.51.100." + n;
    }

    private HttpResponse<String> register(String body, String address) {
        return http.send("POST", "/oauth/register", body, "Content-Type", "application/json",
                "X-Forwarded-For", address);
    }

    private HttpResponse<String> register(String body) {
        return register(body, newAddress());
    }

    @Test
    void aPublicClientIsRegisteredWith201AndNoSecret() throws Exception {
        Instant before = clock.instant();
        HttpResponse<String> response = register("""
                {"redirect_uris": ["http://127.0.0.1:6274/oauth/callback", "https://app.example.com/cb"],
                 "client_name": "MCP Inspector", "client_uri": "https://github.com/modelcontextprotocol/inspector",
                 "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                 "token_endpoint_auth_method": "none", "scope": "mcp:tools", "software_id": "ignored"}""");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
        JsonNode client = JSON.readTree(response.body());
        assertThat(client.path("client_id").asText()).startsWith("oc_").hasSizeGreaterThan(40);
        assertThat(client.path("client_id_issued_at").asLong()).isEqualTo(before.getEpochSecond());
        assertThat(fieldNames(client)).containsExactly("client_id", "client_id_issued_at", "redirect_uris",
                "client_name", "client_uri", "grant_types", "response_types", "token_endpoint_auth_method");
        assertThat(JSON.convertValue(client.path("redirect_uris"), List.class))
                .containsExactly("http://127.0.0.1:6274/oauth/callback", "https://app.example.com/cb");
        assertThat(client.path("client_name").asText()).isEqualTo("MCP Inspector");
        assertThat(client.path("token_endpoint_auth_method").asText()).isEqualTo("none");
        assertThat(client.has("client_secret")).isFalse();
    }

    @Test
    void withoutGrantAndResponseTypesTheRfcDefaultsAreRegistered() throws Exception {
        HttpResponse<String> response = register("{\"redirect_uris\": [\"com.example.app:/cb\"]}");

        assertThat(response.statusCode()).isEqualTo(201);
        JsonNode client = JSON.readTree(response.body());
        assertThat(JSON.convertValue(client.path("grant_types"), List.class)).containsExactly("authorization_code");
        assertThat(JSON.convertValue(client.path("response_types"), List.class)).containsExactly("code");
        assertThat(client.has("client_name")).isFalse();
    }

    @Test
    void twoRegistrationsGetTwoIds() throws Exception {
        String body = "{\"redirect_uris\": [\"http://localhost/cb\"]}";
        String first = JSON.readTree(register(body).body()).path("client_id").asText();
        String second = JSON.readTree(register(body).body()).path("client_id").asText();

        assertThat(first).isNotEqualTo(second);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "http://app.example.com/cb", "http://127.0.0.2/cb", "javascript:alert(1)", "data:text/html,x",
        "file:///tmp/x", "vbscript:x", "blob:https://a.example/x", "about:blank", "ftp://a.example/cb",
        "ws://localhost/cb", "wss://a.example/cb", "https://a.example/cb#frag", "googlechrome://a.example/cb",
        "googlechromes://a.example/cb", "x-safari-http://a.example/cb", "x-safari-https://a.example/cb",
        "microsoft-edge:https://a.example/cb", "microsoft-edge-http://a.example/cb",
        "microsoft-edge-https://a.example/cb", "firefox://open-url?url=https://a.example", "opera-http://a.example/cb",
        "opera-https://a.example/cb", "brave://open-url?url=https://a.example", "intent://a.example/cb",
        "/relative/cb",
    })
    void eachRefusedRedirectUriIsInvalidRedirectUri(String uri) throws Exception {
        HttpResponse<String> response = register("{\"redirect_uris\": [\"https://ok.example/cb\", \""
                + uri + "\"]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        JsonNode error = JSON.readTree(response.body());
        assertThat(fieldNames(error)).containsExactly("error", "error_description");
        assertThat(error.path("error").asText()).isEqualTo("invalid_redirect_uri");
        assertThat(error.path("error_description").asText()).startsWith("redirect_uri no válida (" + uri + "): ");
    }

    /** Issue 51 finding 12: operating systems' and browsers' own handlers, in any case, as rule 4's. */
    @ParameterizedTest
    @ValueSource(strings = {
        "search-ms:query=klave&crumb=location:%5C%5Cattacker.example%5Cshare", "ms-settings:privacy-webcam",
        "Search-MS:query=x", "MS-MSDT:/id%20PCWDiagnostic", "shell:startup", "res://ieframe.dll/cb", "wyciwyg://0/cb",
        "itms-services://?action=download-manifest&url=https://a.example/m.plist", "market://details?id=x",
        "urn:ietf:params:oauth:cb", "x-javascript:alert(1)", "X-Apple.SystemPreferences:cb", "mk:@MSITStore:x.chm",
        "its:x.chm::/cb.htm", "jar:file:/x.jar!/cb", "view-source:https://a.example/cb", "android-app://com.x/cb",
        "web+klave://cb",
    })
    void operatingSystemAndInternalHandlersAreInvalidRedirectUri(String uri) throws Exception {
        String json = JSON.writeValueAsString(uri);
        HttpResponse<String> response = register("{\"redirect_uris\": [\"https://ok.example/cb\", " + json + "]}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.path("error").asText()).isEqualTo("invalid_redirect_uri");
        String scheme = uri.substring(0, uri.indexOf(':')).toLowerCase(java.util.Locale.ROOT);
        assertThat(error.path("error_description").asText())
                .isEqualTo("redirect_uri no válida (" + uri + "): el esquema " + scheme + " no está permitido");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cursor://anysphere.cursor-retrieval/oauth/callback", "vscode://vscode.github-authentication/did-authenticate",
        "vscode-insiders://x/cb", "com.example.app:/cb", "myapp://callback"})
    void applicationSchemesAreStillRegistered(String uri) throws Exception {
        HttpResponse<String> response = register("{\"redirect_uris\": [" + JSON.writeValueAsString(uri) + "]}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(JSON.readTree(response.body()).path("redirect_uris").get(0).asText()).isEqualTo(uri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"client_secret_basic", "client_secret_post", "private_key_jwt"})
    void aConfidentialClientIsRefused(String method) throws Exception {
        HttpResponse<String> response = register("{\"redirect_uris\": [\"http://localhost/cb\"], "
                + "\"token_endpoint_auth_method\": \"" + method + "\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.path("error").asText()).isEqualTo("invalid_client_metadata");
        assertThat(error.path("error_description").asText())
                .isEqualTo("token_endpoint_auth_method debe ser none: Klave solo registra clientes públicos");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{}", "{\"redirect_uris\": []}", "{\"redirect_uris\": \"http://localhost/cb\"}", "{\"redirect_uris\": [1]}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"grant_types\": [\"client_credentials\"]}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"grant_types\": [\"refresh_token\"]}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"grant_types\": [\"implicit\", \"authorization_code\"]}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"response_types\": [\"token\"]}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"client_name\": 7}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"logo_uri\": \"javascript:alert(1)\"}",
        "{\"redirect_uris\": [\"http://localhost/cb\"], \"client_uri\": \"file:///etc/passwd\"}",
        "[]", "not json",
    })
    void otherWrongMetadataIsInvalidClientMetadata(String body) throws Exception {
        HttpResponse<String> response = register(body);

        assertThat(response.statusCode()).as(body).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.path("error").asText()).isEqualTo("invalid_client_metadata");
        assertThat(error.path("error_description").asText()).startsWith("metadatos del cliente no válidos: ");
    }

    @Test
    void pastTwentyAMinuteFromOneAddressIs429UntilTheMinuteHasPassed() throws Exception {
        String address = newAddress();
        String body = "{\"redirect_uris\": [\"http://localhost/cb\"]}";
        for (int i = 0; i < 20; i++) {
            assertThat(register(body, address).statusCode()).isEqualTo(201);
        }

        HttpResponse<String> limited = register(body, address);

        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
        JsonNode error = JSON.readTree(limited.body());
        assertThat(error.path("error").asText()).isEqualTo("temporarily_unavailable");
        assertThat(error.path("error_description").asText())
                .isEqualTo("demasiados registros de clientes desde esta dirección: espera un minuto");
        assertThat(register(body, newAddress()).statusCode()).as("another address").isEqualTo(201);
        clock.advance(Duration.ofSeconds(61));
        assertThat(register(body, address).statusCode()).isEqualTo(201);
    }

    @Test
    void unknownPathsAndMethodsUnderOauthAreRefusedInTheOauthShape() throws Exception {
        HttpResponse<String> unknown = http.send("POST", "/oauth/nothing", "{}", "Content-Type", "application/json");
        HttpResponse<String> get = http.get("/oauth/register");

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("error").asText()).isEqualTo("invalid_request");
        assertThat(JSON.readTree(unknown.body()).path("error_description").asText()).isEqualTo("no encontrado");
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).contains("POST");
        assertThat(JSON.readTree(get.body()).path("error_description").asText()).isEqualTo("método no permitido");
    }

    @Test
    void aBodyOverTheLimitIs413InTheOauthShape() throws Exception {
        HttpResponse<String> response = register("{\"client_name\": \"" + "x".repeat(70 * 1024) + "\"}");

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(response.body()).path("error").asText()).isEqualTo("invalid_request");
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
