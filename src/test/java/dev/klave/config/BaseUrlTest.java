package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BaseUrlTest {
    @ParameterizedTest
    @CsvSource({
        "http://localhost:8080, http://localhost:8080",
        "https://klave.example.com:443/, https://klave.example.com",
        "HTTPS://Klave.Example.com, https://klave.example.com",
        "http://klave.example.com:80, http://klave.example.com",
        "https://klave.example.com:8443, https://klave.example.com:8443",
    })
    void originIsWhatABrowserSendsInTheOriginHeader(String url, String origin) {
        assertThat(BaseUrl.parse(url).origin()).isEqualTo(origin);
    }

    @Test
    void pathsAreResolvedUnderTheBasePath() {
        assertThat(BaseUrl.parse("https://example.com/klave/").resolve("/cuenta"))
                .isEqualTo("https://example.com/klave/cuenta");
        assertThat(BaseUrl.parse("http://localhost:8080").resolve("/cuenta")).isEqualTo("http://localhost:8080/cuenta");
    }

    @Test
    void onlyHttpsBaseUrlsAreHttps() {
        assertThat(BaseUrl.parse("https://a.example").isHttps()).isTrue();
        assertThat(BaseUrl.parse("http://a.example").isHttps()).isFalse();
    }
}
