package dev.klave.oauth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.oauth.client.ClientIdUrls;
import dev.klave.oauth.client.MetadataRefused;
import dev.klave.oauth.client.MetadataRefused.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A client_id naming a metadata document (draft §3), checked before any network use. */
class ClientIdUrlsTest {
    @ParameterizedTest
    @ValueSource(strings = {
        "https://client.example/client.json",
        "https://client.example:8443/oauth/client-metadata.json",
        "https://client.example/client?version=2",
        "https://203.0.113.9/client.json", // a literal is the address policy's to judge
        "https://[2001:db8::1]/client.json",
        "https://client.example/a/"
    })
    void accepted(String clientId) throws MetadataRefused {
        assertThat(ClientIdUrls.check(clientId).toString()).isEqualTo(clientId);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://client.example/client.json", "HTTPS://client.example/client.json",
        "ftp://client.example/client.json", "client.example/client.json", "/client.json", "urn:client:1",
        "javascript:alert(1)"})
    void notHttps(String clientId) {
        assertThat(refusal(clientId)).isEqualTo(Reason.NOT_HTTPS);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://client.example", // no path (draft §3)
        "https://client.example/", // only the root
        "https://client.example?x=1",
        "https://client.example/client.json#top", // fragment
        "https://client.example/client.json#",
        "https://user@client.example/client.json", // user info
        "https://user:secret@client.example/client.json",
        "https://client.example/./client.json", // dot segments, also encoded
        "https://client.example/a/../client.json",
        "https://client.example/a/..",
        "https://client.example/%2e%2E/client.json",
        "https://client.example/%2e/client.json",
        "https:///client.json", // no host
        "https://client_example/client.json", // not a host name
        "https://client.example:0/client.json",
        "https://client.example:65536/client.json",
        "https://client.example./client.json",
        "https://client.example/cliënt.json", // not ASCII
        "https://client.example/client json",
        "https://client.example/%zz",
        "https:client.example",
        // IPv4 in forms parsers read differently (octal, hex, short, one number): refused, not reinterpreted.
        "https://0177.0.0.1/client.json", "https://0x7f.0.0.1/client.json", "https://127.1/client.json",
        "https://2130706433/client.json", "https://0x7f000001/client.json", "https://10.0.0.010/client.json",
        "https://256.0.0.1/client.json", "https://a.b.c.1/client.json"
    })
    void badUrl(String clientId) {
        assertThat(refusal(clientId)).isEqualTo(Reason.BAD_URL);
    }

    @Test
    void anOverlongUrlIsRefused() {
        assertThat(refusal("https://client.example/" + "a".repeat(2048))).isEqualTo(Reason.BAD_URL);
    }

    private static Reason refusal(String clientId) {
        try {
            ClientIdUrls.check(clientId);
        } catch (MetadataRefused refused) {
            assertThatThrownBy(() -> { throw refused.refusal(); }).hasMessage(refused.getMessage());
            assertThat(refused.refusal().status()).isEqualTo(400);
            return refused.reason();
        }
        throw new AssertionError("accepted: " + clientId);
    }
}
