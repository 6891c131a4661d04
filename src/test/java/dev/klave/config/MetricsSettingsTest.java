package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Pins {@code SERVICE_METRICS_LISTEN} and {@code KLAVE_LOG_FORMAT}: names, defaults and errors. */
class MetricsSettingsTest {
    @Test
    void namesAreTheOnesTheReadmeDocuments() {
        assertThat(SettingsLoader.METRICS_LISTEN).isEqualTo("SERVICE_METRICS_LISTEN");
        assertThat(SettingsLoader.LOG_FORMAT).isEqualTo("KLAVE_LOG_FORMAT");
    }

    @Test
    void metricsAreOffByDefault() throws Exception {
        assertThat(SettingsLoader.load(Map.of()).metricsListen()).isEmpty();
        assertThat(SettingsLoader.load(Map.of("SERVICE_METRICS_LISTEN", "  ")).metricsListen()).isEmpty();
    }

    @Test
    void metricsListenerIsReadWhenGiven() throws Exception {
        assertThat(SettingsLoader.load(Map.of("SERVICE_METRICS_LISTEN", "127.0.0.1:9464")).metricsListen())
                .isEqualTo(Optional.of(new ListenAddress("127.0.0.1", 9464)));
        assertThat(SettingsLoader.load(Map.of("SERVICE_METRICS_LISTEN", "[::1]:9464")).metricsListen())
                .isEqualTo(Optional.of(new ListenAddress("::1", 9464)));
        // Port 0 picks a free one, on both listeners (tests).
        assertThat(SettingsLoader.load(Map.of("SERVICE_LISTEN", "127.0.0.1:0", "SERVICE_METRICS_LISTEN",
                "127.0.0.1:0")).metricsListen()).isEqualTo(Optional.of(new ListenAddress("127.0.0.1", 0)));
    }

    @Test
    void aBadMetricsListenerIsRefusedWithTheOtherProblems() {
        assertThat(SettingsProblems.of(Map.of("SERVICE_METRICS_LISTEN", "9464", "SERVICE_IPV6_PREFIX", "x")))
                .contains("SERVICE_METRICS_LISTEN: must be host:port, e.g. 0.0.0.0:8080 (got '9464')")
                .hasSize(2);
        assertThat(SettingsProblems.of(Map.of("SERVICE_METRICS_LISTEN", "127.0.0.1:99999")))
                .containsExactly("SERVICE_METRICS_LISTEN: port must be between 0 and 65535 (got '127.0.0.1:99999')");
    }

    @Test
    void metricsNeverShareThePublicPort() {
        assertThat(SettingsProblems.of(Map.of("SERVICE_LISTEN", "0.0.0.0:8080",
                "SERVICE_METRICS_LISTEN", "127.0.0.1:8080")))
                .containsExactly("SERVICE_METRICS_LISTEN: must not use SERVICE_LISTEN's port 8080: metrics have a "
                        + "listener of their own (got '127.0.0.1:8080')");
    }

    @Test
    void logFormatIsTextOrJson() throws Exception {
        SettingsLoader.load(Map.of("KLAVE_LOG_FORMAT", "json"));
        SettingsLoader.load(Map.of("KLAVE_LOG_FORMAT", "text"));
        assertThat(SettingsProblems.of(Map.of("KLAVE_LOG_FORMAT", "xml")))
                .containsExactly("KLAVE_LOG_FORMAT: must be text or json (got 'xml')");
    }
}
