package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Spec 1 §5 "Forge App configuration": the five go together, every problem at once, no secret echoed. */
class ForgeSettingsTest {
    private static KeyPair keys;
    private static String pkcs1;

    @BeforeAll
    static void generateKey() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        keys = rsa.generateKeyPair();
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(keys.getPrivate());
        }
        pkcs1 = text.toString();
    }

    private static Map<String, String> complete() {
        Map<String, String> environment = new HashMap<>();
        environment.put("FORGE_APP_ID", "12345");
        environment.put("FORGE_APP_CLIENT_ID", "Iv1.abc");
        environment.put("FORGE_APP_CLIENT_SECRET", "very-secret-client-secret");
        environment.put("FORGE_APP_PRIVATE_KEY", pkcs1);
        environment.put("FORGE_ORG", "acme");
        return environment;
    }

    private static List<String> problemsOf(Map<String, String> environment) {
        return SettingsProblems.of(environment);
    }

    @Test
    void withNoForgeVariableTheForgeIsOff() throws Exception {
        assertThat(SettingsLoader.load(Map.of()).forge()).isEmpty();
    }

    @Test
    void theFiveTogetherTurnTheForgeOnWithGithubDefaults() throws Exception {
        ForgeSettings forge = SettingsLoader.load(complete()).forge().orElseThrow();

        assertThat(forge.appId()).isEqualTo(12345L);
        assertThat(forge.clientId()).isEqualTo("Iv1.abc");
        assertThat(forge.clientSecret().reveal()).isEqualTo("very-secret-client-secret");
        assertThat(forge.privateKey().getModulus()).isEqualTo(((java.security.interfaces.RSAPrivateKey) keys.getPrivate())
                .getModulus());
        assertThat(forge.org()).isEqualTo("acme");
        assertThat(forge.webhookSecret()).isEmpty();
        assertThat(forge.requireOrgTwoFactor()).isTrue();
        assertThat(forge.webUrl()).hasToString("https://github.com");
        assertThat(forge.apiUrl()).hasToString("https://api.github.com");
        assertThat(forge.toString()).doesNotContain("very-secret").doesNotContain("MII");
    }

    @Test
    void anyOneAloneAsksForAllTheOthersAtOnce() {
        List<String> problems = problemsOf(Map.of("FORGE_ORG", "acme"));

        assertThat(problems).hasSize(4);
        assertThat(String.join("\n", problems)).contains("FORGE_APP_ID: required").contains("FORGE_APP_CLIENT_ID: required")
                .contains("FORGE_APP_CLIENT_SECRET: required").contains("FORGE_APP_PRIVATE_KEY: required");
    }

    @Test
    void theWebhookSecretAloneAlsoNeedsTheFive() {
        List<String> problems = problemsOf(Map.of("FORGE_WEBHOOK_SECRET", "whsec-123456"));

        assertThat(problems).hasSize(5).allMatch(problem -> problem.contains("FORGE_WEBHOOK_SECRET"));
        assertThat(String.join("\n", problems)).doesNotContain("whsec-123456");
    }

    @Test
    void badValuesAreListedTogetherAndSecretsAreNeverEchoed() {
        Map<String, String> environment = complete();
        environment.put("FORGE_APP_ID", "my-app");
        environment.put("FORGE_APP_PRIVATE_KEY", "-----BEGIN PRIVATE KEY-----\nnot-base64!!\n-----END PRIVATE KEY-----");
        environment.put("FORGE_ORG", "-acme-");
        environment.put("FORGE_REQUIRE_ORG_2FA", "yes");
        environment.put("FORGE_URL", "ghe.example.com");

        List<String> problems = problemsOf(environment);

        assertThat(problems).hasSize(5);
        String all = String.join("\n", problems);
        assertThat(all).contains("FORGE_APP_ID: must be the App's numeric id (got 'my-app')")
                .contains("FORGE_APP_PRIVATE_KEY: ").contains("FORGE_ORG: ").contains("FORGE_REQUIRE_ORG_2FA: ")
                .contains("FORGE_URL: must be an http(s) URL");
        assertThat(all).doesNotContain("not-base64").doesNotContain("very-secret");
    }

    @Test
    void thePrivateKeyMayComeOnOneLineAndAsPkcs8() throws Exception {
        Map<String, String> oneLine = complete();
        oneLine.put("FORGE_APP_PRIVATE_KEY", pkcs1.strip().replace("\n", "\\n"));
        assertThat(SettingsLoader.load(oneLine).forge()).isPresent();

        Map<String, String> pkcs8 = complete();
        pkcs8.put("FORGE_APP_PRIVATE_KEY", "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        assertThat(SettingsLoader.load(pkcs8).forge()).isPresent();
    }

    @Test
    void aSelfHostedForgeTakesItsApiUnderApiV3UnlessGiven() throws Exception {
        Map<String, String> environment = complete();
        environment.put("FORGE_URL", "https://ghe.example.com/");

        ForgeSettings forge = SettingsLoader.load(environment).forge().orElseThrow();
        assertThat(forge.webUrl()).hasToString("https://ghe.example.com");
        assertThat(forge.apiUrl()).hasToString("https://ghe.example.com/api/v3");

        environment.put("FORGE_API_URL", "https://api.ghe.example.com");
        assertThat(SettingsLoader.load(environment).forge().orElseThrow().apiUrl())
                .hasToString("https://api.ghe.example.com");
        assertThat(SettingsLoader.load(environment).forge().orElseThrow().plainHttp()).isFalse();
    }

    @Test
    void aForgeOverPlainHttpIsAcceptedAndKnownAsSuch() throws Exception {
        Map<String, String> environment = complete();
        environment.put("FORGE_URL", "http://forge.internal:8080");

        ForgeSettings forge = SettingsLoader.load(environment).forge().orElseThrow();

        assertThat(forge.apiUrl()).hasToString("http://forge.internal:8080/api/v3");
        assertThat(forge.plainHttp()).as("warned about at start").isTrue();
    }

    @Test
    void twoFactorMayBeSwitchedOffAndTheWebhookOn() throws Exception {
        Map<String, String> environment = complete();
        environment.put("FORGE_REQUIRE_ORG_2FA", "false");
        environment.put("FORGE_WEBHOOK_SECRET", "whsec-abcdef");

        ForgeSettings forge = SettingsLoader.load(environment).forge().orElseThrow();
        assertThat(forge.requireOrgTwoFactor()).isFalse();
        assertThat(forge.webhookSecret().map(Secret::reveal)).contains("whsec-abcdef");
    }
}
