package dev.klave.agent.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.NumericChars;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Values that look like credentials, hidden from agents outside Secrets (issue 43 §3): each pattern
 * with an example it hides and a near-miss it leaves — ordinary base64, UUIDs, hashes, URLs
 * without a password.
 */
class LookalikeCredentialsTest {
    private static final LookalikeCredentials HIDING = LookalikeCredentials.HIDING;

    @ParameterizedTest
    @ValueSource(strings = {
            "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0w\n-----END ENCRYPTED PRIVATE KEY-----",
            "AKIAIOSFODNN7EXAMPLE",
            "ASIAY34FZKBOKMUTVV7A",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "klt_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
            "klr_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
            "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
            "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"})
    void aCredentialOnItsOwnIsHiddenWithItsSize(String credential) {
        assertThat(HIDING.text(credential)).isEqualTo("<posible credencial oculta, " + credential.length() + " bytes>");
        assertThat(HIDING.text("value: " + credential + " end")).startsWith("value: <posible credencial oculta, ")
                .endsWith(" bytes> end").doesNotContain(credential);
    }

    @Test
    void onlyThePasswordOfAConnectionStringIsHidden() {
        assertThat(HIDING.text("postgres://app:s3cr3t-pw@db.internal:5432/orders"))
                .isEqualTo("postgres://app:<posible credencial oculta, 9 bytes>@db.internal:5432/orders");
        assertThat(HIDING.text("Server=db;Database=orders;User Id=app;Password=s3cr3t;"))
                .isEqualTo("Server=db;Database=orders;User Id=app;Password=<posible credencial oculta, 6 bytes>;");
        assertThat(HIDING.text("host=db user=app password=s3cr3t dbname=orders"))
                .isEqualTo("host=db user=app password=<posible credencial oculta, 6 bytes> dbname=orders");
    }

    @Test
    void aCredentialInsideAnotherIsHiddenOnce() {
        assertThat(HIDING.text("password=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"))
                .isEqualTo("password=<posible credencial oculta, 42 bytes>");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "aGVsbG8gd29ybGQsIHRoaXMgaXMgb3JkaW5hcnkgYmFzZTY0IHRleHQ=",
            "3f2b1c9e-8d7a-4b6c-9e5f-1a2b3c4d5e6f",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "https://example.com:8443/path?q=1",
            "https://user@example.com/repo.git",
            "AKIA is an AWS prefix",
            "AKIAIOSFODNN7EXAMPLEX",
            "eyJhbGciOiJIUzI1NiJ9 alone is a header",
            "klt_short",
            "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n-----END PUBLIC KEY-----",
            "password=",
            "set the password in the Secret named db",
            "mode: fast"})
    void ordinaryTextIsLeftAlone(String text) {
        assertThat(HIDING.text(text)).isEqualTo(text);
    }

    @Property(tries = 300)
    void uuidsAndHexAndBase64OfPlainWordsAreNeverHidden(@ForAll @AlphaChars @NumericChars String word) {
        String uuid = UUID.nameUUIDFromBytes(word.getBytes()).toString();
        String base64 = java.util.Base64.getEncoder().encodeToString(("config " + word).getBytes());
        assertThat(HIDING.text(uuid)).isEqualTo(uuid);
        assertThat(HIDING.text(base64)).isEqualTo(base64);
    }

    @Test
    void inAnObjectValuesAreHiddenAndNamesStay() throws Exception {
        JsonNode pod = new ObjectMapper().readTree("""
                {"kind":"Pod","metadata":{"name":"api","annotations":{"note":"AKIAIOSFODNN7EXAMPLE"}},
                 "spec":{"containers":[{"name":"api","env":[{"name":"DATABASE_URL",
                 "value":"postgres://app:s3cr3t@db/orders"},{"name":"MODE","value":"fast"}]}]}}
                """);

        JsonNode shown = HIDING.json(pod);

        assertThat(shown.toString()).doesNotContain("s3cr3t").doesNotContain("AKIAIOSFODNN7EXAMPLE")
                .contains("\"DATABASE_URL\"").contains("\"fast\"");
        assertThat(pod.toString()).as("the original untouched").contains("s3cr3t");
        assertThat(LookalikeCredentials.SHOWING.json(pod)).isEqualTo(pod);
    }
}
