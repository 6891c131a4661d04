package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Text;
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
            return Text.DISCOVERY_REFUSED.text();
        }
        if (lower.contains("unknownhost")) {
            return Text.DISCOVERY_UNKNOWN_HOST.text();
        }
        if (lower.contains("no complete answer") || lower.contains("timeout") || lower.contains("timed out")) {
            return Text.DISCOVERY_TIMEOUT.text();
        }
        if (lower.contains("ssl") || lower.contains("certificate") || lower.contains("pkix")
                || lower.contains("handshake")) {
            return Text.DISCOVERY_UNTRUSTED.text();
        }
        if (lower.contains("larger than")) {
            return Text.DISCOVERY_TOO_LARGE.text();
        }
        if (lower.contains("names issuer")) {
            return Text.DISCOVERY_OTHER_ISSUER.text();
        }
        Matcher status = HTTP_STATUS.matcher(error);
        if (status.find()) {
            return Text.DISCOVERY_HTTP_STATUS.text(status.group(1));
        }
        if (lower.contains("not valid") || lower.contains("no token endpoint") || lower.contains("not a jwk")) {
            return Text.DISCOVERY_INVALID.text();
        }
        return Text.DISCOVERY_UNREADABLE.text();
    }
}
