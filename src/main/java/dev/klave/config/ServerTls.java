package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Klave serving HTTPS itself ({@code SERVICE_TLS_CERT}, {@code SERVICE_TLS_KEY}, PEM files). kubectl
 * sends bearer tokens only over TLS, so either this or a TLS-terminating proxy in front is needed
 * for kubeconfigs to work. {@code kubeconfigCa} ({@code SERVICE_KUBECONFIG_CA}) is written into
 * issued kubeconfigs when the certificate is not signed by a public CA.
 */
public record ServerTls(Path certificate, Path privateKey, Optional<Path> kubeconfigCa) {
    public ServerTls {
        requireNonNull(certificate, "certificate is null");
        requireNonNull(privateKey, "privateKey is null");
        requireNonNull(kubeconfigCa, "kubeconfigCa is null");
    }
}
