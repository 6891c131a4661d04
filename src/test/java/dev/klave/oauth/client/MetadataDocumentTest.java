package dev.klave.oauth.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.oauth.client.ClientMetadata;
import dev.klave.oauth.client.MetadataDocument;
import dev.klave.oauth.client.MetadataRefused;
import dev.klave.oauth.client.MetadataRefused.Reason;
import dev.klave.oauth.client.PublishedClient;
import dev.klave.outbound.Answer;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A fetched document's rules (draft §4.1, RFC 7591 §2, spec 3 §4: public clients only). */
class MetadataDocumentTest {
    private static final URI ID = URI.create("https://client.example/client.json");

    private static Answer answer(String type, String body) {
        return new Answer(200, HttpHeaders.of(Map.of("Content-Type", List.of(type)), (name, value) -> true),
                body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theFieldsKlaveKeepsAreReadAndTheRestIgnored() throws MetadataRefused {
        PublishedClient metadata = MetadataDocument.read(ID, answer("application/json; charset=utf-8", """
                {"client_id": "https://client.example/client.json", "client_name": "Example agent",
                 "client_uri": "https://client.example/", "logo_uri": "https://client.example/logo.png",
                 "redirect_uris": ["http://127.0.0.1/callback", "https://client.example/cb"],
                 "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                 "token_endpoint_auth_method": "none", "scope": "mcp", "software_id": 7, "jwks_uri": "x"}
                """));

        assertThat(metadata).isEqualTo(new PublishedClient(ID, new ClientMetadata(List.of("http://127.0.0.1/callback",
                "https://client.example/cb"), Optional.of("Example agent"), Optional.of("https://client.example/"),
                Optional.of("https://client.example/logo.png"), List.of("authorization_code", "refresh_token"),
                List.of("code"))));
    }

    @Test
    void absentListsTakeTheDefaultsOfRfc7591AndAbsentTextsAreEmpty() throws MetadataRefused {
        PublishedClient metadata = MetadataDocument.read(ID, answer("application/client-metadata+json",
                "{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"app:/cb\"],"
                        + "\"client_name\":null}"));

        assertThat(metadata.grantTypes()).containsExactly("authorization_code");
        assertThat(metadata.responseTypes()).containsExactly("code");
        assertThat(metadata.clientName()).isEmpty();
        assertThat(metadata.logoUri()).isEmpty();
    }

    @ParameterizedTest(name = "{0}: {2}")
    @CsvSource(delimiter = '|', value = {
        "NOT_JSON|text/html|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"]}",
        "NOT_JSON|application/jsonx|{}",
        "NOT_JSON|application/json|<html></html>",
        "NOT_JSON|application/json|[]",
        "NOT_JSON|application/json|''",
        "NOT_JSON|application/json|{\"client_id\":\"https://client.example/client.json\"} {}",
        "NOT_JSON|application/json|{\"client_id\":\"https://client.example/client.json\",\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"]}",
        "CLIENT_ID_MISMATCH|application/json|{\"redirect_uris\":[\"a:/b\"]}",
        "CLIENT_ID_MISMATCH|application/json|{\"client_id\":\"https://client.example/other.json\",\"redirect_uris\":[\"a:/b\"]}",
        "CLIENT_ID_MISMATCH|application/json|{\"client_id\":\"https://CLIENT.example/client.json\",\"redirect_uris\":[\"a:/b\"]}",
        "CLIENT_ID_MISMATCH|application/json|{\"client_id\":\"https://client.example/client.json/\",\"redirect_uris\":[\"a:/b\"]}",
        "CLIENT_ID_MISMATCH|application/json|{\"client_id\":[\"https://client.example/client.json\"],\"redirect_uris\":[\"a:/b\"]}",
        "NOT_PUBLIC_CLIENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"client_secret\":\"s\"}",
        "NOT_PUBLIC_CLIENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"client_secret_expires_at\":0}",
        "NOT_PUBLIC_CLIENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"token_endpoint_auth_method\":\"client_secret_basic\"}",
        "NOT_PUBLIC_CLIENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"token_endpoint_auth_method\":\"private_key_jwt\"}",
        "NOT_PUBLIC_CLIENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"token_endpoint_auth_method\":[\"none\"]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\"}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":\"a:/b\"}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[7]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\" \"]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"search-ms:query=x\"]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"cursor://a/cb\",\"MS-Settings:privacy\"]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"Shell:startup\"]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"x-javascript:alert(1)\"]}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"client_name\":{}}",
        "BAD_DOCUMENT|application/json|{\"client_id\":\"https://client.example/client.json\",\"redirect_uris\":[\"a:/b\"],\"grant_types\":\"authorization_code\"}"
    })
    void refused(Reason reason, String type, String body) {
        try {
            MetadataDocument.read(ID, answer(type, body.equals("''") ? "" : body));
        } catch (MetadataRefused refused) {
            assertThat(refused.reason()).isEqualTo(reason);
            return;
        }
        throw new AssertionError("accepted: " + body);
    }

    @Test
    void aBadFieldIsNamedInTheText() {
        try {
            MetadataDocument.read(ID, answer("application/json", "{\"client_id\":\"https://client.example/client.json\"}"));
        } catch (MetadataRefused refused) {
            assertThat(refused.getMessage()).isEqualTo("documento del cliente no válido: campo redirect_uris");
            return;
        }
        throw new AssertionError("accepted");
    }
}
