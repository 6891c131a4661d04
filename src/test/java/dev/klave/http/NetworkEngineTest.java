package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.TlsEngine;
import io.vertx.core.net.OpenSSLEngineOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** On the platform we ship native libraries for, Klave's TLS is OpenSSL unless SERVICE_TLS_ENGINE=jdk. */
@EnabledOnOs(value = OS.LINUX, architectures = "amd64")
class NetworkEngineTest {
    @Test
    void linuxX8664UsesOpenSslUnlessTheJdksIsAskedFor() {
        assertThat(new NetworkEngine(TlsEngine.OPENSSL).tls()).isInstanceOf(OpenSSLEngineOptions.class);
        assertThat(new NetworkEngine(TlsEngine.JDK).tls()).isInstanceOf(io.vertx.core.net.JdkSSLEngineOptions.class);
    }
}
