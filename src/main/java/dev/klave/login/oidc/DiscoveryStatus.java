package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the last fetch of the provider's discovery document went, shared by every replica (spec 2
 * §5 "Discovery"): fetched at a time, or failed at a time with an error.
 */
public record DiscoveryStatus(String issuer, Optional<Instant> fetchedAt, Optional<Instant> failedAt,
        Optional<String> error) {
    public DiscoveryStatus {
        requireNonNull(issuer, "issuer is null");
        requireNonNull(fetchedAt, "fetchedAt is null");
        requireNonNull(failedAt, "failedAt is null");
        requireNonNull(error, "error is null");
    }

    private static final Pattern HTTP_STATUS = Pattern.compile("HTTP (\\d{3})");

    /** Whether the last attempt failed (a failing installation-health check, a notice). */
    public boolean failing() {
        return failedAt.isPresent() && fetchedAt.map(fetched -> fetched.isBefore(failedAt.get())).orElse(true);
    }

    /**
     * Why the last fetch failed, in Spanish, for administrators (the status, the notice, the health
     * check); the technical {@link #error()} stays beside it for whoever debugs the provider.
     */
    public Optional<String> explanation() {
        return error.filter(ignored -> failing()).map(DiscoveryStatus::explain);
    }

    static String explain(String error) {
        String lower = error.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("connectexception") || lower.contains("connection refused") || lower.contains("no route")) {
            return "el proveedor no acepta conexiones (¿está caído, o OIDC_ISSUER apunta a otra dirección?)";
        }
        if (lower.contains("unknownhost")) {
            return "no se encuentra el nombre del proveedor en el DNS";
        }
        if (lower.contains("no complete answer") || lower.contains("timeout") || lower.contains("timed out")) {
            return "el proveedor no respondió a tiempo";
        }
        if (lower.contains("ssl") || lower.contains("certificate") || lower.contains("pkix")
                || lower.contains("handshake")) {
            return "no se confía en el certificado del proveedor (¿falta su CA en SSL_CERT_FILE?)";
        }
        if (lower.contains("larger than")) {
            return "la respuesta del proveedor es demasiado grande";
        }
        if (lower.contains("names issuer")) {
            return "el documento de descubrimiento nombra un emisor distinto de OIDC_ISSUER";
        }
        Matcher status = HTTP_STATUS.matcher(error);
        if (status.find()) {
            return "el proveedor respondió con el estado HTTP " + status.group(1);
        }
        if (lower.contains("not valid") || lower.contains("no token endpoint") || lower.contains("not a jwk")) {
            return "el documento de descubrimiento o las claves del proveedor no son válidos";
        }
        return "no se pudo leer el documento de descubrimiento";
    }
}
