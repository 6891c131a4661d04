package dev.klave.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Refusal;
import dev.klave.simulator.ClusterSimulator;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Bootstrap secrets are checked when pasted and stored sealed to their cluster and key. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokenVaultTest {
    private ClusterSimulator cluster;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    private BootstrapSecrets secrets() {
        return BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "proxy-token", "reconciler-token");
    }

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }

    @Test
    void sealedSecretsOpenOnlyForTheirClusterAndKey() {
        TokenVault vault = new TokenVault(key(1), new SecureRandom());
        String sealed = vault.seal(new ClusterId("prod-1"), secrets());

        BootstrapSecrets opened = vault.open(new ClusterId("prod-1"), sealed);

        assertThat(opened.server().toString()).isEqualTo(cluster.url());
        assertThat(opened.proxyToken()).isEqualTo("proxy-token");
        assertThat(opened.reconcilerToken()).isEqualTo("reconciler-token");
        assertThat(sealed).doesNotContain("proxy-token");
        assertThatThrownBy(() -> vault.open(new ClusterId("prod-2"), sealed))
                .isInstanceOf(TokenVault.SealedSecretsUnreadable.class);
        assertThatThrownBy(() -> new TokenVault(key(2), new SecureRandom()).open(new ClusterId("prod-1"), sealed))
                .isInstanceOf(TokenVault.SealedSecretsUnreadable.class);
    }

    @Test
    void caIsAcceptedAsPemOrAsBase64OfThePem() {
        String base64 = Base64.getEncoder().encodeToString(cluster.caCertificatePem().getBytes(StandardCharsets.US_ASCII));

        assertThat(BootstrapSecrets.of(cluster.url(), base64, "p", "r").caCertificates()).hasSize(1);
    }

    @Test
    void badBootstrapJsonIsRefusedNamingTheField() {
        assertThatThrownBy(() -> BootstrapSecrets.of("http://127.0.0.1:6443", cluster.caCertificatePem(), "p", "r"))
                .isInstanceOf(Refusal.class)
                .hasMessage("JSON de bootstrap no válido: server debe ser una URL https:// sin query");
        assertThatThrownBy(() -> BootstrapSecrets.of(cluster.url(), "not a certificate", "p", "r"))
                .hasMessage("JSON de bootstrap no válido: ca no es un certificado PEM");
        assertThatThrownBy(() -> BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), " ", "r"))
                .hasMessage("JSON de bootstrap no válido: proxyToken está vacío");
        assertThatThrownBy(() -> BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "p", ""))
                .hasMessage("JSON de bootstrap no válido: reconcilerToken está vacío");
        assertThat(secrets().toString()).doesNotContain("proxy-token").doesNotContain("reconciler-token");
    }
}
