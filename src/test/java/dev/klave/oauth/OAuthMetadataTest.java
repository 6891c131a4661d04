package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The discovery documents of the agent login (spec 3 §4 "Agent login"; RFC 9728, RFC 8414) as a
 * client fetches them, with a base URL at a host's root and with one that has a path.
 */
class OAuthMetadataTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theProtectedResourceNamesMcpAndKlaveAsItsAuthorizationServer() throws Exception {
        try (TestingKlave klave = start("https://klave.example.com")) {
            HttpResponse<String> response = klave.http().get("/.well-known/oauth-protected-resource/mcp");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
            assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
            assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
            assertThat(JSON.readValue(response.body(), Map.class)).isEqualTo(Map.of(
                    "resource", "https://klave.example.com/mcp",
                    "authorization_servers", List.of("https://klave.example.com"),
                    "bearer_methods_supported", List.of("header")));
        }
    }

    @Test
    void theAuthorizationServerDocumentIsRfc8414WithoutScopes() throws Exception {
        try (TestingKlave klave = start("https://klave.example.com")) {
            HttpResponse<String> response = klave.http().get("/.well-known/oauth-authorization-server");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
            assertThat(JSON.readValue(response.body(), Map.class)).isEqualTo(Map.ofEntries(
                    Map.entry("issuer", "https://klave.example.com"),
                    Map.entry("authorization_endpoint", "https://klave.example.com/oauth/authorize"),
                    Map.entry("token_endpoint", "https://klave.example.com/oauth/token"),
                    Map.entry("registration_endpoint", "https://klave.example.com/oauth/register"),
                    Map.entry("revocation_endpoint", "https://klave.example.com/oauth/revoke"),
                    Map.entry("response_types_supported", List.of("code")),
                    Map.entry("grant_types_supported", List.of("authorization_code", "refresh_token")),
                    Map.entry("code_challenge_methods_supported", List.of("S256")),
                    Map.entry("token_endpoint_auth_methods_supported", List.of("none")),
                    Map.entry("revocation_endpoint_auth_methods_supported", List.of("none")),
                    Map.entry("client_id_metadata_document_supported", true),
                    Map.entry("authorization_response_iss_parameter_supported", true)));
        }
    }

    @Test
    void theRootProtectedResourceDocumentAndOtherWellKnownNamesAre404() {
        try (TestingKlave klave = start("https://klave.example.com")) {
            TestingHttp http = klave.http();

            assertThat(http.get("/.well-known/oauth-protected-resource").statusCode()).isEqualTo(404);
            assertThat(http.get("/.well-known/oauth-protected-resource/").statusCode()).isEqualTo(404);
            assertThat(http.get("/.well-known/openid-configuration").statusCode()).isEqualTo(404);
            assertThat(http.get("/.well-known/oauth-authorization-server/klave").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void aPreflightIsAnsweredForAnyOrigin() {
        try (TestingKlave klave = start("https://klave.example.com")) {
            for (String path : List.of("/.well-known/oauth-protected-resource/mcp",
                    "/.well-known/oauth-authorization-server")) {
                HttpResponse<String> preflight = klave.http().send("OPTIONS", path, null,
                        "Origin", "https://inspector.example", "Access-Control-Request-Method", "GET");
                HttpResponse<String> read = klave.http().get(path, "Origin", "https://inspector.example");

                assertThat(preflight.statusCode()).as(path).isEqualTo(204);
                assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
                assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods")).contains("GET");
                assertThat(read.statusCode()).as(path).isEqualTo(200);
                assertThat(read.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
            }
        }
    }

    @Test
    void registrationIsNotReadableCrossOrigin() {
        try (TestingKlave klave = start("https://klave.example.com")) {
            HttpResponse<String> preflight = klave.http().send("OPTIONS", "/oauth/register", null,
                    "Origin", "https://inspector.example", "Access-Control-Request-Method", "POST");
            HttpResponse<String> registered = klave.http().send("POST", "/oauth/register",
                    "{\"redirect_uris\":[\"http://127.0.0.1/cb\"]}", "Content-Type", "application/json");

            assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
            assertThat(registered.statusCode()).isEqualTo(201);
            assertThat(registered.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        }
    }

    /**
     * RFC 8414 §3.1, RFC 9728 §3.1: with {@code https://host/klave}, the documents sit at the host's
     * root with {@code /klave} inserted; the front end passes {@code /.well-known/} on unstripped.
     */
    @Test
    void withABaseUrlThatHasAPathTheDocumentsHaveItInserted() throws Exception {
        try (TestingKlave klave = start("https://host.example.com/klave")) {
            TestingHttp http = klave.http();
            HttpResponse<String> resource = http.get("/.well-known/oauth-protected-resource/klave/mcp");
            HttpResponse<String> server = http.get("/.well-known/oauth-authorization-server/klave");

            assertThat(resource.statusCode()).isEqualTo(200);
            JsonNode resourceDocument = JSON.readTree(resource.body());
            assertThat(resourceDocument.path("resource").asText()).isEqualTo("https://host.example.com/klave/mcp");
            assertThat(resourceDocument.path("authorization_servers").get(0).asText())
                    .isEqualTo("https://host.example.com/klave");
            assertThat(server.statusCode()).isEqualTo(200);
            JsonNode serverDocument = JSON.readTree(server.body());
            assertThat(serverDocument.path("issuer").asText()).isEqualTo("https://host.example.com/klave");
            assertThat(serverDocument.path("registration_endpoint").asText())
                    .isEqualTo("https://host.example.com/klave/oauth/register");
            assertThat(http.get("/.well-known/oauth-protected-resource/mcp").statusCode()).isEqualTo(404);
            assertThat(http.get("/.well-known/oauth-authorization-server").statusCode()).isEqualTo(404);
            assertThat(http.get("/.well-known/oauth-protected-resource").statusCode()).isEqualTo(404);
        }
    }

    /** Spec 3 §4: the challenge of /mcp names the document Klave serves, for both shapes of base URL. */
    @Test
    void theChallengeOfMcpLeadsToTheProtectedResourceDocument() throws Exception {
        Map<String, String> documents = Map.of(
                "https://klave.example.com", "https://klave.example.com/.well-known/oauth-protected-resource/mcp",
                "https://host.example.com/klave",
                "https://host.example.com/.well-known/oauth-protected-resource/klave/mcp");
        for (Map.Entry<String, String> expected : documents.entrySet()) {
            String base = expected.getKey();
            try (TestingKlave klave = start(base)) {
                HttpResponse<String> refused = klave.http().send("POST", "/mcp",
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Content-Type", "application/json");
                HttpResponse<String> document = klave.http().get(URI.create(expected.getValue()).getRawPath());

                assertThat(refused.statusCode()).isEqualTo(401);
                assertThat(refused.headers().firstValue("WWW-Authenticate"))
                        .contains("Bearer resource_metadata=\"" + expected.getValue() + "\"");
                assertThat(document.statusCode()).as(base).isEqualTo(200);
                assertThat(JSON.readTree(document.body()).path("resource").asText()).isEqualTo(base + "/mcp");
            }
        }
    }

    private static TestingKlave start(String baseUrl) {
        return TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_BASE_URL", baseUrl));
    }
}
