package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import dev.klave.crypto.Hmac;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * The {@code requestState} of a held write's URL elicitation (MCP 2026-07-28; spec 3 §4 "Write
 * approval flow" 2): the request id, bound by an HMAC (key from {@code SERVICE_ENCRYPTION_KEY}) to
 * the principal that asked, the hash of its arguments and an expiry, so that a client can neither
 * forge one nor move it to another credential, other arguments or a later time.
 */
final class RequestStates {
    private final Hmac hmac;
    private final Clock clock;
    private final Duration lifetime;

    RequestStates(Hmac hmac, Clock clock, Duration lifetime) {
        this.hmac = requireNonNull(hmac, "hmac is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.lifetime = requireNonNull(lifetime, "lifetime is null");
    }

    String issue(String requestId, String principal, String argumentsHash) {
        String payload = requestId + "|" + principal + "|" + argumentsHash + "|"
                + clock.instant().plus(lifetime).getEpochSecond();
        String encoded = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return encoded + "." + hmac.sign(payload);
    }

    /** The request id, when the state is ours, for this principal and these arguments, and not expired. */
    Optional<String> verify(String state, String principal, String argumentsHash) {
        int dot = state.indexOf('.');
        if (dot < 1 || dot != state.lastIndexOf('.')) {
            return Optional.empty();
        }
        String payload;
        try {
            payload = new String(Base64.getUrlDecoder().decode(state.substring(0, dot)), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!hmac.verify(payload, state.substring(dot + 1))) {
            return Optional.empty();
        }
        String[] parts = payload.split("\\|", -1);
        if (parts.length != 4 || !parts[1].equals(principal) || !parts[2].equals(argumentsHash)) {
            return Optional.empty();
        }
        try {
            if (!clock.instant().isBefore(Instant.ofEpochSecond(Long.parseLong(parts[3])))) {
                return Optional.empty();
            }
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.of(parts[0]);
    }
}
